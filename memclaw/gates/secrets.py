"""Secret gate: find credentials in text and redact them before anything is written to memory.

Memory files are plain markdown that gets re-read into prompts, synced and committed, so a
credential that slips in once leaks forever. This module is the last line of defence and is
therefore biased towards *recall* on well-known credential shapes, while staying quiet on the
look-alikes that fill ordinary engineering chat (commit SHAs, UUIDs, checksums, paths,
version strings, prose about passwords).

Detection works in three layers, all plain regexes plus a few cheap checks in Python:

1. Vendor shapes with a fixed prefix (``sk-``, ``ghp_``, ``AKIA``, ``xoxb-``, JWTs, PEM blocks,
   webhook URLs ...). The prefix is strong evidence, so the body only has to look non-wordy.
2. Assignments (``password=...``, ``"apiKey": "..."``, ``DB_PASS=...``, ``--token ...``, prose
   such as "the wifi password is hunter2"). The *name* decides whether a value is sensitive;
   the value only has to not be a placeholder, a type name or a code reference.
3. Random-looking strings (high entropy, mixed character classes, >= 24 chars) that sit in
   configuration context or right after a word like "key" or "token".

Decisions about look-alikes (documented because they are judgement calls):

* A bare UUID is an identifier, not a secret (unless it is assigned to a secret-named key).
* Hex digests (commit SHAs, ``sha256: ...`` checksums, SRI ``integrity`` values, SSH
  fingerprints and public keys) are not secrets: their label or neighbourhood says so.
* Placeholders are not secrets: ``<your-key>``, ``${VAR}``, ``$VAR``, ``{{var}}``, ``xxxx``,
  ``****``, ``...``, ``[REDACTED]``, empty values, and a value that merely repeats a label
  word (``user:password@host`` in documentation). ``changeme`` *is* treated as a password.
* Documentation values are not secrets when they say so: anything containing "example"
  (AWS writes ``...EXAMPLEKEY``), a shouted or snake-case label as the value (``MYTOKEN``,
  ``keyfile_password``). Vendor-shaped tokens are still flagged even in examples.
* Code is not a secret: ``password: str``, ``token=get_token()``, ``api_key=settings.API_KEY``,
  ``f(password=pw)`` (a variable passed as an argument), ``self.token = nxt``.
* A name is secret when its *head* (last word, ignoring trailers like ``_BASE``, ``_PROD``) is
  a secret word: ``DB_PASSWORD`` yes, ``PASSWORD_MIN_LENGTH``/``TOKEN_URL``/``AUTH_ENABLED``
  no. Public keys and pagination/idempotency tokens (``NextToken``) are not secrets.
* In running prose a one-word value must look like a password ("hunter2", not "required"),
  and trailing sentence punctuation is not part of it ("... is Vinter2025." keeps the dot).
* A pure-hex string under a neutral config label (``expected: 6e9e...``) is treated as a
  digest; hex keys are caught through their secret-named label instead.
"""

from __future__ import annotations

import math
import re
import string
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "REDACTION_PREFIX",
    "SecretFinding",
    "contains_secret",
    "find_secrets",
    "redact",
]

REDACTION_PREFIX = "[REDACTED:"

# A marker we wrote ourselves must never be re-flagged, otherwise redact() is not idempotent.
_MARKER_RE = re.compile(r"\[REDACTED(?::[A-Za-z0-9_]+)?\]")
_NEWLINE_RE = re.compile(r"\n")


@dataclass(frozen=True)
class SecretFinding:
    """One detected secret. Holds positions, never the secret itself.

    ``start``/``end`` delimit only the sensitive part (for ``password=hunter2`` just
    ``hunter2``), so redaction can keep the key name. ``line`` is 1-based.
    ``preview`` shows at most the first 4 characters (fewer for short secrets) plus "…",
    so findings can be logged without re-leaking what they describe.
    """

    kind: str
    start: int
    end: int
    line: int
    preview: str = ""


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------

# Splits an alphanumeric run into "words": camel-case humps, upper-case blocks, digit blocks.
# Random strings fall apart into many tiny pieces; identifiers and prose into long ones.
_COMP_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_ALNUM_RUN_RE = re.compile(r"[A-Za-z0-9]+")


_LOWER = frozenset(string.ascii_lowercase)
_UPPER = frozenset(string.ascii_uppercase)
_DIGIT = frozenset(string.digits)


def _classes(s: str) -> int:
    chars = set(s)
    return sum(not cls.isdisjoint(chars) for cls in (_LOWER, _UPPER, _DIGIT))


def _entropy(s: str) -> float:
    """Shannon entropy in bits per character."""
    n = len(s)
    if not n:
        return 0.0
    return -sum(k / n * math.log2(k / n) for k in Counter(s).values())


def _run_is_random(run: str) -> bool:
    # Mixed classes AND short average "word" length: "AuthTokenProvider2" has long humps and is
    # an identifier, "Xk29fjQ0pL3mZ8vB" shatters into 1-2 char pieces and is noise-like.
    if len(run) < 6 or _classes(run) < 2:
        return False
    comps = _COMP_RE.findall(run)
    return len(run) / max(len(comps), 1) <= 3.0


def _looks_random(s: str, min_len: int = 24, min_random: int = 16) -> bool:
    """True for machine-generated tokens, false for slugs, identifiers, paths and words."""
    # A long blob is judged by its head: enough evidence, and it keeps the scan linear-time.
    core = s[:256].rstrip("=")
    if len(core) < min_len:
        return False
    runs = _ALNUM_RUN_RE.findall(core)
    total = sum(len(r) for r in runs)
    rand = sum(len(r) for r in runs if _run_is_random(r))
    # Half of the characters must sit in random runs; low-entropy repeats are not keys.
    return rand >= min_random and rand * 2 >= total and _entropy(core) >= 3.0


def _prefixed_body_ok(body: str, min_alnum: int = 20) -> bool:
    """Validate the body after a vendor prefix such as ``sk-`` or ``ghp_``.

    The prefix already carries most of the evidence, so hand-made fakes like
    ``sk-abcdefghijklmnopqrstuvwxyz123456`` still count, but "sk-learn-is-a-python-library"
    (no long run, single class) does not.
    """
    runs = _ALNUM_RUN_RE.findall(body)
    total = sum(len(r) for r in runs)
    if total < min_alnum or _classes(body) < 2:
        return False
    return max((len(r) for r in runs), default=0) >= 12


def _split_name(name: str) -> list[str]:
    """``OPENAI_API_KEY`` / ``apiKey`` / ``X-Auth-Token`` -> lower-case components."""
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    return [p.lower() for p in re.split(r"[_.\-\s]+", s) if p]


# ---------------------------------------------------------------------------------------------
# Names: which keys hold secrets
# ---------------------------------------------------------------------------------------------

_STRONG_WORDS = frozenset(
    {
        "password", "passwd", "passphrase", "passcode", "pwd", "secret", "secrets", "token",
        "credential", "credentials", "apikey", "apitoken", "apisecret", "authtoken",
        "accesstoken", "refreshtoken", "secretkey", "privatekey", "accesskey", "clientsecret",
        "lösenord", "lösenordet", "passord", "passwort", "contraseña",
    }
)  # fmt: skip
_WEAK_WORDS = frozenset({"key", "auth", "pass", "nyckel", "nyckeln"})
# "key" is weak on its own ("sort_key") but strong behind one of these ("api_key").
_KEY_QUALIFIERS = frozenset(
    {
        "api", "access", "secret", "private", "signing", "encryption", "master", "auth",
        "session", "client", "app", "service", "subscription", "license", "admin", "root",
        "deploy", "webhook", "integration", "openai", "anthropic", "stripe", "mem0",
    }
)  # fmt: skip
# Names are noun phrases whose *last* word is the head: DB_PASSWORD is a password,
# PASSWORD_MIN_LENGTH is a length, TOKEN_URL is a URL. Only these words may follow the secret
# word without changing what the name denotes.
_SECRET_TRAILERS = frozenset(
    {
        "base", "value", "val", "string", "str", "b64", "base64", "hex", "raw", "plain",
        "plaintext", "json", "data", "bytes", "env", "prod", "production", "dev", "development",
        "test", "testing", "staging", "stage", "live", "local", "old", "new", "current", "next",
        "prev", "primary", "secondary", "backup", "enc", "encoded", "encrypted", "ro", "rw",
        "readonly", "admin", "root", "confirm", "confirmation", "again", "repeat", "secret",
        "override", "literal", "text",
    }
)  # fmt: skip
_NON_SECRET_PREFIX = frozenset(
    {
        "max", "min", "num", "n", "is", "has", "use", "enable", "disable", "require",
        "requires", "show", "allow", "no", "count", "total", "forgot", "reset", "change",
        "check", "verify", "validate", "input", "output", "prompt", "completion", "have",
        "struct", "exact", "get", "set", "on", "handle", "parse", "print", "format",
    }
)  # fmt: skip
# Words that make a name denote something public or bookkeeping, never a credential:
# public keys, and pagination / idempotency / lock "tokens" that APIs hand out freely.
_NEUTRALIZERS = frozenset({"public", "pub"})
_HARMLESS_TOKEN_QUALIFIERS = frozenset(
    {
        "next", "page", "starting", "start", "continuation", "idempotency", "lock", "sync",
        "cursor", "pagination", "cancel", "cancellation", "resume", "marker", "paging",
        "prev", "previous",
    }
)  # fmt: skip
_ORDINALS = frozenset(
    {"first", "second", "third", "final", "last", "single", "multi", "one", "two", "next", "prev"}
)
_PASSWORD_WORDS = frozenset(
    {"password", "passwd", "passphrase", "passcode", "pwd", "pass", "lösenord", "lösenordet",
     "passord", "passwort", "contraseña"}
)  # fmt: skip
_KEY_WORDS = frozenset(
    {"key", "apikey", "accesskey", "privatekey", "secretkey", "nyckel", "nyckeln"}
)
# Non-ASCII names have no separators to split on, so these are matched as substrings.
_CJK_SECRET_WORDS = ("密码", "密碼", "口令", "密钥", "密鑰", "秘钥", "令牌", "凭证", "憑證")
_CJK_PASSWORD_WORDS = ("密码", "密碼", "口令")


def _name_strength(name: str, env_style: bool) -> tuple[int, str]:
    """Return (strength, kind): 2 = any real value is secret, 1 = only random values, 0 = no."""
    if any(w in name for w in _CJK_SECRET_WORDS):
        return 2, "password" if any(w in name for w in _CJK_PASSWORD_WORDS) else "secret"
    comps = _split_name(name)
    hit = -1
    for i, c in enumerate(comps):
        if c in _STRONG_WORDS or c in _WEAK_WORDS:
            hit = i
    if hit < 0:
        return 0, ""
    if any(c not in _SECRET_TRAILERS and not c.isdigit() for c in comps[hit + 1 :]):
        return 0, ""
    if hit > 0 and comps[0] in _NON_SECRET_PREFIX:
        return 0, ""
    if any(c in _NEUTRALIZERS for c in comps):
        return 0, ""
    word = comps[hit]
    if word == "token" and hit > 0 and comps[hit - 1] in _HARMLESS_TOKEN_QUALIFIERS:
        return 0, ""
    if word in _PASSWORD_WORDS:
        kind = "password"
    elif "token" in word or word == "auth":
        kind = "token"
    elif word in _KEY_WORDS:
        kind = "api_key"
    else:
        kind = "secret"
    if word in _STRONG_WORDS:
        return 2, kind
    # Weak words are everywhere in ordinary config ("sort_key", "auth: oauth2", "first_pass").
    # .env lines are the exception: there, *_KEY / *_AUTH / *_PASS names are credentials.
    if env_style:
        return 2, kind
    if word == "key" and hit > 0 and comps[hit - 1] in _KEY_QUALIFIERS:
        return 2, kind
    if word == "pass" and hit > 0 and comps[0] not in _ORDINALS:
        return 2, kind  # smtp_pass, db_pass — but not first_pass / single_pass
    return 1, kind


# ---------------------------------------------------------------------------------------------
# Values: placeholders, non-values and code references
# ---------------------------------------------------------------------------------------------

_PLACEHOLDER_RE = re.compile(
    r"""
    <[^<>]*>                                        # <your-key>, <redacted>
    | \$\{[^}]*\}? | \$\([^)]*\)? | \$[A-Za-z_]\w*   # ${VAR}, $(cmd), $VAR
    | \{\{.*\}\}? | \{%.*%\} | \{[A-Za-z_0-9][\w.]*\} | \{\}   # {{ var }}, {var}, {}
    | %[A-Za-z_]\w*% | .*%[-+0-9.]*[sdrfx].*          # %VAR%, printf formats
    | \[?REDACTED(?::\w+)?\]? | \[[^\]]*redacted[^\]]*\]
    | [xX*•.…#_\-]+                                   # xxxx, ****, ..., ---
    | (?:[A-Za-z]{1,8}[_\-]){1,2}[xX*•.…]{4,}[\w\-]{0,4}   # sk-xxxxxxxx, ghp_****abcd
    | (?:your|insert|enter|replace|add|put)[\s_\-][\w\s\-]*
    | [\w\-]*[_\-](?:here|goes[_\-]here)
    | (?:sample|dummy|placeholder|redacted)(?:[_\-][\w\-]*)?
    """,
    re.X | re.I,
)
# Values that say "there is no secret here": booleans, nulls, type annotations, label words
# ("postgres://user:password@host" in documentation), HTML input types.
_NON_VALUES = frozenset(
    {
        "true", "false", "yes", "no", "on", "off", "null", "none", "nil", "undefined", "nan",
        "enabled", "disabled", "required", "optional", "unset", "empty", "default", "n/a",
        "na", "tbd", "todo", "hidden", "masked", "omitted", "string", "str", "int", "integer",
        "number", "bool", "boolean", "bytes", "bytearray", "any", "unknown", "object", "dict",
        "list", "text", "secretstr", "secretbytes", "password", "passwd", "pass", "pwd",
        "secret", "token", "key", "apikey", "api_key", "credential", "credentials", "value",
        "auth", "bearer", "basic", "oauth", "oauth2", "jwt", "env", "lösenord", "eof",
        "seconds", "minutes", "hours", "days", "weeks", "ms", "s", "m", "h", "d",
    }
)  # fmt: skip
_CODE_PREFIXES = (
    "self.", "cls.", "os.", "env.", "process.env", "config.", "settings.", "args.", "opts.",
    "options.", "params.", "ctx.", "context.", "request.", "secrets.", "vars.", "this.",
    "import.meta", "getenv", "environ", "new ", "await ",
)  # fmt: skip
_CODE_NAME_PREFIXES = ("self.", "this.", "cls.", "ctx.", "opts.", "options.", "args.")
_IDENT_RE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_PATH_OR_URL_RE = re.compile(r"(?:/|~/|\./|\.\./|[A-Za-z]:\\|[A-Za-z][\w+.\-]*://)")
_HYPHEN_WORDS_RE = re.compile(r"[A-Za-z]{3,}\d*(?:-[A-Za-z]{3,}\d*)+")


_FORMAT_FIELD_RE = re.compile(r"\{[^{}]*\}|%[-+0-9.]*[sdrfx]")


def _is_placeholder(value: str) -> bool:
    v = value.strip()
    if not v or _PLACEHOLDER_RE.fullmatch(v) or _SHOUTED_LABEL_RE.fullmatch(v):
        return True
    if _SNAKE_LABEL_RE.fullmatch(v) or "${" in v or "{{" in v:
        return True
    # AWS and others mark documentation values with EXAMPLE ("wJalrXUtnFEMI/...EXAMPLEKEY").
    if "example" in v.lower():
        return True
    # Pure format strings ("{0}:{1}", "%s:%s") are templates, not values.
    stripped = _FORMAT_FIELD_RE.sub("", v)
    return stripped != v and not any(c.isalnum() for c in stripped)


_NUMBERISH_RE = re.compile(r"[-+]?v?\d+(?:[.,]\d+)+")
# "YOUR_TOKEN", "MYTOKEN", "API_KEY": an upper-case label used as a stand-in value.
_SHOUTED_LABEL_RE = re.compile(r"[A-Z_]*(?:TOKEN|PASSWORD|PASSWD|SECRET|KEY|PASS)[A-Z_]*")
# "keyfile_password", "my_api_token": a snake-case name standing in for the value.
_SNAKE_LABEL_RE = re.compile(
    r"(?=.*(?:password|passwd|token|secret|key|pass))[a-z]+(?:_[a-z]+)+", re.I
)


def _is_non_value(value: str) -> bool:
    v = value.strip()
    if v.lower() in _NON_VALUES or not any(c.isalnum() for c in v):
        return True
    if _NUMBERISH_RE.fullmatch(v) or v.startswith(("arn:", "urn:")):
        return True  # 1.3.0, 1556312220.133, ARNs and URNs are identifiers
    # A 1-3 digit number is a count or a flag, never a usable credential ("'HAVE_PASSWD': 1").
    return v.isdigit() and len(v) < 4


def _is_code_reference(value: str, following: str) -> bool:
    """``token=get_token()``, ``api_key=settings.API_KEY``, ``password=db_password``."""
    if following[:1] in ("(", "[") or "(" in value or "[" in value:
        return True
    if value.startswith(_CODE_PREFIXES):
        return True
    if _IDENT_RE.fullmatch(value):
        if "." in value:
            return True  # attribute access: current_node.value, settings.SECRET
        # Only references that *name* a secret are code; "hunter2" and "mysecretpassword"
        # are single components and stay suspicious.
        comps = _split_name(value)
        if len(comps) > 1 and any(c in _STRONG_WORDS or c in _WEAK_WORDS for c in comps):
            return True
    return False


def _inside_call(text: str, line_start: int, pos: int) -> bool:
    """Is ``pos`` inside an unclosed parenthesis on its line? (keyword-argument position)"""
    before = text[line_start:pos]
    return before.count("(") > before.count(")")


def _passwordish(value: str) -> bool:
    """A single unquoted word in running prose: does it look like a password, not a word?"""
    if len(value) < 4 or _HYPHEN_WORDS_RE.fullmatch(value):
        return False
    if value.isdigit():
        return len(value) >= 6  # "12 characters" vs "123456"
    has_alpha = any(c.isalpha() for c in value)
    has_digit = any(c.isdigit() for c in value)
    has_symbol = any(not c.isalnum() for c in value)
    inner_upper = any(c.isupper() for c in value[1:])
    return (has_alpha and has_digit) or has_symbol or (inner_upper and value[:1].islower())


# ---------------------------------------------------------------------------------------------
# Shape rules
# ---------------------------------------------------------------------------------------------

_Validator = Callable[[re.Match[str], str], bool]


@dataclass(frozen=True)
class _Rule:
    """One regex. ``group`` is the part to redact.

    Speed matters (this runs before every memory write), and Python's ``re`` only skips
    ahead quickly when a pattern starts with a literal. So patterns start with their literal
    prefix and put the word-boundary check in a look-behind *after* it. Rules that start
    with a case-insensitive word instead list ``anchors``: the lower-cased text is searched
    with ``str.find`` and the pattern is only tried at those offsets. ``hints`` skip a rule
    entirely when none of them occurs in the lower-cased text.
    """

    kind: str
    priority: int
    pattern: re.Pattern[str]
    group: int | str = 0
    validate: _Validator | None = None
    anchors: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()


def _body_ok(group: str, min_alnum: int = 20) -> _Validator:
    def check(m: re.Match[str], _text: str) -> bool:
        return _prefixed_body_ok(m.group(group), min_alnum)

    return check


def _random_ok(group: str, min_len: int, min_random: int) -> _Validator:
    def check(m: re.Match[str], _text: str) -> bool:
        return _looks_random(m.group(group), min_len, min_random)

    return check


def _real_value(group: str) -> _Validator:
    def check(m: re.Match[str], _text: str) -> bool:
        value = m.group(group)
        return not _is_placeholder(value) and not _is_non_value(value)

    return check


def _prose_password_ok(m: re.Match[str], _text: str) -> bool:
    raw = m.group("value")
    if raw[:1] in "\"'`":
        return not _is_placeholder(raw[1:-1]) and not _is_non_value(raw[1:-1])
    return _passwordish(raw) and not _is_placeholder(raw)


def _telegram_ok(m: re.Match[str], text: str) -> bool:
    # The pattern starts at the colon (fast literal scan); confirm the 8-10 digit bot id here.
    s = m.start()
    if not re.search(r"(?<![\w:])\d{8,10}\Z", text[max(0, s - 11) : s]):
        return False
    return _prefixed_body_ok(m.group("b"), 20)


_B64_RUN_RE = re.compile(r"[A-Za-z0-9+/=]{16,}")


def _pem_body_ok(block: str) -> bool:
    # "-----BEGIN PRIVATE KEY-----\nXXXX\n-----END..." and "key omitted" are documentation.
    body = block.split("-----", 2)[-1]
    return any(_looks_random(run, 16, 12) for run in _B64_RUN_RE.findall(body))


def _in_url(m: re.Match[str], text: str) -> bool:
    s = m.start()
    word_start = max(text.rfind(c, 0, s) for c in " \t\n\"'<(")
    return "://" in text[word_start + 1 : s]


_T = r"A-Za-z0-9_\-"  # token characters


def _lb(prefix: str) -> str:
    """Look-behind placed after a literal prefix: no token character right before it."""
    return rf"(?<![{_T}]{prefix})"


_RULES: tuple[_Rule, ...] = (
    _Rule(
        "private_key",
        100,
        re.compile(
            r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
            # Truncated paste without an END line: take the base64 body that follows.
            r"|(?:(?:\\n|\s)+[A-Za-z0-9+/=:,\- ]{8,})*)"
        ),
        validate=lambda m, _t: _pem_body_ok(m.group()),
        hints=("private key",),
    ),
    _Rule(
        "jwt",
        90,
        re.compile(rf"eyJ{_lb('eyJ')}[{_T}]{{10,}}\.eyJ[{_T}]{{10,}}\.[{_T}]*"),
        hints=("eyj",),
    ),
    _Rule(
        "anthropic_key",
        90,
        re.compile(rf"sk-ant-{_lb('sk-ant-')}(?:[a-z]{{3,6}}\d{{2}}-)?(?P<b>[{_T}]{{20,}})"),
        validate=_body_ok("b"),
        hints=("sk-ant-",),
    ),
    _Rule(
        "openai_key",
        85,
        re.compile(rf"sk-{_lb('sk-')}(?:proj-|svcacct-|admin-|None-)?(?P<b>[{_T}]{{20,}})"),
        validate=_body_ok("b"),
        hints=("sk-",),
    ),
    _Rule(
        "mem0_key",
        85,
        re.compile(rf"m0-{_lb('m0-')}(?P<b>[{_T}]{{20,}})"),
        validate=_body_ok("b"),
        hints=("m0-",),
    ),
    _Rule(
        "github_token",
        90,
        re.compile(
            rf"gh[pousr]_{_lb('gh[pousr]_')}(?P<b>[A-Za-z0-9]{{30,255}})(?![{_T}])"
            rf"|github_pat_{_lb('github_pat_')}[A-Za-z0-9_]{{40,}}"
        ),
        validate=lambda m, _t: m.group("b") is None or _prefixed_body_ok(m.group("b")),
        hints=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    _Rule(
        "gitlab_token",
        90,
        re.compile(rf"gl{_lb('gl')}(?:pat|dt|rt|ptt)-[A-Za-z0-9_\-]{{20,}}"),
        hints=("glpat-", "gldt-", "glrt-", "glptt-"),
    ),
    _Rule(
        "aws_access_key_id",
        90,
        re.compile(r"A(?<![A-Za-z0-9]A)(?:KIA|SIA)[A-Z0-9]{16}(?![A-Za-z0-9])"),
        hints=("akia", "asia"),
    ),
    _Rule(
        "aws_secret_key",
        95,
        re.compile(
            r"aws_?secret_?(?:access_?)?key[\"']?\s*(?:=|:|=>)\s*[\"']?"
            r"(?P<v>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])",
            re.I,
        ),
        group="v",
        anchors=("aws",),
    ),
    _Rule(
        "google_api_key",
        90,
        re.compile(rf"AIza{_lb('AIza')}[0-9A-Za-z_\-]{{35}}(?![{_T}])"),
        hints=("aiza",),
    ),
    _Rule(
        "stripe_key",
        90,
        re.compile(
            rf"[srp]k_{_lb('[srp]k_')}(?:live|test)_[0-9A-Za-z]{{16,}}(?![{_T}])"
            rf"|whsec_{_lb('whsec_')}[A-Za-z0-9]{{24,}}(?![{_T}])"
        ),
        hints=("_live_", "_test_", "whsec_"),
    ),
    _Rule(
        "slack_token",
        90,
        re.compile(rf"x{_lb('x')}(?:ox[baprse]|app)-[A-Za-z0-9\-]{{10,}}"),
        validate=lambda m, _t: any(c.isdigit() for c in m.group()),
        hints=("xox", "xapp-"),
    ),
    _Rule(
        "huggingface_token",
        85,
        re.compile(rf"hf_{_lb('hf_')}(?P<b>[A-Za-z0-9]{{30,}})(?![{_T}])"),
        validate=_random_ok("b", 30, 16),
        hints=("hf_",),
    ),
    _Rule(
        "npm_token",
        85,
        re.compile(rf"npm_{_lb('npm_')}(?P<b>[A-Za-z0-9]{{36}})(?![{_T}])"),
        validate=_body_ok("b"),
        hints=("npm_",),
    ),
    _Rule(
        "pypi_token",
        90,
        re.compile(rf"pypi-AgE{_lb('pypi-AgE')}[{_T}]{{40,}}"),
        hints=("pypi-",),
    ),
    _Rule(
        "sendgrid_key",
        90,
        re.compile(rf"SG\.{_lb('SG.')}[{_T}]{{16,32}}\.[{_T}]{{30,64}}(?![{_T}])"),
        hints=("sg.",),
    ),
    _Rule(
        "ak_key",
        80,
        re.compile(rf"ak_{_lb('ak_')}(?P<b>[{_T}]{{16,}})(?![{_T}])"),
        validate=_body_ok("b", 16),
        hints=("ak_",),
    ),
    _Rule(
        "bot_token",
        85,
        # Telegram "<bot id>:<35 chars>". Only the part after the colon is secret; the bot id
        # is public, so it stays readable in the redacted text.
        re.compile(rf":(?<=\d{{8}}:)(?P<b>[{_T}]{{35}})(?![\w\-])"),
        group="b",
        validate=_telegram_ok,
    ),
    _Rule(
        "bot_token",
        85,
        # Discord: base64 user id . timestamp . HMAC.
        re.compile(
            r"[MNO](?<![\w.\-][MNO])(?P<b>[A-Za-z0-9_\-]{23,27})\.[A-Za-z0-9_\-]{6}"
            r"\.[A-Za-z0-9_\-]{27,40}(?![\w.\-])"
        ),
        validate=_body_ok("b", 20),
    ),
    _Rule(
        "webhook_url",
        95,
        re.compile(r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<v>[A-Za-z0-9_/\-]{10,})"),
        group="v",
        hints=("hooks.slack.com",),
    ),
    _Rule(
        "webhook_url",
        95,
        re.compile(r"discord(?:app)?\.com/api/webhooks/(?P<v>\d{5,}/[A-Za-z0-9_\-]{20,})"),
        group="v",
        hints=("/api/webhooks/",),
    ),
    _Rule(
        "webhook_url",
        95,
        re.compile(r"webhook\.office\.com/(?P<v>[^\s\"'<>]{20,})"),
        group="v",
        hints=("webhook.office.com",),
    ),
    _Rule(
        "webhook_url",
        70,
        # Any other service: a random-looking path segment after /hooks/ or /webhook(s)/.
        re.compile(r"/(?:hooks?|webhooks?)/(?P<v>[^\s?#\"'<>)]{16,})"),
        group="v",
        validate=lambda m, t: _in_url(m, t)
        and any(_looks_random(seg, 16, 12) for seg in m.group("v").split("/")),
        hints=("hook",),
    ),
    _Rule(
        "url_password",
        88,
        # scheme://user:password@host — the scheme is implied by the literal "://".
        re.compile(r"://[^\s:/@?#\[\]]*:(?P<v>[^\s/@?#]{3,})@(?=[\w.\-\[])"),
        group="v",
        validate=_real_value("v"),
        hints=("://",),
    ),
    _Rule(
        "url_token",
        75,
        re.compile(
            r"[?&;](?i:access_token|id_token|refresh_token|token|api_?key|apikey|key|sig"
            r"|signature|secret|client_secret|auth|password|pwd|x-amz-signature"
            r"|x-amz-security-token|code)=(?P<v>[^&\s#\"'<>]{16,})"
        ),
        group="v",
        validate=lambda m, _t: (
            _looks_random(m.group("v"), 16, 12) or _prefixed_body_ok(m.group("v"), 16)
        ),
        hints=("=",),
    ),
    _Rule(
        "bearer_token",
        80,
        re.compile(
            r"\b(?:authorization\b[\"']?\s*[:=]\s*[\"']?(?:bearer|basic|token|bot|digest)?\s*"
            r"|bearer\s+)(?P<v>[A-Za-z0-9\-._~+/]{12,}=*)",
            re.I,
        ),
        group="v",
        validate=lambda m, _t: (
            _prefixed_body_ok(m.group("v"), 12) or _looks_random(m.group("v"), 12, 8)
        ),
        anchors=("authorization", "bearer"),
    ),
    _Rule(
        "pairing_code",
        70,
        re.compile(
            r"\b(?:pairing|verification|one[- ]time|otp|2fa|mfa|recovery|backup|invite"
            r"|parnings|verifierings|återställnings)[ _\-]?(?:code|kod(?:en)?)s?"
            r"\s*(?::|=|\bis\b|\bär\b)\s*[\"'`]?(?P<v>[A-Za-z0-9]{3,}(?:-[A-Za-z0-9]{3,})*)",
            re.I,
        ),
        group="v",
        validate=lambda m, _t: any(c.isdigit() for c in m.group("v")) or m.group("v").isupper(),
        anchors=(
            "pairing", "verification", "one-time", "one time", "otp", "2fa", "mfa", "recovery",
            "backup", "invite", "parnings", "verifierings", "återställnings",
        ),
    ),
    _Rule(
        "password",
        60,
        # Prose: "the wifi password is hunter2", "lösenordet är Vinter2025".
        re.compile(
            r"\b(?:password|passwd|passphrase|lösenord(?:et)?|passordet|pin(?:[- ]?code)?"
            r"|pinkod(?:en)?)\s+(?:is|was|är|var|is now|är nu|set to|satt till)\s+"
            r"(?P<value>\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|[^\s\"'`]+?)(?=[.,;:!?)\]]*(?:\s|$))",
            re.I,
        ),
        group="value",
        validate=_prose_password_ok,
        anchors=("password", "passwd", "passphrase", "lösenord", "passord", "pin"),
    ),
    _Rule(
        "password",
        60,
        # SQL / CLI: WITH PASSWORD 'x'
        re.compile(r"\bpassword\s+(?P<value>'[^'\n]+'|\"[^\"\n]+\")", re.I),
        group="value",
        validate=_prose_password_ok,
        anchors=("password",),
    ),
    _Rule(
        "password",
        60,
        re.compile(r"(?:密码|密碼|口令|密钥|密鑰)(?:是|为|為|：|:)\s*(?P<value>[!-~]{4,})"),
        group="value",
        validate=_real_value("value"),
        anchors=("密码", "密碼", "口令", "密钥", "密鑰"),
    ),
)  # fmt: skip


def _find_all(haystack: str, needle: str) -> list[int]:
    out: list[int] = []
    p = haystack.find(needle)
    while p != -1:
        out.append(p)
        p = haystack.find(needle, p + 1)
    return out


def _rule_candidates(text: str, lower: str) -> list[tuple[int, int, str, int]]:
    out: list[tuple[int, int, str, int]] = []
    # str.lower() can change the length of some non-ASCII strings; offsets found in `lower`
    # are then useless and anchored rules fall back to a full scan.
    aligned = len(lower) == len(text)
    for rule in _RULES:
        if rule.hints and not any(h in lower for h in rule.hints):
            continue
        if rule.anchors and aligned:
            matches: list[re.Match[str]] = []
            for anchor in rule.anchors:
                for pos in _find_all(lower, anchor):
                    m = rule.pattern.match(text, pos)
                    if m:
                        matches.append(m)
        else:
            matches = list(rule.pattern.finditer(text))
        for m in matches:
            if rule.validate is not None and not rule.validate(m, text):
                continue
            s, e = m.span(rule.group)
            if e > s:
                out.append((s, e, rule.kind, rule.priority))
    return out


# ---------------------------------------------------------------------------------------------
# Assignments: name = value
# ---------------------------------------------------------------------------------------------

# Substrings that can occur in a secret-bearing name. Every occurrence is expanded to the
# surrounding identifier, which is much faster than running an identifier regex everywhere.
_NAME_KEYWORDS = (
    "pass", "pwd", "secret", "token", "credential", "key", "auth", "lösen", "nyckel",
    "passord", "passwort", "contraseña", "密", "口令", "令牌", "凭证", "憑證",
)  # fmt: skip
_SEP_RE = re.compile(r"[\"']?(?:\*\*|__)?[ \t]*(?P<sep>:=|=>|=(?![=~])|:(?![:/\\])|：)")
_FLAG_GAP_RE = re.compile(r"[ \t]+(?=[^\s\-])")
_LINE_START_RE = re.compile(r"[ \t]*(?:export[ \t]+|set[ \t]+|-[ \t]+|\*[ \t]+)?[\"']?")
_ENV_NAME_RE = re.compile(r"[A-Z][A-Z0-9_]*")
_CUT_CHARS_RE = re.compile(r"[，。、；！？）」』\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
_TRAILING_PUNCT = ".,;:!?)]}>"
_NAME_CHARS = "_.-"
_MAX_NAME = 64


_NAME_RUN_RE = re.compile(rf"[\w.\-]{{0,{_MAX_NAME}}}")


def _name_start(text: str, s: int) -> int:
    # Walk back over identifier characters by matching forwards on the reversed window.
    window = text[max(0, s - _MAX_NAME) : s][::-1]
    m = _NAME_RUN_RE.match(window)
    return s - (m.end() if m else 0)


def _parse_value(text: str, pos: int) -> tuple[int, int, bool, bool] | None:
    """Parse a value starting at ``pos``. Returns (start, end, quoted, had_space)."""
    n = len(text)
    i = pos
    had_space = False
    while i < n and text[i] in " \t":
        i += 1
        had_space = True
    if text.startswith(("**", "__"), i):
        i += 2
        while i < n and text[i] in " \t":
            i += 1
            had_space = True
    if i >= n or text[i] in "\r\n":
        return None
    q = text[i]
    if q in "\"'`":
        close = text.find(q, i + 1)
        eol = text.find("\n", i + 1)
        if close != -1 and (eol == -1 or close < eol):
            return i + 1, close, True, had_space
        i += 1  # unbalanced quote: fall through to unquoted parsing
    # Template placeholders may contain spaces ("{{ db_password }}"); keep them whole so the
    # placeholder check sees the complete thing instead of a fragment like "{{".
    for opener, closer in (("{{", "}}"), ("{%", "%}"), ("${", "}"), ("<", ">")):
        if text.startswith(opener, i):
            close = text.find(closer, i + len(opener))
            eol = text.find("\n", i)
            if close != -1 and (eol == -1 or close < eol):
                return i, close + len(closer), False, had_space
    j = i
    while j < n and not text[j].isspace() and text[j] not in "\"'`":
        j += 1
    cut = _CUT_CHARS_RE.search(text, i, j)
    if cut:
        j = cut.start()
    while j > i and text[j - 1] in _TRAILING_PUNCT:
        j -= 1
    if j <= i:
        return None
    return i, j, False, had_space


def _rest_of_line_is_empty(text: str, pos: int) -> bool:
    eol = text.find("\n", pos)
    rest = text[pos : eol if eol != -1 else len(text)].strip()
    return not rest or rest.startswith(("#", "//")) or all(c in ",;)]}" for c in rest)


def _value_is_secret(
    text: str, span: tuple[int, int, bool, bool], strength: int, name: str
) -> bool:
    vs, ve, quoted, had_space = span
    value = text[vs:ve]
    if _is_placeholder(value) or _is_non_value(value):
        return False
    if value.lower() == name.lower():
        return False  # f(password=password)
    if _PATH_OR_URL_RE.match(value):
        return False  # KEY_FILE-like values; URL credentials have their own rule
    if not quoted:
        if len(value) < 3 or name.startswith(_CODE_NAME_PREFIXES):
            return False  # "token = v", "self.token = nxt": code, not configuration
        if _is_code_reference(value, text[ve : ve + 1]):
            return False
        if _IDENT_RE.fullmatch(value) and _inside_call(text, text.rfind("\n", 0, vs) + 1, vs):
            return False  # f(user=u, password=badpw): a variable passed as an argument
    if strength == 1:
        return _looks_random(value, 12, 8)
    if quoted or not had_space:
        return True
    # "password: hunter2" — accept when the value ends the line (config/YAML style) or does
    # not read like an ordinary word ("Token: the unit of text", "set password= in ...").
    return _rest_of_line_is_empty(text, ve) or _passwordish(value)


def _assignment_candidates(text: str, lower: str) -> list[tuple[int, int, str, int]]:
    out: list[tuple[int, int, str, int]] = []
    if len(lower) != len(text):
        lower = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    hits = sorted({h for kw in _NAME_KEYWORDS for h in _find_all(lower, kw)})
    done_until = -1
    for hit in hits:
        if hit < done_until:
            continue  # inside a name handled already ("password" also contains "pass")
        fwd = _NAME_RUN_RE.match(text, hit)
        ne = fwd.end() if fwd else hit
        done_until = ne
        # Cheap rejection first: most hits are prose ("the token economy") with neither a
        # separator nor a preceding dash (command-line flag) anywhere near.
        if not _SEP_RE.match(text, ne) and "-" not in text[max(0, hit - _MAX_NAME) : hit]:
            continue
        ns = _name_start(text, hit)
        flag = text[ns] == "-"
        while ns < ne and text[ns] in _NAME_CHARS:
            ns += 1
        while ne > ns and text[ne - 1] in ".-":
            ne -= 1
        if ns >= ne or text[ns].isdigit():
            continue
        # Query parameters belong to the URL rule, which insists on a long random value;
        # "{token:02x}" is a format field, not an assignment.
        if ns > 0 and text[ns - 1] in "?&;{":
            continue
        cand = _candidate_for_name(text, ns, ne, flag)
        if cand is not None:
            out.append(cand)
    return out


def _candidate_for_name(
    text: str, ns: int, ne: int, flag: bool
) -> tuple[int, int, str, int] | None:
    name = text[ns:ne]
    sep = _SEP_RE.match(text, ne)
    if sep is None:
        if not flag:
            return None
        # Command-line flag with a separate value: --password 'x', --token abc123.
        gap = _FLAG_GAP_RE.match(text, ne)
        strength, kind = _name_strength(name, False)
        if gap is None or strength < 2:
            return None
        parsed = _parse_value(text, gap.end())
        if parsed is None:
            return None
        vs, ve, quoted, _had = parsed
        value = text[vs:ve]
        looks = quoted or _passwordish(value) or _looks_random(value, 12, 8)
        if not looks or _is_placeholder(value) or _is_non_value(value):
            return None
        if _PATH_OR_URL_RE.match(value):
            return None  # --secret-file ./x, --token-url https://...
        return vs, ve, kind, 50
    if ns > 0 and text[ns - 1] == ":" and sep.group("sep") == ":":
        return None  # a:b:c chains are identifiers: ARNs, URNs, Maven coordinates, rst roles
    line_start = text.rfind("\n", 0, ns) + 1
    at_line_start = bool(_LINE_START_RE.fullmatch(text, line_start, ns))
    after = sep.end()
    env_style = (
        at_line_start
        and sep.group("sep") == "="
        and bool(_ENV_NAME_RE.fullmatch(name))
        and after < len(text)
        and text[after] not in " \t"
    )
    strength, kind = _name_strength(name, env_style)
    if not strength:
        return None
    parsed = _parse_value(text, after)
    if parsed is None or not _value_is_secret(text, parsed, strength, name):
        return None
    return parsed[0], parsed[1], kind, 50


# ---------------------------------------------------------------------------------------------
# High-entropy strings in context
# ---------------------------------------------------------------------------------------------

# No look-behind: finditer already starts every match at the beginning of a run.
_ENTROPY_TOKEN_RE = re.compile(r"[A-Za-z0-9+/_\-]{24,}={0,2}")
_ENTROPY_TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "+/_-=")
_UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
_SRI_RE = re.compile(r"sha\d+-", re.I)
_CONFIG_PREFIX_RE = re.compile(
    r"[ \t]*(?:export[ \t]+|-[ \t]+)?[\"']?(?P<label>[^\W\d][\w.\-]*)[\"']?[ \t]*"
    r"(?::=|=>|=|:)[ \t]*[\"'`]?"
)
_SECRET_CONTEXT_RE = re.compile(
    r"(?i)(?:\b|_)(?:api[ _\-]?keys?|keys?|tokens?|secrets?|password|passwd|passphrase"
    r"|credentials?|creds|auth|bearer|nyckel(?:n)?|lösenord(?:et)?|hemlig(?:het|a)?)\b"
    r"|密码|密碼|密钥|密鑰|令牌|口令|凭证|憑證|秘钥"
)
# Digests, fingerprints and public keys are random-looking by design and safe to keep.
_HASH_CONTEXT_RE = re.compile(
    r"(?i)\b(?:sha\d*|md5|checksums?|digest|hash(?:es)?|commit|fingerprint|uuid|guid"
    r"|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-\w+|public|pub|revision|rev|etag|integrity|sri"
    r"|sum|crc32|oid|request[ _-]?id|trace[ _-]?id|build"
    r"|(?:next|page|starting|continuation|idempotency|pagination)[ _-]?token"
    r"|gpg|pgp|keyserver|recv-keys)\b"
)
_HEX_CHARS = frozenset("0123456789abcdefABCDEF")


def _is_hex(tok: str) -> bool:
    return all(c in _HEX_CHARS for c in tok.strip("_-"))


# Cloud resource ids ("subnet-0b715c6b7db68927a", "vpc-cidr-assoc-0669f8f9f5") are names.
_RESOURCE_ID_RE = re.compile(r"[a-z]{2,}(?:-[a-z0-9]+)*-[0-9a-f]{8,}")


_HASH_LABEL_PARTS = (
    "sha1", "sha2", "sha3", "sha5", "md5", "checksum", "digest", "hash", "fingerprint",
    "integrity", "commit", "etag", "uuid", "guid", "crc32", "blake",
)  # fmt: skip
_HASH_LABELS = frozenset(
    {
        "sha", "sha1", "sha224", "sha256", "sha384", "sha512", "md5", "checksum", "checksums",
        "digest", "hash", "integrity", "commit", "rev", "revision", "etag", "id", "ids", "uuid",
        "guid", "fingerprint", "sum", "crc", "crc32", "oid", "ref", "tree", "parent", "blob",
        "sha256sum", "trace", "span", "request", "correlation", "build", "nonce", "public",
        "pub", "pubkey", "publickey", "cid", "ipfs", "image", "resolved", "version", "head",
        "identifier", "prefix", "name", "path", "url", "arn", "next", "page", "continuation",
        "idempotency", "starting", "pagination", "cursor", "marker",
    }
)  # fmt: skip


def _entropy_candidates(text: str) -> list[tuple[int, int, str, int]]:
    out: list[tuple[int, int, str, int]] = []
    for m in _ENTROPY_TOKEN_RE.finditer(text):
        tok = m.group()
        start, end = m.span()
        if end < len(text) and text[end] in _ENTROPY_TOKEN_CHARS:
            continue  # "NAME=value": the run continues after '='; the value is scanned next
        if _UUID_RE.fullmatch(tok) or _SRI_RE.match(tok) or _RESOURCE_ID_RE.fullmatch(tok):
            continue
        # Context first (a couple of tiny regex calls), randomness last (the costly part).
        line_start = text.rfind("\n", 0, start) + 1
        prefix = text[max(line_start, start - 200) : start]
        near = prefix[-48:]
        if _HASH_CONTEXT_RE.search(near[-32:]):
            continue
        cfg = _CONFIG_PREFIX_RE.fullmatch(prefix)
        if cfg:
            label = cfg.group("label")
            if any(c in _HASH_LABELS for c in _split_name(label)):
                continue
            if any(w in label.lower() for w in _HASH_LABEL_PARTS):
                continue  # expectedchecksum, file_sha256
            # A bare hex string under a neutral label ("expected: 6e9e...") is a digest far
            # more often than a key; hex keys get caught by their secret-named label instead.
            if _is_hex(tok):
                continue
        else:
            # Prose: a secret word must sit right before the string. Hex needs it closer,
            # because hex digests are common in prose ("docker-credential-helpers 5f28a5a1").
            ctx = _SECRET_CONTEXT_RE.search(near[-24:] if _is_hex(tok) else near)
            if not ctx:
                continue
        if _looks_random(tok) and not _is_placeholder(tok):
            out.append((start, end, "high_entropy", 20))
    return out


# ---------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------


def _preview(secret: str) -> str:
    # Never more than a third of the secret, never more than 4 characters.
    shown = min(4, len(secret) // 3)
    return secret[:shown] + "…"


def find_secrets(text: str) -> list[SecretFinding]:
    """Return non-overlapping findings in ``text``, ordered by position.

    When candidates overlap, the more specific rule wins (a ``sk-`` key assigned to
    ``OPENAI_API_KEY`` is reported as ``openai_key``), then the longer span.
    """
    if not text:
        return []
    lower = text.lower()
    candidates = _rule_candidates(text, lower)
    candidates.extend(_assignment_candidates(text, lower))
    candidates.extend(_entropy_candidates(text))
    if not candidates:
        return []

    # Text we already redacted is pre-occupied, so markers are never flagged again.
    taken: list[tuple[int, int, str]] = []
    if "[REDACTED" in text:
        taken = [(m.start(), m.end(), "") for m in _MARKER_RE.finditer(text)]
    starts = [t[0] for t in taken]
    candidates.sort(key=lambda c: (-c[3], -(c[1] - c[0]), c[0]))
    for s, e, kind, _prio in candidates:
        # `taken` is sorted and non-overlapping, so only the two neighbours can collide.
        i = bisect_right(starts, s)
        if (i > 0 and taken[i - 1][1] > s) or (i < len(taken) and taken[i][0] < e):
            continue
        taken.insert(i, (s, e, kind))
        starts.insert(i, s)

    newlines = [m.start() for m in _NEWLINE_RE.finditer(text)]
    return [
        SecretFinding(
            kind=kind,
            start=s,
            end=e,
            line=bisect_left(newlines, s) + 1,
            preview=_preview(text[s:e]),
        )
        for s, e, kind in taken
        if kind
    ]


def contains_secret(text: str) -> bool:
    """True when ``text`` holds anything :func:`find_secrets` would report."""
    return bool(find_secrets(text))


def _redact_once(text: str) -> str:
    findings = find_secrets(text)
    if not findings:
        return text
    parts: list[str] = []
    pos = 0
    for f in findings:
        parts.append(text[pos : f.start])
        parts.append(f"{REDACTION_PREFIX}{f.kind}]")
        pos = f.end
    parts.append(text[pos:])
    return "".join(parts)


def redact(text: str) -> str:
    """Replace every secret with ``[REDACTED:<kind>]``, keeping assignment names intact.

    Redaction runs to a fixed point: replacing one secret can, in rare cases, change what a
    neighbouring rule sees (a look-behind that used to fail now succeeds). Iterating until
    nothing changes makes ``redact(redact(x)) == redact(x)`` hold by construction.
    """
    for _ in range(8):
        new = _redact_once(text)
        if new == text:
            return new
        text = new
    return text
