"""Credentials handed to a program: password arguments and environment variables set by tools.

* Programs that take a password as an argument: ``sshpass -p``, ``docker login -p`` (podman,
  helm registry, oras ...), ``mongosh -p``, ``redis-cli -a``, ``htpasswd -b file user pass``
  and ``mysql -p'...'`` with a quoted password (the unquoted form is in credentials.prose). Only
  after the program's name: ``-p`` is a port for ssh, psql and docker run.
* Variables set by a tool rather than by ``NAME=value``: Windows ``setx NAME value``,
  PowerShell's ``[Environment]::SetEnvironmentVariable("NAME", "value")`` and Kubernetes
  ``- name: NAME`` / ``value: ...`` pairs. The name decides as it does for assignments.
* Variables stated in prose, in any language the prose rules read: "PGPASSWORD on the
  replica is Cloud-berry-5", "setze DB_PASSWORD auf Bergsee-9". The shouted name replaces
  the credential noun; its value may be a passphrase of hyphenated words.

A value that is a variable, a substitution or a placeholder (``$TOKEN``, ``%KEY%``,
``${{ secrets.X }}``) names a secret kept elsewhere and is not flagged.
"""

from __future__ import annotations

import re

from memclaw.gates.credentials.assignments import secret_name_kind
from memclaw.gates.credentials.prose import (
    _CLAUSE_END_RE,
    _CODE_VALUE_RE,
    _DESCRIPTOR_ENDINGS,
    _DESCRIPTORS,
    _PATHLIKE,
    _VALUE,
    _VERBS,
)
from memclaw.gates.credentials.values import (
    Candidate,
    find_all,
    is_non_value,
    is_placeholder,
    passwordish,
)
from memclaw.gates.lazy_re import LazyPattern

# Endings of a half that describes ("short-lived", "read-only"), but "-ing": a passphrase's
# word often ends so ("velvet-morning").
_HALF_DESCRIBES = tuple(e for e in _DESCRIPTOR_ENDINGS if e != "ing")

__all__ = ["command_candidates"]

# One shell argument: double-quoted, single-quoted or bare. Only the inside is redacted.
_ARG = r"(?:\"(?P<dq>[^\"\n]+)\"|'(?P<sq>[^'\n]+)'|(?P<bare>[^\s\"'`;|&<>]+))"
_END = r"(?=[ \t]|$|\n|[;|&])"


def _pattern(body: str) -> LazyPattern:
    return LazyPattern(body + _ARG + _END, re.M)


# (pattern, hint that must occur in the lower-cased text for the pattern to be tried)
_PASSWORD_ARGS: tuple[tuple[LazyPattern, str], ...] = (
    (_pattern(r"\bsshpass\b[^\n]*?[ \t]-p[ \t]*"), "sshpass"),
    (
        _pattern(
            r"\b(?:docker|podman|nerdctl|buildah|skopeo|helm|oras|crane|oc)\b[^\n]*?"
            r"[ \t]login\b[^\n]*?[ \t](?:-p|--password)(?:[ \t]+|=)"
        ),
        "login",
    ),
    (
        _pattern(
            r"\bmongo(?:sh|dump|restore|export|import|stat|top)?\b[^\n]*?[ \t]"
            r"(?:-p|--password)(?:[ \t]+|=)"
        ),
        "mongo",
    ),
    (_pattern(r"\bredis-cli\b[^\n]*?[ \t](?:-a|--pass)[ \t]+"), "redis-cli"),
    # htpasswd -b[c] FILE USER PASSWORD, htpasswd -nb USER PASSWORD: the password comes last.
    (
        # The password ends the command, or "htpasswd -b file user pass" in prose would
        # read "user" as one.
        LazyPattern(
            r"\bhtpasswd(?:[ \t]+-[A-Za-z]*b[A-Za-z]*)(?:[ \t]+[^\s\-]\S*){1,2}[ \t]+"
            + _ARG
            + r"(?=[ \t]*(?:$|\n|[;|&>]))",
            re.M,
        ),
        "htpasswd",
    ),
    (_pattern(r"\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?[ \t]-p(?=[\"'])"), "mysql"),
)

# Tools that set a named variable; the name must be a secret's (DB_PASSWORD, API_TOKEN).
_NAMED_SETTERS: tuple[tuple[LazyPattern, str], ...] = (
    (
        _pattern(r"\bsetx(?:[ \t]+/[A-Za-z])*[ \t]+[\"']?(?P<name>[A-Za-z_][\w.\-]*)[\"']?[ \t]+"),
        "setx",
    ),
    (
        LazyPattern(
            r"SetEnvironmentVariable\([ \t]*[\"'](?P<name>[^\"'\n]+)[\"'][ \t]*,[ \t]*"
            r"(?:\"(?P<dq>[^\"\n]+)\"|'(?P<sq>[^'\n]+)')",
            re.I,
        ),
        "setenvironmentvariable",
    ),
    (
        _pattern(
            r"(?<![\w-])name:[ \t]*[\"']?(?P<name>[A-Za-z_][\w.\-]*)[\"']?[ \t]*\r?\n"
            r"[ \t]*(?:-[ \t]+)?value:[ \t]*"
        ),
        "value:",
    ),
)


def _value_span(m: re.Match[str]) -> tuple[int, int] | None:
    for group in ("dq", "sq", "bare"):
        if group in m.re.groupindex and m.group(group) is not None:
            value = m.group(group)
            if (
                len(value) < 3
                or value.startswith(("-", "$", "%", "<"))
                or is_placeholder(value)
                or is_non_value(value)
            ):
                return None
            return m.span(group)
    return None


# "PGPASSWORD on the replica is Cloud-berry-5", "setze DB_PASSWORD auf Bergsee-9": a shouted
# variable name that names a secret (as on a .env line), up to five words, a verb, a value.
_ENV_WORDS = ("PASS", "PWD", "TOKEN", "SECRET", "KEY")
_ENV_NAME_RE = LazyPattern(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
# Longest first: "is now" before "is", or "now" would be taken for the value.
_ENV_VERBS = "|".join(
    [*sorted((v for v in _VERBS.split("|") if v != "="), key=len, reverse=True), "auf|à|till|op"]
)
# A verb, a dash (Russian "PGPASSWORD — X") or a CJK topic particle ("PGPASSWORDは X").
_ENV_STATED_RE = LazyPattern(
    rf"(?:[ \t]+(?i:{_ENV_VERBS})[ \t]+|[ \t]*(?:—|–)[ \t]*|[ \t]*(?:は|는|은|是|为|為)[ \t]*)"
    + _VALUE
)
_FILE_NAME_RE = LazyPattern(
    r"id_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?|[\w\-]+\.(?:pem|key|crt|cer|der|pub|p12|pfx|json|txt"
    r"|env|ya?ml|cfg|conf|ini|asc|gpg|kdbx)"
)
_ENV_GAP_WORD_RE = LazyPattern(r"[ \t]+(?:[^\s.,;:!?=：]|[:.](?=\w))+")
# Halves of hyphenated words that describe ("read-only", "one-time", "per-user").
_HYPHEN_DESCRIBERS = frozenset(
    {
        "only", "time", "based", "level", "side", "wide", "free", "safe", "known", "term",
        "date", "like", "case", "scope", "wise", "type", "memory", "line", "text", "write",
        "read", "user", "app", "one", "two", "all", "any", "non", "pre", "post", "multi",
        "single", "first", "last", "new", "old", "high", "low", "short", "long", "well",
        "self", "auto", "hard", "soft", "plain", "clear", "open", "closed", "machine",
    }
)  # fmt: skip


def _env_value_ok(m: re.Match[str], text: str) -> bool:
    raw = m.group("value")
    if raw[:1] in "\"'`":
        inner = raw[1:-1]
        return not is_placeholder(inner) and not is_non_value(inner)
    if _CODE_VALUE_RE.fullmatch(raw) or is_placeholder(raw) or is_non_value(raw):
        return False
    lower = raw.lower()
    if lower in _DESCRIPTORS or raw.startswith(_PATHLIKE) or _FILE_NAME_RE.fullmatch(lower):
        return False  # "SSH_KEY is id_ed25519", "the PRIVATE_KEY is key.pem": files
    if passwordish(raw):
        return True
    parts = lower.split("-")
    if len(parts) > 1:
        # A passphrase of words ("velvet-morning") unless a half describes ("short-lived").
        return all(
            len(p) >= 3
            and p.isalpha()
            and p not in _HYPHEN_DESCRIBERS
            and not p.endswith(_HALF_DESCRIBES)
            for p in parts
        )
    if not raw.isalpha() or len(raw) < 4 or not _CLAUSE_END_RE.match(text, m.end("value")):
        return False
    if raw[0].isupper() and raw[1:].islower():
        return not lower.endswith(("ed", "ing", "able", "ible"))  # "Sunflower", not "Expired"
    return raw.islower() and not lower.endswith(_DESCRIPTOR_ENDINGS)


def _glued(c: str) -> bool:
    """A Latin letter or digit touching the name makes it part of a longer word; CJK text
    runs up to a name with no space ("PGPASSWORDは")."""
    return c.isascii() and c.isalnum()


def _env_stated(text: str) -> list[Candidate]:
    out: list[Candidate] = []
    seen: set[int] = set()
    for word in _ENV_WORDS:
        for hit in find_all(text, word):
            ns = hit
            while ns > 0 and (
                text[ns - 1].isupper() or text[ns - 1].isdigit() or text[ns - 1] == "_"
            ):
                ns -= 1
            name = _ENV_NAME_RE.match(text, ns)
            if (
                name is None
                or ns in seen
                or (ns and (_glued(text[ns - 1]) or text[ns - 1] in "=-"))
            ):
                continue
            seen.add(ns)
            kind = secret_name_kind(name.group())
            pos = name.end()
            if not kind or (pos < len(text) and (_glued(text[pos]) or text[pos] == "_")):
                continue
            for _ in range(6):
                m = _ENV_STATED_RE.match(text, pos)
                if m is not None and _env_value_ok(m, text):
                    out.append((*m.span("value"), kind, 15))
                    break
                gap = _ENV_GAP_WORD_RE.match(text, pos)
                if gap is None:
                    break
                pos = gap.end()
    return out


def command_candidates(text: str, lower: str) -> list[Candidate]:
    out: list[Candidate] = []
    for pattern, hint in _PASSWORD_ARGS:
        if hint not in lower:
            continue
        for m in pattern.finditer(text):
            span = _value_span(m)
            if span is not None:
                out.append((*span, "password", 65))
    for pattern, hint in _NAMED_SETTERS:
        if hint not in lower:
            continue
        for m in pattern.finditer(text):
            kind = secret_name_kind(m.group("name"))
            span = _value_span(m) if kind else None
            if span is not None:
                out.append((*span, kind, 55))
    if any(w in text for w in _ENV_WORDS):
        out.extend(_env_stated(text))
    return out
