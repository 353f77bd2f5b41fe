"""Credentials announced in words, and credentials on command lines and in connection strings.

* "the password for the staging db is hunter2", "Mein Passwort ist Sonnenblume-88",
  "暗証番号は 8264 です", "PIN-koodini on 6083": a credential noun in one of the languages the
  offline engine reads (and a few more users write in), up to five words of qualifier, a
  copula or a colon, then the value. The value has to look like a password (letters mixed
  with digits or symbols, not a word) or, after a PIN/code noun, like a 4-8 digit code, so
  "the password is too short" and "the PIN is on the letter" stay quiet.
* "password Qz8!rTp4" with no verb (netrc lines, "login is root, password X") needs a value
  that could not be a word at all: letters, digits and a symbol or an inner capital.
* ``curl -u user:pass``, ``mysql -pSECRET``, and ``Password=`` / ``Pwd=`` / ``AccountKey=``
  inside ``;``/``&``-separated connection strings (JDBC, ODBC, ADO.NET, Azure storage).
"""

from __future__ import annotations

import re

from memclaw.gates.lazy_re import LazyPattern
from memclaw.gates.secret_rules import Rule, run_rules
from memclaw.gates.secret_values import (
    Candidate,
    is_non_value,
    is_placeholder,
    passwordish,
    strong_password,
)

__all__ = ["prose_candidates"]

# Credential nouns. Latin-script ones are matched case-insensitively after a word boundary.
_NOUNS = (
    r"passwords?|passwd|passphrase|passcode|pass[ -]?code|pin(?:[- ]?(?:code|koodi(?:ni)?"
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
    r"is|was|is now|are|'s|ist|lautet|est|c'est|es|era|é|è|e|on|oli|to|jest|är|var|er"
    r"|set to|satt till|="
)
_VALUE = r"(?P<value>\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|[^\s\"'`]+?)(?=[.,;:!?)\]]*(?:\s|$))"

_ANNOUNCED_RE = LazyPattern(
    rf"(?:(?i:\b(?P<noun>{_NOUNS}))\b|(?P<cjk>{_CJK_NOUNS}))"
    r"(?P<gap>(?:[ \t]+[^\s.,;:!?=：]+){0,5}?)"
    rf"(?:[ \t]+(?i:{_VERBS})[ \t]+|[ \t]*(?:[:：=]|—|–)[ \t]*|[ \t]*(?:は|는|은|是|为|為)[ \t]*)"
    + _VALUE
)
_BARE_RE = LazyPattern(
    r"(?i:\b(?:password|passwort|kennwort|пароль|hasło|salasana|wachtwoord|contraseña|senha))"
    r"[ \t]+(?P<value>[^\s\"'`]+?)(?=[.,;)\]]*(?:\s|$))"
)
_ANCHORS = (
    "pass", "pin", "code", "key", "secret", "token", "lösenord", "koden", "kennwort",
    "zugangscode", "mot de passe", "contraseña", "clave", "senha", "palavra-passe",
    "parola d'ordine", "wachtwoord", "salasana", "tunnussana", "hasło", "haslo", "пароль",
    "пин", "код доступа", "パスワード", "暗証番号", "비밀번호", "패스워드", "암호",
)  # fmt: skip


# Code, not a value: "token: Optional[str]", "token = get_token()", "password=self.password".
_CODE_VALUE_RE = LazyPattern(r"[A-Za-z_][\w.]*(?:\(.*|\[.*)|(?:self|this|cls)\..*")


def _announced_ok(m: re.Match[str], text: str) -> bool:
    raw = m.group("value")
    if _CODE_VALUE_RE.fullmatch(raw):
        return False
    if raw[:1] in "\"'`":
        inner = raw[1:-1]
        return not is_placeholder(inner) and not is_non_value(inner)
    if is_placeholder(raw) or is_non_value(raw):
        return False
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
    return passwordish(raw)


def _bare_ok(m: re.Match[str], _text: str) -> bool:
    value = m.group("value")
    return strong_password(value) and not is_placeholder(value)


def _real_value(m: re.Match[str], _text: str) -> bool:
    value = m.group("v")
    return not is_placeholder(value) and not is_non_value(value)


_RULES: tuple[Rule, ...] = (
    Rule("password", 15, _ANNOUNCED_RE, "value", _announced_ok, anchors=_ANCHORS),
    Rule(
        "password",
        14,
        _BARE_RE,
        "value",
        _bare_ok,
        anchors=(
            "password",
            "passwort",
            "kennwort",
            "пароль",
            "hasło",
            "salasana",
            "wachtwoord",
            "contraseña",
            "senha",
        ),
    ),
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
