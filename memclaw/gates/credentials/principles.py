"""Secrets recognised by what they are, not by one pattern per sighting.

* **Checksummed numbers**: a payment card number passes the Luhn check, an IBAN the
  mod-97 check (``python-stdnum`` does both); an order number or a digest of the same
  length almost never does, so neither needs a label.
* **Seed phrases**: twelve or more words in a row, every one from a BIP-39 word list
  (the ``mnemonic`` package ships them); ordinary prose always has a word that is not.
* **Authenticator seeds**: sixteen base32 characters or more (A-Z and 2-7, in one case,
  whole or in fours) with digits among the letters, or on a line about two-factor setup.
* **Credentials in an address**: ``user:password@host`` with or without a scheme, and
  the password field of a ``.pgpass`` line (``host:port:db:user:password``).
* **A value announced by a credential word**, whatever its shape: a password, PIN,
  passphrase, seed, recovery or backup code, CVV, token, secret, or a code or key of
  something that locks (a door, a gate, an alarm, a safe, a network), in the languages
  people write to their assistant, compound words included ("Portkoden", "Geheimzahl",
  "il codice del cancello"). The value is what the copula or colon introduces; after a
  colon a passphrase or seed runs to the end of the clause, and a plural noun ("recovery
  codes:") takes its whole list.
* **An Authorization header** of any scheme (``SSWS``, ``ApiKey``, ...).
"""

from __future__ import annotations

import re
from functools import cache

from memclaw.gates.credentials.values import (
    QUALIFIED_NOUNS,
    Candidate,
    is_non_value,
    is_placeholder,
)
from memclaw.gates.lazy_re import LazyPattern

__all__ = [
    "OF_WORDS",
    "answer_candidates",
    "asks_for_credential",
    "is_credential",
    "names_a_credential",
    "names_credential",
    "names_lock",
    "principle_candidates",
]

# --- checksummed numbers ---------------------------------------------------------------------

# 13 to 19 digits, grouped as cards are written (4539 1488 0343 6467, with dashes or dots).
# (Also as typed: "2221  0274-59951077", separators mixed or doubled.)
_CARD_RE = LazyPattern(
    r"(?<![\w.-])(?:[2-6]\d{12,18}|[2-6]\d{3}(?P<sep>[ .-])\d{4}(?P=sep)\d{4}(?P=sep)\d{1,7}"
    r"|[2-6]\d{3}[ -]\d{6}[ -]\d{4,5}|[2-6]\d{3}(?:[ .-]{1,2}\d{2,8}){1,4})(?![\w-]|\.\d)"
)
_DIGIT_RUN_RE = LazyPattern(r"\d[\d .-]{11,}\d")
_IBAN_RE = LazyPattern(r"(?i)(?<![\w-])[A-Z]{2} ?\d{2}(?:[ -]?[A-Z0-9]){11,30}(?![\w-])")


def _checksummed(text: str) -> list[Candidate]:
    found: list[Candidate] = []
    # Only a stretch of digits, spaces and dashes long enough to hold a card number is read
    # closely: a long transcript has many short numbers.
    for run in _DIGIT_RUN_RE.finditer(text):
        if sum(c.isdigit() for c in run.group()) < 13:
            continue
        from stdnum import luhn  # only for text holding such a stretch

        for m in _CARD_RE.finditer(text, max(0, run.start() - 1), run.end() + 1):
            number = re.sub(r"[ .-]", "", m.group())
            if 13 <= len(number) <= 19 and luhn.is_valid(number) and not _labelled(text, m):
                found.append((m.start(), m.end(), "card_number", 90))
                found.extend(_card_code(text, m.end()))
    for m in _IBAN_RE.finditer(text):
        from stdnum import iban

        # The longest stretch that checks out: a word after it ("... 00 and") is not part.
        said = m.group()
        ends = [len(said), *(i for i in range(len(said) - 1, 14, -1) if said[i] in " -")]
        for end in ends:
            if iban.is_valid(re.sub(r"[ -]", "", said[:end]).upper()):
                found.append((m.start(), m.start() + end, "iban", 90))
                break
    return found


# A number named as something else is that ("ticket number 4539...", "order 4916..."): one
# in ten of any long number passes the Luhn check by chance.
_OTHER_NUMBER_RE = LazyPattern(
    r"(?i)\b(?:ticket|order|invoice|tracking|reference|ref|(?<!\bin )case|booking|"
    r"confirmation|serial|isbn|phone|tel|ärende|order|faktura|bestellung|rechnung|sendung|pedido|factura|"
    r"commande|facture|ordine|fattura|encomenda|fatura|bestelling|factuur|zamówienie|faktura)"
    r"\w*\W+(?:\w+\W+){0,5}\Z"
)
_CARD_WORD_RE = LazyPattern(
    r"(?i)card|visa|master|amex|kort|karte|tarjeta|carte|carta|cartão|kaart|karta|credit|debit"
)


# Three or four digits on the card's line, after it, that are no date (09/27) nor part of a
# longer number: its security code (CVV, CID, "Prüfnummer", "código de segurança").
_CARD_CODE_RE = LazyPattern(r"(?<![\d/.:-])\d{3,4}(?![\d/.:-])")


def _card_code(text: str, after: int) -> list[Candidate]:
    """(On the card's line or one of the two below it, as a card is copied out.)"""
    line_end = after
    for _ in range(3):
        line_end = text.find("\n", line_end + 1)
        if line_end == -1:
            break
    return [
        (m.start(), m.end(), "card_code", 90)
        for m in _CARD_CODE_RE.finditer(text, after, len(text) if line_end == -1 else line_end)
    ]


def _labelled(text: str, m: re.Match[str]) -> bool:
    before = text[max(0, m.start() - 40) : m.start()]
    near = text[max(0, m.start() - 60) : m.end() + 60]
    return bool(_OTHER_NUMBER_RE.search(before)) and not _CARD_WORD_RE.search(near)


# --- seed phrases ------------------------------------------------------------------------------

_WORD_RE = LazyPattern(r"[a-zà-ÿ]+")
_SEED_GAP_RE = LazyPattern(r"[\s,;.]*(?:\d{1,2}[.):]\s*)?")
_SEED_LENGTH = 12


@cache
def _wordlists() -> tuple[frozenset[str], ...]:
    from mnemonic import Mnemonic

    return tuple(
        frozenset(Mnemonic(language).wordlist)
        for language in ("english", "spanish", "french", "italian", "portuguese")
    )


@cache
def _any_wordlist() -> frozenset[str]:
    return frozenset().union(*_wordlists())


def _seed_phrases(text: str) -> list[Candidate]:
    words = list(_WORD_RE.finditer(text.lower()))
    if len(words) < _SEED_LENGTH:
        return []
    # Prose breaks a run of list words within a few words ("the", "is" are in none): only
    # a stretch of twelve that are in some list is looked at closely.
    known, streak, longest = _any_wordlist(), 0, 0
    for word in words:
        streak = streak + 1 if word.group() in known else 0
        longest = max(longest, streak)
    if longest < _SEED_LENGTH:
        return []
    found: list[Candidate] = []
    for wordlist in _wordlists():
        run: list[re.Match[str]] = []
        for word in words:
            listed = word.group() in wordlist
            if listed and run and _SEED_GAP_RE.fullmatch(text, run[-1].end(), word.start()):
                run.append(word)
                continue
            if _seed(run):
                found.append((run[0].start(), run[-1].end(), "seed_phrase", 90))
            run = [word] if listed else []
        if _seed(run):
            found.append((run[0].start(), run[-1].end(), "seed_phrase", 90))
    return found


def _seed(run: list[re.Match[str]]) -> bool:
    """Twelve list words or more, nearly all different ("alpha alpha alpha ..." is not)."""
    return len(run) >= _SEED_LENGTH and len({w.group() for w in run}) >= 0.75 * len(run)


# --- authenticator seeds ------------------------------------------------------------------------

# A TOTP seed is base32 (A-Z and 2-7), sixteen characters or more, written in one run or in
# groups of four, in one case. Words are almost never that: no 0, 1, 8 or 9, and a few of
# the digits 2-7 among the letters, which a word, an acronym or a product code does not have.
_BASE32_RE = LazyPattern(
    r"(?<![\w/=+-])(?:[A-Z2-7]{16,}|[a-z2-7]{16,}|[A-Z2-7]{4}(?:[ -][A-Z2-7]{4}){3,}"
    r"(?:[ -][A-Z2-7]{1,4})?|[a-z2-7]{4}(?:[ -][a-z2-7]{4}){3,}(?:[ -][a-z2-7]{1,4})?)"
    r"(?![\w/=+-])"
)
_OTP_WORD_RE = LazyPattern(
    r"(?i)2fa|2-?step|two.?factor|totp|otp|mfa|auth?entic|authentif|autentif|authy|setup|set-up|seed|secret|"
    r"backup|recovery|einrichtung|verifi|tvåfaktor|zwei|dos pasos|deux|due fattori|"
    r"dois fatores|twee|dwuetap|kaksivaih|to-?faktor|uwierzyteln"
)


_CID_RE = LazyPattern(r"(?i)\b(?:ipfs|ipns|cid)\b")


def _otp_seeds(text: str) -> list[Candidate]:
    found: list[Candidate] = []
    for m in _BASE32_RE.finditer(text):
        seed = m.group().replace(" ", "").replace("-", "")
        digits = sum(c.isdigit() for c in seed)
        if len(seed) < 16 or digits == len(seed) or len(set(seed)) < 8:
            continue
        if all(c in "0123456789abcdefABCDEF" for c in seed):
            continue  # hex, a hash or an id: a seed of 16 or more draws on all 32 letters
        line_start = text.rfind("\n", 0, m.start()) + 1
        if seed.lower().startswith("baf") or _CID_RE.search(text, line_start, m.start()):
            continue  # IPFS's content address (CIDv1 is base32 too): a name
        told = _OTP_WORD_RE.search(text, line_start, m.start())  # "2FA setup key: ..."
        # In groups, most of them hold a digit ("JBSW Y3DP EHPK 3PXP"), or the line says
        # what it is; words in fours ("room 4567 with anna") do neither.
        groups = m.group().split()
        mixed = sum(any(c.isdigit() for c in g) for g in groups) if len(groups) > 1 else digits
        # (A digit at least: "your last free week" is four words of four letters.)
        if (told and digits) or (digits >= 2 and mixed * 2 >= len(groups)):
            found.append((m.start(), m.end(), "otp_seed", 90))
    return found


# --- credentials in an address ----------------------------------------------------------------

_USERINFO_RE = LazyPattern(
    r"(?<![\w/:@.-])(?P<user>[\w.+-]{1,64}):(?P<v>[^\s:@/]{3,128})@"
    r"(?=(?:[A-Za-z0-9-]+\.)+[A-Za-z0-9-]+|localhost\b|\[)"
)
_PGPASS_RE = LazyPattern(
    r"(?m)(?<![\w.-])[\w.*-]+:(?:\d{2,5}|\*):[\w.*-]+:[\w.*-]+:(?P<v>[^\s:]{3,128})(?=\s|$)"
)


# The payload of a Wi-Fi QR code: "WIFI:S:Home;T:WPA;P:Lemon-Tree-4412;;", fields in any order.
_WIFI_QR_RE = LazyPattern(r"(?i)\bWIFI:(?:[^\n]*?;)?P:(?P<v>(?:\\.|[^;\\\n])+)")


_ADDRESS_SCHEMES = frozenset({"mailto", "sip", "sips", "tel", "xmpp", "im", "news", "irc", "fax"})


def _addresses(text: str) -> list[Candidate]:
    found: list[Candidate] = []
    if "wifi:" in text.lower():
        for m in _WIFI_QR_RE.finditer(text):
            found.append((m.start("v"), m.end("v"), "wifi_password", 90))
    if "@" in text:
        for m in _USERINFO_RE.finditer(text):
            value = m.group("v")
            if m.group("user").lower() in _ADDRESS_SCHEMES:
                continue  # "mailto:billing@example.com" is an address, not a user's password
            if not is_placeholder(value) and value.lower() not in ("password", "pass", "pwd"):
                found.append((m.start("v"), m.end("v"), "url_credentials", 1))
    if text.count(":") >= 4:
        for m in _PGPASS_RE.finditer(text):
            if not is_placeholder(m.group("v")):
                found.append((m.start("v"), m.end("v"), "pgpass", 1))
    return found


# --- a value announced by a credential word ----------------------------------------------------

# What locks, in the languages the gate reads: a code or a key of one of these is a secret.
LOCKS = (
    r"door|front door|gate|alarm|safe|vault|lock|locker|padlock|bike lock|entry|access|"
    r"security|garage|keypad|intercom|building|unlock|wi-?fi|wlan|wpa2?|wep|network|router|"
    r"2fa|totp|otp|mfa|authenticator|two-factor|2-step|setup|backup|recovery|verification|sim|"
    r"port|dörr|larm|grind|kassaskåp|förråd|cykellås|hänglås|"
    r"tür|haustür|tor|alarmanlage|tresor|schloss|zugang|zugangs|wlan-|"
    r"puerta|portal|portón|alarma|caja fuerte|candado|acceso|garaje|"
    r"porte|portail|alarme|coffre|coffre-fort|cadenas|accès|entrée|"
    r"porta|portone|cancello|allarme|cassaforte|lucchetto|accesso|citofono|"
    r"portão|alarme|cofre|cadeado|acesso|garagem|"
    r"deur|voordeur|poort|kluis|toegang|fietsslot|hangslot|"
    r"drzwi|bramy|brama|alarmu|sejfu|sejf|domofonu|kłódki|dostępu|garażu"
)
# What restores an account, in every language the gates read: its key or code is a
# credential ("recovery key", "Wiederherstellungsschlüssel", "clé de récupération").
_RECOVERY = (
    r"recovery|återställning|wiederherstellung|recuperaci[oó]n|r[ée]cup[ée]ration|ripristino|"
    r"recupero|herstel|odzyskiwania|recupera[cç][aã]o|palautus|gendannelse|gjenoppretting"
)
# A code or key, which is a credential when something that locks is named beside it.
_OF_LOCK = (
    r"codes?|keys?|kod(?:en)?|koder|koden|code|schlüssel|código|clave|clé|clef|codice|chiave|"
    r"chave|sleutel|klucz|kodu?|nyckel(?:n)?|combinations?|kombination(?:en)?|combinación|"
    r"combinaison|combinazione|combinação|combinatie|kombinacja|kombinacji"
)
# Words that are a credential by themselves.
_OWN = (
    r"passwords?|passwd|pass-?phrases?|pass-?codes?|pwd|pw|pins?|puks?|pin-?codes?|pin-?numbers?|"
    r"cvv2?|cvc2?|csc|security codes?|card codes?|secret(?: key)?s?|tokens?|wi-?fi|wlan|wpa2?|"
    r"seed(?: words| phrase)?s?|mnemonic|recovery (?:codes?|keys?|phrases?|words)|"
    r"backup codes?|one-time codes?|2fa codes?|totp(?: seed| secret)?|"
    r"lösenord(?:et)?|pinkod(?:en)?|säkerhetskod(?:en)?|engångskod(?:en)?|"
    r"passwort|kennwort|geheimzahl|geheimnummer|pin-nummer|sicherheitscode|"
    r"contraseña|clave|código de seguridad|código pin|"
    r"mot de passe|mdp|code secret|code pin|cryptogramme|"
    r"password|parola d'ordine|codice segreto|codice pin|"
    r"senha|palavra-passe|código secreto|"
    r"wachtwoord|pincode|beveiligingscode|"
    r"hasło|haslo|kod pin|kod cvv|kod bezpieczeństwa|"
    # a key or code of recovery, in one word or apart, in either order
    rf"(?:{_RECOVERY})s?[\s-]?(?:{_OF_LOCK})"
    rf"|(?:{_OF_LOCK})\s+(?:(?:de|di|of|der|zur|för|van|do|da)\s+)?(?:{_RECOVERY})"
)
_COPULA = r"is|was|are|'s|is now|ist|lautet|war|är|blir|es|era|est|c'est|è|é|zijn|to|jest|brzmi"
# Up to five words between the noun and a copula or colon ("for the backup disk", "del
# cancello"); with neither, the value follows the noun at once ("CVV 321").
_NOUN = (
    rf"(?P<noun>\b(?:{_OWN})\b|(?:\b(?:{LOCKS})[\s-]?)?\b(?:{_OF_LOCK})\b"
    rf"|\b\w{{2,}}(?:kod(?:en)?|code|codes|zahl|wort|nummer)\b)"
)
_VALUE = r"(?P<v>\"[^\"\n]+\"|'[^'\n]+'|«[^»\n]+»|[“„][^“”\n]+[“”]|[^\s,;]+)"
QUOTE_MARKS = "\"'«“„"
_ANNOUNCED_RE = LazyPattern(
    rf"(?i){_NOUN}(?P<between>(?:\s+[^\s:=?]+){{0,5}}?)"
    rf"(?P<sep>\s*[:=：]\s*|\s+[—–→]\s*|\s+->\s*|\s+(?:{_COPULA})\s*:?\s+){_VALUE}"
)
_BARE_RE = LazyPattern(rf"(?i){_NOUN}(?P<between>)(?P<sep>[ \t]+){_VALUE}")
_NOUN_RE = LazyPattern(rf"(?i){_NOUN}")
_LOCK_RE = LazyPattern(rf"(?i)\b(?:{LOCKS})")
_COMPOUND_LOCK_RE = LazyPattern(
    r"(?i)^(?:port|dörr|larm|grind|förråd|tür|haustür|tor|alarm|tresor|zugangs?|geheim|"
    r"deur|voordeur|poort|kluis|toegangs?|pin|wifi|wlan|safe|garage|entry|access|door|gate)"
)
_MULTIWORD = LazyPattern(r"(?i)pass-?phrase|seed|mnemonic|recovery|backup|words|phrase")
_PLURAL = LazyPattern(r"(?i)(?:[a-z]s|koder|codici|kody)\Z")
# Words that start no value: "the PIN is on the letter", "the password is too short".
_NOT_A_VALUE = frozenset(
    """
    a an the this that these those my your our their his her its on in at of for to from with
    by not no never too very so still now also just only required needed missing wrong
    correct incorrect expired changed reset empty blank same different new old long short
    weak strong secret private public hidden stored saved written kept sent shared set valid
    invalid here there where what which who how why when if as and or but be been being is
    are was were will would should must can could may might has have had do does did
    och att som för med på till av i är var inte den det ein eine der die das ist nicht
    und mit für auf im es el la los las un una de del en es no y con para por que le les
    et à au est pas pour sur il lo gli di da che non é do na no em um uma het een van op
    niet voor met nie na w z do jest się we i you he she they it vi wir nous noi wij my
    see siehe se voir ver vedi zie zobacz manager
    """.split()  # noqa: SIM905
)
_CLAUSE_RE = LazyPattern(r"[^\n.;!?]*")
_TOKEN_RE = LazyPattern(r"[^\s,;]+")
_PHRASE_RE = LazyPattern(r"[^\W\d_]+(?:[ -][^\W\d_]+){2,}")  # three words or more


# Where a credential word may be (lower case): the full patterns are tried only around
# these, found with ``str.find``, which costs next to nothing on a long transcript.
_STEMS = (
    "pass", "pin", "pw", "cvv", "cvc", "csc", "cod", "cód", "kod", "key", "clave", "clé", "clef",
    "chiave", "chave", "sleutel", "klucz", "nyckel", "schlüssel", "secret", "token", "seed",
    "mnemonic", "recovery", "backup", "lösen", "wort", "zahl", "nummer", "senha", "hasło",
    "haslo", "mdp", "cryptogramme", "totp", "2fa", "contrase", "parola", "geheim", "combina",
    "kombina", "wifi", "wi-fi", "wlan", "wpa",
)  # fmt: skip
_BEFORE = 40  # room for a lock named before its code ("front door code")
_WORDS_BEFORE = 3
# The words of the clause right before a noun, where a lock is named ("garage door opener").
_LEAD_RE = LazyPattern(r"(?:[^\W\d][\w-]*[ \t]+){1,3}\Z")
_AFTER = 240  # room for the words between a noun and its value, and the value


def _stems(lower: str) -> list[int]:
    found = []
    for stem in _STEMS:
        at = lower.find(stem)
        while at != -1:
            found.append(at)
            at = lower.find(stem, at + 1)
    return sorted(found)


def _matches(text: str, lower: str) -> list[re.Match[str]]:
    """The announced and bare matches that start at, or a few words before, the word
    holding each credential stem of ``text`` (a lock named first: "front door code")."""
    seen: dict[tuple[int, int], re.Match[str]] = {}
    tried: set[int] = set()
    for at in _stems(lower):
        starts = [_word_start(text, at)]
        # The last part of a compound ("Bitlocker-Wiederherstellungsschlüssel"), not of an
        # id ("m-seed").
        part = text.rfind("-", starts[0], at) + 1
        part = part if part - starts[0] > 3 else 0
        for _ in range(_WORDS_BEFORE):
            if starts[-1] == 0:
                break
            before = text.rfind(" ", 0, max(0, starts[-1] - 1)) + 1  # 0: the text's first word
            if starts[-1] - before > _BEFORE:
                break
            starts.append(before)
        if part:
            starts.append(part)
        hi = min(len(text), at + _AFTER)
        for start in starts:
            if start in tried:
                continue
            tried.add(start)
            for pattern in (_ANNOUNCED_RE, _BARE_RE):
                m = pattern.match(text, start, hi)
                if m is not None:
                    seen.setdefault(m.span(), m)
    return list(seen.values())


def _word_start(text: str, at: int) -> int:
    while at > 0 and (text[at - 1].isalnum() or text[at - 1] in "-_"):
        at -= 1
    return at


def _announced(text: str, lower: str) -> list[Candidate]:
    found: list[Candidate] = []
    for m in _matches(text, lower):
        noun, between, sep = m.group("noun"), m.group("between") or "", m.group("sep")
        raw, start, end = m.group("v"), m.start("v"), m.end("v")
        if raw[:1] in QUOTE_MARKS:
            value = raw[1:-1].strip()
            start = text.index(value, start)
            end = start + len(value)
        else:
            value = raw.rstrip(".!?)")
            end = start + len(value)
        lead = _LEAD_RE.search(text, max(0, m.start() - _BEFORE), m.start())
        named = between + " " + (lead.group() if lead else "")
        quoted = raw[:1] in QUOTE_MARKS and not is_placeholder(value)
        labelled = ":" in sep and not _COUNTED_RE.match(noun)
        if not (value and names_credential(noun, named)):
            continue
        if not _names_it(between, noun, quoted=quoted, labelled=labelled):
            continue
        listed = ":" in sep or (not sep.strip() and _looks_set(value, bare=True))
        if _PLURAL.search(noun) and listed:
            # "recovery codes: a b c d", "PINs: debit card 4471, credit card 8812": each
            # value of the list that follows is one (found apart, so that one another rule
            # took already does not hide the rest).
            clause = _CLAUSE_RE.match(text, start)
            for token in _TOKEN_RE.finditer(text, start, clause.end() if clause else end):
                said = token.group().rstrip(".!?)")
                if _looks_set(said, bare=True):
                    found.append((token.start(), token.start() + len(said), "credential", 1))
            continue
        colon = any(mark in sep for mark in ":=—–→>")  # what follows is what it names
        phrase = _MULTIWORD.search(noun) and colon and _PHRASE_RE.match(text, start)
        grouped = colon and not quoted and _grouped_end(text, start)
        if grouped:
            end = grouped  # "app password: qwvn hxlp tmse zrkb", as it was generated
        elif not (quoted or phrase or _looks_set(value, bare=not sep.strip())):
            continue
        if phrase:
            # A passphrase or a seed runs on to the end of its clause.
            clause = _CLAUSE_RE.match(text, end)
            end += len(clause.group().rstrip()) if clause else 0
        found.append((start, end, "credential", 1))
    return found


# Words that join a noun to what it belongs to: "the code OF the gate", "codice DEL cancello".
OF_WORDS = frozenset(
    """
    for of to at on from del de di da du des della dello dei für von vom zu zum zur bei am
    för till på i av hos van voor bij do na dla od u w z
    """.split()  # noqa: SIM905
)


# Credential words that are also counted or budgeted ("token limit: 4000").
_COUNTED_RE = LazyPattern(r"(?i)tokens?\b|secrets?\b")


def _names_it(
    between: str, noun: str = "", *, quoted: bool = False, labelled: bool = False
) -> bool:
    """Whether the credential word is what the value is given for: nothing between them,
    a belonging ("password for the NAS is"), or the locked thing ("code wifi :"); not
    another noun it merely qualifies ("the token budget is 4000"), nor a thing said to be
    something after a ``noun`` that is itself what locks ("the Wi-Fi router is TP-Link": a
    router). One word that says whose it is may stand between them before a colon ("wifi
    home: …", "PIN bank: …") or before a quoted value ("le mot de passe maître est « …
    »"), unless that word is what the value names ("password manager is '1Password'")."""
    words = between.split()
    if (quoted or labelled) and len(words) == 1 and words[0].lower() not in QUALIFIED_NOUNS:
        return True
    # (said to *be* something, a lock's lock is a device; after a colon, its value is listed)
    device = not labelled and bool(_LOCK_RE.fullmatch(noun))
    locked = bool(words) and bool(_LOCK_RE.fullmatch(words[0])) and not device
    return not words or words[0].lower() in OF_WORDS or locked


_GROUP_RE = LazyPattern(r"[^\W_]{4,8}")


def _grouped_end(text: str, start: int) -> int:
    """Where a value written in three groups or more of one length ends ("qwvn hxlp tmse
    zrkb", "4471 9921 0032"), as generated codes are shown; 0 when it is not one. Words
    of a sentence are seldom all of one length, and never all of them are not words."""
    lengths: set[int] = set()
    groups, at, end = 0, start, start
    while (m := _GROUP_RE.match(text, at)) is not None:
        word = m.group()
        if word.lower() in _NOT_A_VALUE or is_non_value(word):
            return 0
        lengths.add(len(word))
        if len(lengths) > 1:
            break
        groups, end = groups + 1, m.end()
        if text[end : end + 1] not in (" ", "-"):
            break
        at = end + 1
    return end if groups >= 3 else 0


_CODE_RE = LazyPattern(r"[(\[{$<~/]|(?:self|this|cls|os|env|process)\.|\w+[(\[]")
_COUNT_RE = LazyPattern(r"\d{1,2}")  # "your PIN is 4 digits", "12 characters"
_HASHES = frozenset("md5 sha1 sha-1 sha256 sha-256 sha512 bcrypt scrypt argon2 pbkdf2".split())  # noqa: SIM905


def _looks_set(value: str, *, bare: bool) -> bool:
    """Whether ``value``, said right after a credential word, is the credential rather than
    words about it: it holds a digit (beyond a count), or a symbol or a capital inside
    letters ("Velvet#Fox", "HappyOtterRiver"). A plain word ("geheim", "expired", "see")
    is left to the plain-word rule of the prose gate, which knows what words a password
    is not; with no copula or colon between them, only a value with a digit counts."""
    lowered = value.lower()
    if lowered in _NOT_A_VALUE or lowered in _HASHES or is_placeholder(value):
        return False
    if _CODE_RE.match(value) or _COUNT_RE.fullmatch(value):
        return False
    digit = any(c.isdigit() for c in value)
    if not digit and is_non_value(value):
        return False
    if bare:
        return digit and len(value) >= 3
    inner = value[1:]
    # (Not a hyphen between words: "case-sensitive", "well-known" are words.)
    mixed = any(c.isupper() for c in inner) or any(
        not c.isalnum() and c not in "'’-" for c in inner
    )
    return digit or (mixed and any(c.isalpha() for c in value))


def names_credential(noun: str, between: str) -> bool:
    """Whether ``noun`` (with the words ``between`` it and its value) names a credential:
    one by itself, or a code or key of something that locks."""
    return is_credential(noun) or names_lock(noun, between)


def is_credential(noun: str) -> bool:
    """Whether ``noun`` is a credential by itself (a password, a PIN, a PUK, a CVV …)."""
    plain = noun.lower().replace("-", " ").strip()
    return bool(re.fullmatch(rf"(?:{_OWN})", plain, re.I))


def names_lock(noun: str, between: str) -> bool:
    """Whether something that locks is named in ``noun`` or the words ``between`` it and its
    value, apart or in a compound ("Portkoden", "Türcode", "Geheimzahl", "deurcode")."""
    if _LOCK_RE.search(noun) or _LOCK_RE.search(between):
        return True
    plain = noun.lower().replace("-", " ").strip()
    return bool(_COMPOUND_LOCK_RE.match(plain)) and plain not in ("code", "codes")


# "smtp login noreply@acme.io / Mistletoe!2026", "Zugang: admin / Brezel77".
_LOGIN_RE = LazyPattern(
    r"(?i)\b(?:log-?in|inlogg?(?:en|a)?|sign-?in|creds|credentials|inloggning(?:en)?|anmeldung|"
    r"zugang|identifiants?|connexion|credenciales|acceso|credenziali|accesso|inloggegevens|"
    # a network's name and password: "guest network: Smith_Guest / welcome-to-our-home"
    r"logowanie|wi-?fi|wlan|network|nätverk(?:et)?|netzwerk|réseau|rete|rede|netwerk|sieć)\b"
    # A few words may name what it is for: "inloggen op de router: admin / Kaaskop!2019".
    r"(?:(?:[ \t]+[^\s/:]+){1,4}?[ \t]*:|[ \t]*:?)[ \t]*(?P<user>[^\s/:]+)[ \t]+/[ \t]+"
    r"(?P<v>[^\s\"'`]+)"
)


_LOGIN_HINTS = (
    "log", "sign", "cred", "anmeld", "zugang", "identifiant", "connexion", "acce", "wi", "wlan",
    "network", "nätverk", "netzwerk", "réseau", "rete", "rede", "netwerk", "sieć",
)  # fmt: skip


def _logins(text: str) -> list[Candidate]:
    return [
        (
            m.start("v"),
            m.end("v") - len(m.group("v")) + len(m.group("v").rstrip(".,;!?)")),
            "login",
            1,
        )
        for m in _LOGIN_RE.finditer(text)
        if not is_placeholder(m.group("v")) and m.group("v").lower() not in _NOT_A_VALUE
    ]


# --- the answer to a security question ----------------------------------------------------------

# "Security question", "Sicherheitsfrage", "säkerhetssvaret", "pregunta de seguridad",
# "question secrète", "Turvakysymys": a word of safety joined to a word of asking or answering.
_SAFE = (
    r"security|sicherheits|geheim|säkerhets|seguridad|secr[eè]te|sécurité|sicurezza|segurança|"
    r"beveiligings|bezpieczeństwa|sikkerhe[dt]s|turva"
)
_ASK = (
    r"questions?|qs?|answers?|frage|antwort|fråg|svar|pregunta|respuesta|réponse|domand|"
    r"rispost|pergunta|resposta|vraag|antwoord|pytani|odpowied|spørsmål|spørgsmål|kysymy|vastau"
)
_SECURITY_QA_RE = LazyPattern(
    rf"(?i)\b(?:{_SAFE})[\w-]*?[ -]?(?:{_ASK})\w*"
    rf"|\b(?:question|pregunta|domand|pergunta|réponse|respuesta|rispost|resposta|pytani)\w*"
    rf"(?:\s+(?:à\s+la\s+question\s+)?(?:de|di|of|da))?\s+(?:{_SAFE})\w*"
)
# What sets an answer off: a colon, an arrow, a dash, "=", "Answer:", or after a question
# mark; a copula ("... är Rönnbärsvägen") only before a name.
_ANSWER_WORD = r"answer|svar|antwort|respuesta|réponse|risposta|resposta|antwoord|odpowiedź|vastaus"
_SET_OFF_RE = LazyPattern(
    rf"(?i)\s*(?:->|→|=>|=|–|—|:)\s*|\?\s+(?:(?:{_ANSWER_WORD})\s*:?\s+)?"
    rf"|\s+(?:{_ANSWER_WORD})\s*:?\s+"
)
_COPULA_BEFORE_NAME_RE = LazyPattern(r"\s+(?:is|är|ist|es|est|è|é|er|on|jest|=)\s+(?=[A-ZÀ-Ý\d])")
_LIST_ITEM_RE = LazyPattern(r"[ \t]*(?:[-*•]|\d+[.)])[ \t]+[^\n]*")


def _security_answers(text: str) -> list[Candidate]:
    """The answer to a security question is a password by another name, whatever it is."""
    found: list[Candidate] = []
    for m in _SECURITY_QA_RE.finditer(text):
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end == -1 else line_end
        lines = [(m.end(), line_end)]
        rest = text[m.end() : line_end].strip()
        if not rest.strip(":") or rest.endswith(":"):
            # "security Qs for the insurance site:" and a list below it, an answer a line.
            at = line_end + 1
            while at < len(text) and (item := _LIST_ITEM_RE.match(text, at)) is not None:
                lines.append((item.start(), item.end()))
                at = item.end() + 1
        for start, end in lines:
            for chunk_start, chunk_end in _chunks(text, start, end):
                answer = _answer(text, chunk_start, chunk_end)
                if answer is not None:
                    found.append((*answer, "security_answer", 1))
    return found


def _chunks(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``text[start:end]`` cut at each comma or semicolon after which a new pair begins
    ("favourite teacher = Mr Pumpernickel, dream job = lighthouse keeper")."""
    cuts = [start]
    for at in range(start, end):
        if text[at] in ",;" and _SET_OFF_RE.search(text, at + 1, end):
            cuts.append(at + 1)
    return [(a, b - 1 if b != end else b) for a, b in zip(cuts, [*cuts[1:], end], strict=True)]


def _answer(text: str, start: int, end: int) -> tuple[int, int] | None:
    # The last separator of the chunk sets the answer off; a copula only when none does.
    marks = list(_SET_OFF_RE.finditer(text, start, end)) or list(
        _COPULA_BEFORE_NAME_RE.finditer(text, start, end)
    )
    if not marks:
        return None
    last = marks[-1]
    value = text[last.end() : end].strip()
    value = re.sub(r"\s*\([^)]*\)\s*$", "", value).rstrip(" .!,;")
    words = value.split()
    if not words or value.endswith("?") or len(words) > 5 or words[0].lower() in _NOT_A_VALUE:
        return None
    at = text.index(value, last.end())
    return at, at + len(value)


# --- Authorization headers ---------------------------------------------------------------------

_AUTHORIZATION_RE = LazyPattern(
    r"(?i)\b(?:proxy-)?authorization\s*:\s*(?:[A-Za-z][\w-]*\s+)?(?P<v>[^\s\"']{8,})"
)


# A scheme of parameters (Digest's response, OAuth's signature, AWS4's Signature=...).
_PARAMETER_RE = LazyPattern(r"[\w-]+=[^=\s]")  # (not base64's padding: "...ZA==")
_PARAMETERS_RE = LazyPattern(r"[\w-]+=(?P<v>\"[^\"\n]*\"|[^,\s]+)")


def _authorization(text: str) -> list[Candidate]:
    found: list[Candidate] = []
    for m in _AUTHORIZATION_RE.finditer(text):
        if _PARAMETER_RE.match(text, m.start("v")):
            # Every parameter's value goes: which of them is the credential differs by
            # scheme, and the rest (a realm, a nonce) tells nothing worth keeping.
            line_end = text.find("\n", m.start("v"))
            line_end = len(text) if line_end == -1 else line_end
            for p in _PARAMETERS_RE.finditer(text, m.start("v"), line_end):
                value = p.group("v").strip('"')
                if value:
                    at = text.index(value, p.start("v"))
                    found.append((at, at + len(value), "authorization", 1))
            continue
        value = m.group("v").strip("`").rstrip(".,;)")
        if value.isalpha() or is_placeholder(value) or _CODE_RE.match(value):
            continue  # "Authorization: Bearer followed by the token", "<token>"
        found.append((m.start("v"), m.start("v") + len(value), "authorization", 1))
    return found


def principle_candidates(text: str, lower: str) -> list[Candidate]:
    """Every secret the principles above find in ``text`` (``lower`` is its lower case)."""
    found = _checksummed(text) + _addresses(text)
    if any(c.isalpha() for c in text):
        found += _announced(text, lower)
        found += _seed_phrases(text)
        found += _otp_seeds(text)
        found += _security_answers(text)
        if "/" in text and any(w in lower for w in _LOGIN_HINTS):
            found += _logins(text)
    if "authorization" in lower:
        found += _authorization(text)
    return found


# --- an answer to a question about a credential ------------------------------------------------


def asks_for_credential(question: str) -> bool:
    """Whether ``question`` asks about a credential ("What's the alarm code again?")."""
    if "?" not in question:
        return False
    return any(names_credential(m.group(), question) for m in _NOUN_RE.finditer(question))


def names_a_credential(text: str) -> bool:
    """Whether ``text`` names a credential anywhere ("le token coupé en trois :")."""
    return any(names_credential(m.group(), text) for m in _NOUN_RE.finditer(text))


def answer_candidates(
    answer: str, *, opening_only: bool = False, shaped_only: bool = False
) -> list[Candidate]:
    """In the message answering a question about a credential, what the credential is:
    the whole message when it is one word, else each word that a name never looks like
    (a digit, an inner capital, a symbol between letters: "2580", "Marzipan-Kite-5").
    ``shaped_only``: only such words, four characters or more (a piece of a credential
    given in parts); ``opening_only``: only such a word that opens the message ("8142,
    and the panel is behind the coats"), as a reply opens with what was asked."""
    tokens = list(_TOKEN_RE.finditer(answer))
    shaped_only = shaped_only or opening_only
    found: list[Candidate] = []
    for m in tokens[:1] if opening_only else tokens:
        value = m.group().strip("\"'`").rstrip(".!?)")
        if not value or value.lower() in _NOT_A_VALUE or is_placeholder(value):
            continue
        inner = value[1:]
        shaped = (
            any(c.isdigit() for c in value)
            or any(c.isupper() for c in inner)
            or any(not c.isalnum() for c in inner.rstrip("'"))
        )
        if shaped_only and not (shaped and len(value) >= 4):
            continue
        if len(tokens) == 1 or (shaped and not value.endswith(":")):
            start = m.start() + m.group().index(value)
            found.append((start, start + len(value), "answered_credential", 1))
    return found
