"""Secret gate: find credentials in text and redact them before anything is written to memory.

Memory files are plain markdown that gets re-read into prompts, synced and committed, so a
credential that slips in once leaks forever. This module is the last line of defence and is
therefore biased towards *recall* on well-known credential shapes, while staying quiet on the
look-alikes that fill ordinary engineering chat (commit SHAs, UUIDs, checksums, paths,
version strings, prose about passwords).

Detection works in three layers, all plain regexes plus a few cheap checks in Python. Each
layer lives in its own module and proposes candidate spans; this module merges them.

1. Vendor shapes with a fixed prefix (``sk-``, ``ghp_``, ``AKIA``, ``xoxb-``, JWTs, PEM blocks,
   webhook URLs ...). The prefix is strong evidence, so the body only has to look non-wordy.
   (:mod:`memclaw.gates.credentials.rules`)
2. Assignments (``password=...``, ``"apiKey": "..."``, ``DB_PASS=...``, ``--token ...``, prose
   such as "the wifi password is hunter2"). The *name* decides whether a value is sensitive;
   the value only has to not be a placeholder, a type name or a code reference.
   (:mod:`memclaw.gates.credentials.assignments`; the prose forms are regex rules in
   :mod:`memclaw.gates.credentials.rules`)
3. Random-looking strings (high entropy, mixed character classes, >= 24 chars) that sit in
   configuration context or right after a word like "key" or "token".
   (:mod:`memclaw.gates.credentials.entropy`)

The value checks the layers share (randomness, placeholders, non-values) are in
:mod:`memclaw.gates.credentials.values`.

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

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from memclaw.gates.credentials.assignments import assignment_candidates
from memclaw.gates.credentials.commands import command_candidates
from memclaw.gates.credentials.encoded import encoded_candidates
from memclaw.gates.credentials.entropy import entropy_candidates
from memclaw.gates.credentials.nearby import nearby_candidates, same_sentence_values
from memclaw.gates.credentials.principles import principle_candidates
from memclaw.gates.credentials.prose import prose_candidates
from memclaw.gates.credentials.rules import rule_candidates
from memclaw.gates.credentials.values import Candidate
from memclaw.gates.credentials.vendors import vendor_candidates
from memclaw.gates.lazy_re import LazyPattern

__all__ = [
    "REDACTION_PREFIX",
    "SecretFinding",
    "contains_secret",
    "find_secrets",
    "redact",
]

REDACTION_PREFIX = "[REDACTED:"

# A marker we wrote ourselves must never be re-flagged, otherwise redact() is not idempotent.
_MARKER_RE = LazyPattern(r"\[REDACTED(?::[A-Za-z0-9_]+)?\]")
_NEWLINE_RE = LazyPattern(r"\n")
_MARKER_KIND_RE = LazyPattern(r"(?<=\[REDACTED:)[A-Za-z0-9_]+(?=\])")


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
    if REDACTION_PREFIX in text:
        # The kind a marker names ("[REDACTED:password]") is no credential word for the
        # rules to read a value after: it is masked, at the same length.
        text = _MARKER_KIND_RE.sub(lambda m: "x" * len(m.group()), text)
    candidates = _candidates(text)
    # An aside between a credential's name and its value ("app password (Google made me
    # make one): ...", "master password, since the hint is useless: ...") is read past: its
    # line is read again with each aside blanked out, at the same length; what that finds
    # is the value, not the aside's first word taken for it.
    past, asides = _past_asides(text)
    if asides:
        opening = {a for a, _b in asides}
        candidates = [c for c in candidates if not (c[0] in opening and c[2] in _PROSE)]
    candidates += past
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
    # A sentence that gives one credential gives the others of its shape too: "changed it
    # from hunter2hunter to Gravel.Cactus.58", "1492, and the bike lock's 0312".
    for s, e, kind in list(taken):
        if kind not in _PROSE:
            continue
        for s2, e2, kind2, _prio in same_sentence_values(text, s, e):
            i = bisect_right(starts, s2)
            if (i > 0 and taken[i - 1][1] > s2) or (i < len(taken) and taken[i][0] < e2):
                continue
            taken.insert(i, (s2, e2, kind2))
            starts.insert(i, s2)
    # A secret said once is a secret wherever else it stands in the text ("the PIN is 4471
    # ... type 4471 twice"): every occurrence goes, not only the one that was announced.
    # A number said in groups is the same number written whole ("80 51" ... "8051").
    for s, e, kind in list(taken):
        said = text[s:e]
        if not kind or len(said) < 4:
            continue
        whole = said.replace(" ", "").replace("-", "")
        for value in {said, whole} if whole.isdigit() and len(whole) >= 4 else {said}:
            at = text.find(value)
            while at != -1:
                i = bisect_right(starts, at)
                clear = (i == 0 or taken[i - 1][1] <= at) and (
                    i == len(taken) or taken[i][0] >= at + len(value)
                )
                if clear:
                    taken.insert(i, (at, at + len(value), kind))
                    starts.insert(i, at)
                at = text.find(value, at + len(value))

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


_PROSE = frozenset({"password", "credential"})  # the kinds a value read after a word gets
# A short aside in brackets, or one set off by a comma before a colon.
# (A comma aside is words, two or more: a key of JSON or YAML after a comma is none.)
_ASIDE_RE = LazyPattern(
    r"\([^()\n]{1,80}\)|,[ \t]+[^\W\d_][^\s,.:;()\"'{}\[\]=]*(?:[ \t]+[^\s,.:;()\"'{}\[\]=]+){1,10}"
    r"(?=:\s)"
)


def _past_asides(text: str) -> tuple[list[Candidate], list[tuple[int, int]]]:
    """The candidates of each line that holds an aside, read with its asides blanked, and
    the asides of the lines where that found any."""
    found: list[Candidate] = []
    asides: list[tuple[int, int]] = []
    done = -1
    for aside in _ASIDE_RE.finditer(text):
        start = text.rfind("\n", 0, aside.start()) + 1
        if start <= done:
            continue  # that line was read already
        end = text.find("\n", aside.end())
        end = len(text) if end == -1 else end
        done = end
        spans = [(m.start() + start, m.end() + start) for m in _ASIDE_RE.finditer(text[start:end])]
        line = _ASIDE_RE.sub(lambda m: " " * len(m.group()), text[start:end])
        more = [(s + start, e + start, kind, prio) for s, e, kind, prio in _candidates(line)]
        found += more
        if more or REDACTION_PREFIX in line:  # (redact()'s second round reads it so)
            asides += spans
    return found, asides


def _candidates(text: str) -> list[Candidate]:
    lower = text.lower()
    candidates = rule_candidates(text, lower)
    candidates.extend(vendor_candidates(text, lower))
    candidates.extend(prose_candidates(text, lower))
    candidates.extend(principle_candidates(text, lower))
    candidates.extend(nearby_candidates(text))
    candidates.extend(encoded_candidates(text))
    candidates.extend(assignment_candidates(text, lower))
    candidates.extend(command_candidates(text, lower))
    candidates.extend(entropy_candidates(text))
    return candidates


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
