"""Assignment detector: ``name = value`` pairs whose *name* says the value is a secret.

Covers config and code (``password=...``, ``"apiKey": "..."``), ``.env`` lines (``DB_PASS=...``)
and command-line flags (``--token ...``). The name decides whether a value is sensitive
(:func:`_name_strength`); the value only has to not be a placeholder, a type name or a code
reference.
"""

from __future__ import annotations

from memclaw.gates.credentials.values import (
    Candidate,
    find_all,
    is_non_value,
    is_placeholder,
    looks_random,
    passwordish,
    split_name,
    strong_password,
)
from memclaw.gates.lazy_re import LazyPattern

__all__ = ["assignment_candidates", "secret_name_kind"]


# ---------------------------------------------------------------------------------------------
# Names: which keys hold secrets
# ---------------------------------------------------------------------------------------------

_STRONG_WORDS = frozenset(
    {
        "password", "passwd", "passphrase", "passcode", "pwd", "secret", "secrets", "token",
        "credential", "credentials", "apikey", "apitoken", "apisecret", "authtoken",
        "accesstoken", "refreshtoken", "secretkey", "privatekey", "accesskey", "clientsecret",
        "lösenord", "lösenordet", "passord", "passwort", "contraseña",
        # the other languages the prose rules read (credentials.prose): KENNWORT=, mot_de_passe=
        "losenord", "kennwort", "motdepasse", "wachtwoord", "salasana", "hasło", "haslo",
        "senha", "пароль", "adgangskode", "kodeord", "salaisuus", "contrasena", "parola",
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
_ENGLISH_WORDS = frozenset(
    """
    password passwd passphrase passcode pwd secret secrets token credential credentials
    apikey apitoken apisecret authtoken accesstoken refreshtoken secretkey privatekey
    accesskey clientsecret
    """.split()  # noqa: SIM905
)
# After a strong secret word, these make the name denote something else: its length, its
# address, its policy, when it changed.
_OTHER_HEADS = frozenset(
    """
    length len min max minimum maximum url uri endpoint host file path dir policy hint hints
    reset expiry expires expiration ttl timeout enabled enable disabled required field label
    prompt regex pattern rules rule count size hash hashed salt algo algorithm type mode
    format strength header name names id ids var variable at date time days hours seconds
    changed updated created rotation rotated version source provider store storage manager
    backend method strategy scheme mask masked visible visibility input form retries
    attempts lockout history age complexity chars characters digits generator ref
    """.split()  # noqa: SIM905
)
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
     "passord", "passwort", "contraseña", "losenord", "kennwort", "motdepasse", "wachtwoord",
     "salasana", "hasło", "haslo", "senha", "пароль"}
)  # fmt: skip
_KEY_WORDS = frozenset(
    {"key", "apikey", "accesskey", "privatekey", "secretkey", "nyckel", "nyckeln"}
)
# Non-ASCII names have no separators to split on, so these are matched as substrings.
_CJK_SECRET_WORDS = ("密码", "密碼", "口令", "密钥", "密鑰", "秘钥", "令牌", "凭证", "憑證")
_CJK_PASSWORD_WORDS = ("密码", "密碼", "口令")


_GLUED_TAIL_RE = LazyPattern(r"^[a-z]{2,}(password|passwd|passphrase)$")


def _name_strength(name: str, env_style: bool) -> tuple[int, str]:
    """Return (strength, kind): 2 = any real value is secret, 1 = only random values, 0 = no."""
    if any(w in name for w in _CJK_SECRET_WORDS):
        return 2, "password" if any(w in name for w in _CJK_PASSWORD_WORDS) else "secret"
    comps = split_name(name)
    if comps[-2:] == ["api", "hash"]:
        return 2, "secret"  # Telegram's api_hash is the app's secret
    # Glued names: PGPASSWORD, MYSQLPWD-style env variables.
    comps = [_GLUED_TAIL_RE.sub(r"\1", c) for c in comps]
    # French spells the noun in three words: MOT_DE_PASSE, motDePasse.
    comps = "_".join(comps).replace("mot_de_passe", "motdepasse").split("_")
    hit = -1
    for i, c in enumerate(comps):
        if c in _STRONG_WORDS or c in _WEAK_WORDS:
            hit = i
    if hit < 0:
        return 0, ""
    trailing = [c for c in comps[hit + 1 :] if not c.isdigit()]
    # A password of something, in the word order of languages that put it after the noun
    # (MOT_DE_PASSE_SMTP, HASLO_BAZY), or after an English one as a short tag (PASSWORD_DB);
    # not when a word after it names another thing (PASSWORD_MIN_LENGTH, TOKEN_SCOPE).
    tags = comps[hit] in _STRONG_WORDS and all(
        c not in _OTHER_HEADS and (len(c) <= 4 or comps[hit] not in _ENGLISH_WORDS)
        for c in trailing
    )
    if not tags and any(c not in _SECRET_TRAILERS for c in trailing):
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


def secret_name_kind(name: str) -> str:
    """The kind of secret an environment variable of this name holds, or "" for none.

    For names that other detectors find outside ``NAME=value`` (``setx NAME v``, "PGPASSWORD
    is v"): judged as on a ``.env`` line, where ``*_KEY`` and ``*_PASS`` are credentials.
    """
    strength, kind = _name_strength(name, True)
    return kind if strength >= 2 else ""


# ---------------------------------------------------------------------------------------------
# Code references: values that name a variable rather than hold a secret
# ---------------------------------------------------------------------------------------------

_CODE_PREFIXES = (
    "self.", "cls.", "os.", "env.", "process.env", "config.", "settings.", "args.", "opts.",
    "options.", "params.", "ctx.", "context.", "request.", "secrets.", "vars.", "this.",
    "import.meta", "getenv", "environ", "new ", "await ",
)  # fmt: skip
_CODE_NAME_PREFIXES = ("self.", "this.", "cls.", "ctx.", "opts.", "options.", "args.")
_IDENT_RE = LazyPattern(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_PATH_OR_URL_RE = LazyPattern(r"(?:/|~/|\./|\.\./|[A-Za-z]:\\|[A-Za-z][\w+.\-]*://)")


def _is_code_reference(value: str, following: str) -> bool:
    """``token=get_token()``, ``api_key=settings.API_KEY``, ``password=db_password``."""
    if following[:1] in ("(", "[") or "(" in value or "[" in value:
        return True
    if value.startswith(_CODE_PREFIXES):
        return True
    if _IDENT_RE.fullmatch(value):
        if "." in value:
            # attribute access: current_node.value, settings.SECRET. But Vault and Consul
            # tokens are dotted too ("s.Kd82hQpLw0xZ", "hvs.Qm3kR8"): a part that mixes
            # letters, digits and inner capitals is no attribute name.
            return not any(p.isalnum() and strong_password(p) for p in value.split("."))
        # Only references that *name* a secret are code; "hunter2" and "mysecretpassword"
        # are single components and stay suspicious.
        comps = split_name(value)
        if len(comps) > 1 and any(c in _STRONG_WORDS or c in _WEAK_WORDS for c in comps):
            return True
    return False


def _inside_call(text: str, line_start: int, pos: int) -> bool:
    """Is ``pos`` inside an unclosed parenthesis on its line? (keyword-argument position)"""
    before = text[line_start:pos]
    return before.count("(") > before.count(")")


# ---------------------------------------------------------------------------------------------
# Assignments: name = value
# ---------------------------------------------------------------------------------------------

# Substrings that can occur in a secret-bearing name. Every occurrence is expanded to the
# surrounding identifier, which is much faster than running an identifier regex everywhere.
_NAME_KEYWORDS = (
    "pass", "pwd", "secret", "token", "credential", "key", "auth", "lösen", "nyckel", "api_hash",
    "passord", "passwort", "contraseña", "密", "口令", "令牌", "凭证", "憑證", "losen", "kennwort",
    "wachtwoord", "salasana", "hasło", "haslo", "senha", "пароль", "mot_de_passe", "motdepasse",
    "adgangskode", "kodeord", "salaisuus", "contrasena", "parola",
)  # fmt: skip
_SEP_RE = LazyPattern(r"[\"']?(?:\*\*|__)?[ \t]*(?P<sep>:=|=>|=(?![=~])|:(?![:/\\])|：)")
_FLAG_GAP_RE = LazyPattern(r"[ \t]+(?=[^\s\-])")
_LINE_START_RE = LazyPattern(r"[ \t]*(?:export[ \t]+|set[ \t]+|-[ \t]+|\*[ \t]+)?[\"']?")
_ENV_NAME_RE = LazyPattern(r"[A-Z][A-Z0-9_]*")
_CUT_CHARS_RE = LazyPattern(r"[，。、；！？）」』\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
_TRAILING_PUNCT = ".,;:!?)]}>"
_NAME_CHARS = "_.-"
_MAX_NAME = 64


_NAME_RUN_RE = LazyPattern(rf"[\w.\-]{{0,{_MAX_NAME}}}")


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


def _mixed_at_eol(text: str, value: str, end: int) -> bool:
    """A letters-and-digits value that ends its line, as config values do."""
    mixed = any(c.isalpha() for c in value) and any(c.isdigit() for c in value)
    eol = text.find("\n", end)
    rest = text[end : eol if eol != -1 else len(text)].strip().strip(_TRAILING_PUNCT)
    return mixed and len(value) >= 6 and not rest


def _value_is_secret(
    text: str, span: tuple[int, int, bool, bool], strength: int, name: str, kind: str
) -> bool:
    vs, ve, quoted, had_space = span
    value = text[vs:ve]
    if quoted and text[vs - 1] == "`" and text[vs - 2 : vs - 1] == "=" and " " in value:
        return False  # DB_PASSWORD=`pass show db`: shell command substitution
    if is_placeholder(value) or is_non_value(value):
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
        # "pass: M4ilR00m!" (YAML mail config) is a password; "first_pass: complete" is not.
        if kind == "password" and (strong_password(value) or _mixed_at_eol(text, value, ve)):
            return True
        return looks_random(value, 12, 8)
    if quoted or not had_space:
        return True
    # "password: hunter2" — accept when the value ends the line (config/YAML style) or does
    # not read like an ordinary word ("Token: the unit of text", "set password= in ...").
    return _rest_of_line_is_empty(text, ve) or passwordish(value)


def assignment_candidates(text: str, lower: str) -> list[Candidate]:
    out: list[Candidate] = []
    if len(lower) != len(text):
        lower = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    hits = sorted({h for kw in _NAME_KEYWORDS for h in find_all(lower, kw)})
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


def _candidate_for_name(text: str, ns: int, ne: int, flag: bool) -> Candidate | None:
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
        looks = quoted or passwordish(value) or looks_random(value, 12, 8)
        if not looks or is_placeholder(value) or is_non_value(value):
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
    ) or (
        # PowerShell's $env:PASS = "..." sets an environment variable, spaces or not.
        text[max(0, ns - 5) : ns].lower() == "$env:" and sep.group("sep") == "="
    )
    strength, kind = _name_strength(name, env_style)
    if not strength:
        return None
    parsed = _parse_value(text, after)
    if parsed is None or not _value_is_secret(text, parsed, strength, name, kind):
        return None
    return parsed[0], parsed[1], kind, 50
