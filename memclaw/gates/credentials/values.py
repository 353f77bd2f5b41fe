"""What a candidate secret value looks like: random, a placeholder, a non-value or a password.

Shared by the three secret detectors (:mod:`memclaw.gates.credentials.rules`,
:mod:`memclaw.gates.credentials.assignments`, :mod:`memclaw.gates.credentials.entropy`); the
reasoning behind each judgement call is summarised in :mod:`memclaw.gates.secrets`.
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter

from memclaw.gates.lazy_re import LazyPattern

__all__ = [
    "QUALIFIED_NOUNS",
    "Candidate",
    "classes",
    "find_all",
    "is_non_value",
    "is_placeholder",
    "looks_random",
    "passwordish",
    "prefixed_body_ok",
    "split_name",
    "strong_password",
]

# (start, end, kind, priority) proposed by one detector; find_secrets() resolves overlaps.
Candidate = tuple[int, int, str, int]

# Nouns a credential word qualifies ("password manager", "PIN policy"): the value after
# them is theirs, not a credential.
QUALIFIED_NOUNS = frozenset(
    """
    manager managers app apps tool tools policy policies rules requirements requirement
    reset resets hint hints field fields strength length rotation generator generators
    expiry expiration vault vaults store safe history change changes form prompt page
    name names ssid speed channel band signal provider plan router
    hanterare hanteraren policy regler manager richtlinie richtlinien gestor política
    gestionnaire politique gestore politica gerenciador política beheerder beleid menedżer
    polityka
    """.split()  # noqa: SIM905
)


# ---------------------------------------------------------------------------------------------
# Randomness and names
# ---------------------------------------------------------------------------------------------

# Splits an alphanumeric run into "words": camel-case humps, upper-case blocks, digit blocks.
# Random strings fall apart into many tiny pieces; identifiers and prose into long ones.
_COMP_RE = LazyPattern(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_ALNUM_RUN_RE = LazyPattern(r"[A-Za-z0-9]+")


_LOWER = frozenset(string.ascii_lowercase)
_UPPER = frozenset(string.ascii_uppercase)
_DIGIT = frozenset(string.digits)


def classes(s: str) -> int:
    """How many of lower case, upper case and digits ``s`` holds."""
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
    if len(run) < 6 or classes(run) < 2:
        return False
    comps = _COMP_RE.findall(run)
    return len(run) / max(len(comps), 1) <= 3.0


def looks_random(s: str, min_len: int = 24, min_random: int = 16) -> bool:
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


def prefixed_body_ok(body: str, min_alnum: int = 20) -> bool:
    """Validate the body after a vendor prefix such as ``sk-`` or ``ghp_``.

    The prefix already carries most of the evidence, so hand-made fakes like
    ``sk-abcdefghijklmnopqrstuvwxyz123456`` still count, but "sk-learn-is-a-python-library"
    (no long run, single class) does not.
    """
    runs = _ALNUM_RUN_RE.findall(body)
    total = sum(len(r) for r in runs)
    if total < min_alnum or classes(body) < 2:
        return False
    return max((len(r) for r in runs), default=0) >= 12


def split_name(name: str) -> list[str]:
    """``OPENAI_API_KEY`` / ``apiKey`` / ``X-Auth-Token`` -> lower-case components."""
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    return [p.lower() for p in re.split(r"[_.\-\s]+", s) if p]


# ---------------------------------------------------------------------------------------------
# Placeholders and non-values
# ---------------------------------------------------------------------------------------------

_PLACEHOLDER_RE = LazyPattern(
    r"""
    <[^<>]*>                                        # <your-key>, <redacted>
    | \$\{[^}]*\}? | \$\([^)]*\)? | \$[A-Za-z_]\w*   # ${VAR}, $(cmd), $VAR
    | \{\{.*\}\}? | \{%.*%\} | \{[A-Za-z_0-9][\w.]*\} | \{\}   # {{ var }}, {var}, {}
    | %[A-Za-z_]\w*% | .*%[-+0-9.]*[sdrfx].*          # %VAR%, printf formats
    | \[?REDACTED(?::\w+)?\]? | \[[^\]]*redacted[^\]]*\]
    | [xX*•.…#_\-]+                                   # xxxx, ****, ..., ---
    | (?:[A-Za-z]{1,8}[_\-]){1,2}[xX*•.…]{4,}[\w\-]{0,4}   # sk-xxxxxxxx, ghp_****abcd
    | (?:your|insert|enter|replace|add|put)[\s_\-][\w\s\-]*
    | (?:[\w\-]*[_\-])?(?:your|my|the|key|token|password|passwd|pass|pw|pwd|secret|api|apikey
       |value|string|id|user|username|credentials?|access|code|pin|x+)[_\-](?:goes[_\-])?here
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


# Field names of a sign-in form: "email/password" names two fields, it holds no credential.
_FORM_LABELS = _NON_VALUES | {"user", "username", "email", "e-mail", "login", "name", "userid"}

_FORMAT_FIELD_RE = LazyPattern(r"\{[^{}]*\}|%[-+0-9.]*[sdrfx]")


def is_placeholder(value: str) -> bool:
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


_NUMBERISH_RE = LazyPattern(r"[-+]?v?\d+(?:[.,]\d+)+")
# "YOUR_TOKEN", "MYTOKEN", "API_KEY": an upper-case label used as a stand-in value.
_SHOUTED_LABEL_RE = LazyPattern(r"[A-Z_]*(?:TOKEN|PASSWORD|PASSWD|SECRET|KEY|PASS)[A-Z_]*")
# "keyfile_password", "my_api_token": a snake-case name standing in for the value.
_SNAKE_LABEL_RE = LazyPattern(
    r"(?=.*(?:password|passwd|token|secret|key|pass))[a-z]+(?:_[a-z]+)+", re.I
)


_YAML_TAG_RE = LazyPattern(r"!!?[A-Za-z][\w.-]*")


def is_non_value(value: str) -> bool:
    v = value.strip()
    if v.lower() in _NON_VALUES or not any(c.isalnum() for c in v):
        return True
    if v[:1] in "([" and v.strip("()[]").lower() in _NON_VALUES:
        return True  # "(empty)", "[none]"
    if "/" in v and all(p.lower() in _FORM_LABELS for p in v.split("/")):
        return True  # "email/password", "user/pass": labels of a form, not credentials
    if _NUMBERISH_RE.fullmatch(v) or v.startswith(("arn:", "urn:")):
        return True  # 1.3.0, 1556312220.133, ARNs and URNs are identifiers
    if _YAML_TAG_RE.fullmatch(v):
        return True  # "api_key: !ENV ${KEY}": a YAML tag says where the value comes from
    # A 1-3 digit number is a count or a flag, never a usable credential ("'HAVE_PASSWD': 1").
    return v.isdigit() and len(v) < 4


_HYPHEN_WORDS_RE = LazyPattern(r"[A-Za-z]{3,}\d*(?:-[A-Za-z]{3,}\d*)+")


def passwordish(value: str) -> bool:
    """A single unquoted word in running prose: does it look like a password, not a word?"""
    if len(value) < 4:
        return False
    # "well-known", "sha256-hashed" are words; "hunter2-Blue" mixes digits and capitals.
    if _HYPHEN_WORDS_RE.fullmatch(value) and not (
        any(c.isdigit() for c in value) and any(c.isupper() for c in value)
    ):
        return False
    if value.isdigit():
        return len(value) >= 6  # "12 characters" vs "123456"
    has_alpha = any(c.isalpha() for c in value)
    has_digit = any(c.isdigit() for c in value)
    has_symbol = any(not c.isalnum() for c in value)
    inner_upper = any(c.isupper() for c in value[1:])
    return (has_alpha and has_digit) or has_symbol or (inner_upper and value[:1].islower())


def strong_password(value: str) -> bool:
    """Could not be an ordinary word: letters, digits, and a symbol or an inner capital."""
    if len(value) < 6 or not any(c.isalpha() for c in value):
        return False
    if not any(c.isdigit() for c in value):
        return False
    symbol = any(not c.isalnum() for c in value)
    inner_upper = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    return symbol or inner_upper


def find_all(haystack: str, needle: str) -> list[int]:
    out: list[int] = []
    p = haystack.find(needle)
    while p != -1:
        out.append(p)
        p = haystack.find(needle, p + 1)
    return out
