"""Credentials announced in words, and credentials on command lines and in connection strings.

* "the password for the staging db is hunter2", "Mein Passwort ist Sonnenblume-88",
  "暗証番号は 8264 です", "PIN-koodini on 6083": a credential noun in one of the languages the
  offline engine reads (and a few more users write in), up to five words of qualifier, a
  copula or a colon, then the value. The value has to look like a password (letters mixed
  with digits or symbols, not a word) or, after a PIN/code noun, like a 4-8 digit code, so
  "the password is too short" and "the PIN is on the letter" stay quiet.
* "password Qz8!rTp4", "the staging db password hunter2", "passcode 1234" with no verb (netrc
  lines, "login is root, password X") needs a value that looks like a password (letters mixed
  with digits or symbols) or, after a passcode noun, a 4-8 digit code.
* Passwords of plain words ("the wifi password is CorrectHorseBatteryStaple", "Das Passwort ist
  Schmetterling", "my laptop password is sunshine"): see :func:`_plain_word_password`.
* "The admin login is root / hunter2", "creds: bob:Tr0ub4dor": a login noun, a copula or a
  colon, then ``user / pass`` or ``user:pass``.
* ``curl -u user:pass``, ``mysql -pSECRET``, and ``Password=`` / ``Pwd=`` / ``AccountKey=``
  inside ``;``/``&``-separated connection strings (JDBC, ODBC, ADO.NET, Azure storage).
"""

from __future__ import annotations

import re

from memclaw.gates.credentials.rules import Rule, run_rules
from memclaw.gates.credentials.values import (
    QUALIFIED_NOUNS,
    Candidate,
    is_non_value,
    is_placeholder,
    passwordish,
    strong_password,
)
from memclaw.gates.lazy_re import LazyPattern

__all__ = ["prose_candidates"]

# Credential nouns. Latin-script ones are matched case-insensitively after a word boundary.
_NOUNS = (
    r"passwords?|passwd|passphrase|passcode|pass[ -]?code|pwd?|pin(?:[- ]?(?:code|koodi(?:ni)?"
    r"|kod(?:en)?|nummer|number))?|pincode|code(?:[ -]pin| secret)?|key|secret|token"
    r"|lösenord(?:et)?|koden|passwort|kennwort|zugangscode|mot de passe|contraseña|clave"
    r"|senha|palavra-passe|parola d'ordine|wachtwoord|salasana(?:ni|si|mme|nne)?|tunnussana"
    r"|hasło|haslo|пароль|пин(?:-код)?|код доступа"
)
# A bare "code" or "key" is only a credential behind one of these ("door code", "api key").
_QUALIFIER_RE = LazyPattern(
    r"(?i)\b(?:door|gate|alarm|safe|lock|entry|access|security|garage|keypad|unlock|wifi"
    r"|wi-fi|wlan|network|license|licence|api)[ -]?\Z"
)
_CJK_NOUNS = r"パスワード|暗証番号|비밀번호|패스워드|암호|PIN ?码|PIN ?碼"
_PIN_NOUN_RE = LazyPattern(r"pin|code|kod|koodi|код|пин|暗証", re.I)
_VERBS = (
    # (Not Swedish "var": "bytas var 90:e dag" is "every 90th day", not "was".)
    r"is|was|is now|are|'s|ist|lautet|est|c'est|es|era|é|è|e|on|oli|to|jest|är|er"
    r"|set to|satt till|="
)
# A value ends at a space, after closing punctuation or a closing backtick (markdown code).
_VALUE = r"(?P<value>\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|[^\s\"'`]+?)(?=[.,;:!?)\]`]*(?:\s|$))"


def _separator(verbs: str) -> str:
    """A copula, a possessive-looking "'s", a colon or a dash between a noun and its value."""
    return (
        rf"(?P<sep>[ \t]+(?i:{verbs})[ \t]+|['’]s[ \t]+|[ \t]*(?:[:：=]|—|–)[ \t]*"
        r"|[ \t]*(?:は|는|은|是|为|為)[ \t]*)"
    )


_SEPARATOR = _separator(_VERBS)
# Qualifiers between the noun and the verb; a word may hold an inner colon or dot (Swedish
# "VPN:en", "db.internal").
_GAP = r"(?P<gap>(?:[ \t]+(?:[^\s.,;:!?=：]|[:.](?=\w))+){0,5}?)"

_ANNOUNCED_RE = LazyPattern(
    rf"(?:(?i:\b(?P<noun>{_NOUNS}))\b|(?P<cjk>{_CJK_NOUNS})){_GAP}{_SEPARATOR}" + _VALUE
)
# The credential nouns that can stand right before their value, with no verb.
_BARE_NOUNS = (
    r"passwords?|passwd|passcode|pass[ -]?code|pwd?|passwort|kennwort|lösenord(?:et)?"
    r"|mot de passe|contraseña|senha|wachtwoord|salasana|hasło|haslo|пароль"
)
_BARE_RE = LazyPattern(
    rf"(?i:\b(?P<noun>{_BARE_NOUNS}))[ \t]+(?P<value>[^\s\"'`]+?)(?=[.,;:!?)\]`]*(?:\s|$))"
)
_BARE_ANCHORS = (
    "pass", "pw", "kennwort", "lösenord", "mot de passe", "contraseña", "senha", "wachtwoord",
    "salasana", "hasło", "haslo", "пароль",
)  # fmt: skip
# "login is root / hunter2", "creds: bob:Tr0ub4dor", "Zugang: admin / Brezel77".
_LOGIN_NOUNS = (
    r"log-?ins?|sign-?in|credentials|creds|user(?:name)?/pass(?:word)?|inloggning(?:en)?"
    r"|inloggningsuppgifter(?:na)?|zugang(?:sdaten)?|anmeldung|anmeldedaten|login-daten"
    r"|identifiants|connexion|credenciales|acceso|credenziali|accesso|inloggegevens"
    r"|tunnukset|kirjautuminen|dane logowania|logowanie|учётные данные|учетные данные|логин"
    r"|basic[ -]?auth"
)
# Not Polish "to": "login to aws/console" is where one signs in, not with what.
_LOGIN_SEPARATOR = _separator("|".join(v for v in _VERBS.split("|") if v != "to"))
_LOGIN_RE = LazyPattern(
    rf"(?i:\b(?P<noun>{_LOGIN_NOUNS}))\b{_GAP}{_LOGIN_SEPARATOR}"
    r"(?P<user>[^\s/:\"'`]+)(?:[ \t]*/[ \t]*|:)(?P<value>[^\s\"'`]+?)(?=[.,;:!?)\]`]*(?:\s|$))"
)
_LOGIN_ANCHORS = (
    "log", "sign", "credentials", "creds", "user", "inlogg", "zugang", "anmeld", "identifiants",
    "connexion", "credenciales", "acceso", "credenziali", "accesso", "tunnukset",
    "kirjautuminen", "dane logowania", "учётные", "учетные", "логин", "basic",
)  # fmt: skip
_ANCHORS = (
    "pass", "pw", "pin", "code", "key", "secret", "token", "lösenord", "koden", "kennwort",
    "zugangscode", "mot de passe", "contraseña", "clave", "senha", "palavra-passe",
    "parola d'ordine", "wachtwoord", "salasana", "tunnussana", "hasło", "haslo", "пароль",
    "пин", "код доступа", "パスワード", "暗証番号", "비밀번호", "패스워드", "암호",
)  # fmt: skip


# Code, not a value: "token: Optional[str]", "token = get_token()", "password=self.password".
_CODE_VALUE_RE = LazyPattern(r"[A-Za-z_][\w.]*(?:\(.*|\[.*)|(?:self|this|cls)\..*")


# Plain-word passwords: which nouns may announce them, and what a plain word must not be.
_PLAIN_NOUN_RE = LazyPattern(
    r"pass|pw|lösenord|kennwort|mot de passe|contraseña|clave|senha|palavra-passe"
    r"|parola d'ordine|wachtwoord|salasana|tunnussana|hasło|haslo|пароль|パスワード|비밀번호"
    r"|패스워드|암호",
    re.I,
)
_ENGLISH_NOUN_RE = LazyPattern(r"passwords?|passwd|passphrase|passcode|pass[ -]?code|pwd?", re.I)
_ENGLISH_SEPARATORS = frozenset({"is", "was", "is now", "'s", ":", "=", "set to", "—", "–"})
# "password for the shared drive is X": the noun is the head. "password manager: LastPass":
# another noun is, and the value names that, not a password.
_HEAD_KEEPERS = frozenset(
    {
        "for", "of", "to", "on", "at", "from", "in", "till", "för", "på", "av", "für",
        "vom", "von", "zum", "zur", "des", "der", "du", "de", "pour", "del", "della", "dello",
        "per", "di", "da", "do", "van", "voor", "dla", "od", "от", "для", "к", "na",
    }
)  # fmt: skip
# Words that describe a password rather than being one ("the password is fine").
_DESCRIPTORS = frozenset(
    {
        "wrong", "right", "correct", "incorrect", "invalid", "valid", "weak", "strong", "short",
        "long", "new", "old", "same", "secret", "safe", "unsafe", "secure", "insecure", "fine",
        "okay", "good", "bad", "great", "simple", "easy", "hard", "complex", "unique", "random",
        "forgotten", "lost", "gone", "missing", "blank", "set", "reset", "saved", "mandatory",
        "ready", "known", "there", "here", "elsewhere", "below", "above", "inside", "outside",
        "mine", "yours", "ours", "theirs", "his", "hers", "broken", "due", "overdue", "stale",
        "fresh", "obvious", "pwned", "leaked", "longer", "shorter", "stronger", "weaker",
        "better", "worse", "safer", "easier", "harder", "simpler", "newer", "older", "too",
        "very", "still", "now", "also", "not", "never", "always", "what", "which", "this",
        "that", "these", "those", "enough", "none", "null", "nothing", "something",
        "unchanged", "whatever", "anything", "everything", "somewhere", "obligatory",
        "given", "taken", "shown", "written", "chosen", "stolen", "sent", "read", "kept",
        "held", "found", "made", "done", "plaintext", "cleartext", "private", "public",
        # the same states in the other languages the gate reads, as forms and UIs write them
        "pflicht", "sicher", "falsch", "richtig", "geheim", "neu", "alt", "unbekannt", "leer",
        "fehlt", "keins", "obligatoire", "requis", "vide", "inconnu", "masqué", "caché",
        "obligatorio", "requerido", "vacío", "oculto", "desconocido", "obligatoriskt", "okänt",
        "dolt", "tomt", "tom", "verplicht", "leeg", "onbekend", "pakollinen", "tyhjä",
        "obligatoria", "obbligatoria", "obbligatorio", "vuota", "vuoto", "wymagane", "puste",
    }
)  # fmt: skip
# English adjective and participle endings ("expired", "changing", "sensitive", "optional").
_DESCRIPTOR_ENDINGS = (
    "ed", "ing", "ive", "ous", "able", "ible", "ful", "less", "ish", "est", "ic", "al", "ent",
    "ary", "ory",
)  # fmt: skip
# Ways to sign in, listed as "login: web/mobile", "sign-in: sms/app": not a user and password.
_SIGN_IN_WORDS = frozenset(
    {
        "web", "mobile", "desktop", "app", "apps", "phone", "sms", "email", "mail", "sso",
        "saml", "oauth", "oidc", "ldap", "kerberos", "passkey", "passkeys", "otp", "totp", "2fa",
        "mfa", "biometric", "fingerprint", "face", "card", "badge", "qr", "magic", "link",
        "google", "github", "apple", "microsoft", "facebook", "browser", "cli", "api", "ui",
        "local", "remote", "guest", "anonymous", "manual", "automatic", "auto",
    }
)  # fmt: skip
_CLAUSE_END_RE = LazyPattern(r"[.,;:!?)\]`]+(?:\s|$)|[ \t]*(?:\n|$)|[ \t]+[(\-—–]")


def _camel_phrase(word: str) -> bool:
    """``CorrectHorseBatteryStaple``: two or more capitalised words glued together."""
    if len(word) < 8 or not word[0].isupper():
        return False
    humps = [i for i, c in enumerate(word) if c.isupper()]
    bounds = [*humps, len(word)]
    return len(humps) >= 2 and all(
        bounds[k + 1] - bounds[k] >= 2 and word[bounds[k] + 1 : bounds[k + 1]].islower()
        for k in range(len(humps))
    )


def _plain_word_password(
    m: re.Match[str], text: str, noun: str, user: str = "", login: bool = False
) -> bool:
    """A value of letters only, after a password noun: is it a password or a description?

    * Glued capitalised words ("CorrectHorseBatteryStaple") are a passphrase in any language.
    * One capitalised word closing the clause ("Das Passwort ist Schmetterling", "la
      contraseña es Manzana") is a password: adjectives and states are lower-case there.
    * One lower-case word only in English, closing the clause after "is" or a colon, when it
      is not a descriptor ("sunshine" yes; "fine", "expired", "sensitive" no); in any
      language as the second half of a login pair ("login: root/toor").

    Only where the noun is the head of its phrase ("password for the drive is X", not
    "password manager: X"), and never for a login whose user looks like a product name.
    """
    value = m.group("value")
    if not value.isalpha() or len(value) < 4 or value.isupper():
        return False
    if m.group("sep").lstrip()[:1] in "'’":
        return False  # "my password's strength": a possessive as often as "is"
    if not _PLAIN_NOUN_RE.search(noun):
        return False
    gap = m.group("gap").split()
    if gap and gap[0].lower() not in _HEAD_KEEPERS:
        return False
    if user and not (user[:1].islower() or not user.isalpha()):
        return False  # "login: Google/Facebook" lists providers
    if not _CLAUSE_END_RE.match(text, m.end("value")):
        return False
    lower = value.lower()
    if lower in _DESCRIPTORS or is_non_value(value):
        return False
    if _camel_phrase(value):
        return True
    english = bool(_ENGLISH_NOUN_RE.fullmatch(noun))
    if value[0].isupper() and value[1:].islower():
        # Form labels capitalise states too ("Password: Expired").
        return not (english and lower.endswith(("ed", "ing", "able", "ible")))
    if not value.islower() or lower.endswith(_DESCRIPTOR_ENDINGS):
        return False
    sep = " ".join(m.group("sep").split()).lower()
    return login or (english and sep in _ENGLISH_SEPARATORS)


def _in_command(text: str, start: int) -> bool:
    """``vault read -field=password secret/db``, ``$(pass show password x)``: the noun is an
    argument of a command, not the start of a sentence about a password."""
    if start and text[start - 1] in "=$":
        return True
    before = text[text.rfind("\n", 0, start) + 1 : start]
    if before.count("$(") > before.count(")"):
        return True
    # X=`cmd ...` substitutes a command; other backticks are markdown code, still read.
    tick = before.rfind("=`")
    return tick != -1 and "`" not in before[tick + 2 :]


def _announced_ok(m: re.Match[str], text: str) -> bool:
    raw = m.group("value")
    if _CODE_VALUE_RE.fullmatch(raw) or (m.group("noun") and _in_command(text, m.start())):
        return False
    gap = m.group("gap").split()
    if gap and gap[0].lower() in QUALIFIED_NOUNS:
        # The noun qualifies another, which is what the value names: "my password manager
        # is '1Password'" (a product), "the password policy is ISO-27001".
        return False
    if raw[:1] in "\"'`":
        inner = raw[1:-1]
        return not is_placeholder(inner) and not is_non_value(inner)
    if is_placeholder(raw) or is_non_value(raw) or raw[:1] in "([{":
        return False  # (a remark in brackets: "Password: (ask Maria, she has it)")
    noun = m.group("noun") or m.group("cjk") or ""
    if noun.lower() in ("code", "key"):
        start = m.start("noun")
        if not _QUALIFIER_RE.search(text[max(0, start - 12) : start]):
            return False
    if raw.isdigit() and _PIN_NOUN_RE.search(noun):
        return 4 <= len(raw) <= 8
    if noun.lower() in ("token", "secret") or noun.lower().endswith("key"):
        # Everyday words ("the secret is patience"): only values that cannot be words.
        return strong_password(raw) or (passwordish(raw) and len(raw) >= 8)
    return passwordish(raw) or _plain_word_password(m, text, noun)


# Hash names and encodings follow "password" in prose about storing one ("password sha256").
_ALGORITHMS = frozenset(
    {
        "md5", "sha1", "sha256", "sha384", "sha512", "sha3", "bcrypt", "scrypt", "argon2",
        "argon2i", "argon2d", "argon2id", "pbkdf2", "utf8", "utf-8", "base64", "hex", "ntlm",
        "ntlmv2", "des3", "aes128", "aes256", "rot13", "x509",
    }
)  # fmt: skip
_PATHLIKE = ("/", "~", "./", "../", "\\", "http:", "https:")


def _bare_ok(m: re.Match[str], text: str) -> bool:
    value = m.group("value")
    if is_placeholder(value) or is_non_value(value) or value.startswith(_PATHLIKE):
        return False
    if _in_command(text, m.start()):
        return False
    if value.lower() in _ALGORITHMS or _CODE_VALUE_RE.fullmatch(value):
        return False
    if value.isdigit():
        # "passcode 1234": a code noun takes a PIN; "password 2024" is a year or a count.
        return 4 <= len(value) <= 8 and "code" in m.group("noun").lower()
    return passwordish(value)


def _login_ok(m: re.Match[str], text: str) -> bool:
    user, value = m.group("user"), m.group("value")
    if "//" in m.group(0) or value.startswith(_PATHLIKE) or user.startswith(_PATHLIKE):
        return False
    if is_placeholder(value) or is_non_value(value) or is_non_value(user):
        return False
    if user.lower() in _SIGN_IN_WORDS or value.lower() in _SIGN_IN_WORDS:
        return False
    if user.isdigit():
        return False  # "logins went up to 500/week" is a rate
    if _CODE_VALUE_RE.fullmatch(value) and not value.isalpha():
        return False
    if passwordish(value):
        return True
    # "user / pass" in a login: the value is a password even when it is a plain word, unless
    # the "user" is a host ("login: github.com/settings" is a page).
    if "." in user:
        return False
    return _plain_word_password(m, text, "pass", user, login=True)


def _real_value(m: re.Match[str], _text: str) -> bool:
    value = m.group("v")
    return not is_placeholder(value) and not is_non_value(value)


_RULES: tuple[Rule, ...] = (
    Rule("password", 15, _ANNOUNCED_RE, "value", _announced_ok, anchors=_ANCHORS),
    Rule("password", 14, _BARE_RE, "value", _bare_ok, anchors=_BARE_ANCHORS),
    Rule("password", 16, _LOGIN_RE, "value", _login_ok, anchors=_LOGIN_ANCHORS),
    Rule(
        "password",
        65,
        # Connection strings: "...;Password=x;", "?user=app&password=x", "AccountKey=...".
        LazyPattern(
            r"[;?&][ \t]*(?i:password|pwd|passwd|pass|accountkey|sharedaccesskey"
            r"|sharedsecret)[ \t]*=[ \t]*(?P<v>[^;&\s\"'<>]{3,})"
        ),
        "v",
        _real_value,
        anchors=(";", "?", "&"),
    ),
    Rule(
        "password",
        65,
        LazyPattern(
            r"\b(?:curl|wget)\b[^\n]*?[ \t](?:-u|--user)[ \t]*[\"']?"
            r"[^\s:\"'/]+:(?P<v>[^\s\"'@]{3,})"
        ),
        "v",
        _real_value,
        anchors=("curl", "wget"),
    ),
    Rule(
        "password",
        65,
        LazyPattern(r"\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?[ \t]-p(?P<v>[^\s\"']{3,})"),
        "v",
        _real_value,
        anchors=("mysql", "mariadb"),
    ),
)


def prose_candidates(text: str, lower: str) -> list[Candidate]:
    return run_rules(_RULES, text, lower)
