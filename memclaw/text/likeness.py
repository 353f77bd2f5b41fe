"""Cheap text likeness: do two statements say the same thing? No model, no network.

One word splitter, one list of function words and one ``jaccard``/``containment``
serve two purposes, each with its own folding:

* Extraction (novelty checks, deduplication, forgotten facts) compares
  ``tokens``: "As of YYYY-MM-DD" stamps and markdown markers removed, a light
  suffix strip ("prefers"/"prefer") and verbs of liking folded together;
  ``restates`` further folds negations and synonyms into ideas.
* Dreaming and consolidation compare ``words``: terms folded like the search
  index (stems, diacritics, CJK bigrams), with values (tokens holding a digit)
  kept whole, so a changed date or size tells a newer fact from an older one.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

# --- the shared core ---------------------------------------------------------------------------

# A word is letters and digits joined by inner punctuation, so that 2026-12-12, 3.12, 08:15,
# api-key and don't each stay one word.
_WORD = re.compile(r"[^\W_]+(?:[.:/+'-]+[^\W_]+)*")
_PART = re.compile(r"[^\W_]+")
# "12 km", "41.3 M rows", "3 min 40 s": a number and its unit are one value, however spaced.
_UNIT = re.compile(
    r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s?(km|m|mi|min|h|hrs?|s|ms|kb|mb|gb|tb|kg|g|%)(?!\w)",
    re.IGNORECASE,
)
# Thousands separators: 18,940 is one number, not 18 and 940.
_THOUSANDS = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+)(?![\d,]\d)")

# Words that carry grammar, not content: no statement is about them.
FUNCTION_WORDS = frozenset(
    """
    a about again all also am an and any are as at be been being both but by can could did
    do does doing each few for from had has have having he her here hers him his how i if in
    into is it its just me might mine more most must my no nor not now of on only or other
    our ours out over own s same shall she should so some such than that the their them then
    there these they this those to too under up us very was we were what when where which
    who whom why will with would yes you your yours
    """.split()  # noqa: SIM905
)


def _words(text: str) -> list[str]:
    """Lower-case words in order, with a number and its unit, or its thousands, as one."""
    text = _THOUSANDS.sub(lambda m: m.group(1).replace(",", ""), text)
    text = _UNIT.sub(lambda m: m.group(1) + m.group(2), text)
    return _WORD.findall(text.lower().replace("’", "'"))


def is_value(token: str) -> bool:
    """A token holding a digit: a date, time, size, version or number."""
    return any(ch.isdigit() for ch in token)


def jaccard(a: Iterable[str], b: Iterable[str]) -> float:
    """Shared share of the union; two empty sets are alike."""
    sa, sb = set(a), set(b)
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / len(sa | sb)


def containment(small: Iterable[str], big: Iterable[str]) -> float:
    """Share of ``small`` found in ``big``."""
    ss = set(small)
    return len(ss & set(big)) / len(ss) if ss else 0.0


# --- extraction: is this news? -----------------------------------------------------------------

_AS_OF = re.compile(
    r"\b(?:as of|per|stand|a fecha de|sedan)\s+\d{4}-\d{2}-\d{2}\b[,:]?|\(as of [^)]*\)", re.I
)
_MARKDOWN = re.compile(r"^[ \t]*(?:[-*+]|\d+\.|#{1,6})[ \t]+", re.MULTILINE)
# What ``tokens`` drops. Who a stored fact is about is implied by where it is stored, and
# "may" is a modal here (dreaming keeps it: it is also the month of a date).
STOPWORDS = FUNCTION_WORDS | frozenset(["user", "user's", "users", "team", "team's", "may"])
# Verbs of liking are one idea to a novelty check: "loves" restates "enjoys".
_SYNONYMS = {
    "love": "like",
    "enjoy": "like",
    "adore": "like",
    "fond": "like",
    "hate": "dislike",
    "detest": "dislike",
    "utilize": "use",
    "utilise": "use",
}


def _light_stem(word: str) -> str:
    # Deliberately lighter than the index stemmer: the paraphrase table below is keyed on it.
    for suffix, keep in (("ies", 3), ("ing", 4), ("ed", 4), ("es", 4), ("s", 3)):
        if word.endswith(suffix) and len(word) - len(suffix) >= keep and not word.endswith("ss"):
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    return _SYNONYMS.get(word, word)


def tokens(text: str) -> frozenset[str]:
    """Normalised content tokens of ``text``, for novelty and duplicate checks."""
    return frozenset(ordered_tokens(text))


def ordered_tokens(text: str) -> list[str]:
    """The tokens of :func:`tokens`, in the order ``text`` says them."""
    text = _MARKDOWN.sub("", _AS_OF.sub(" ", text))
    return [
        _light_stem(w) for w in _words(text) if (w not in STOPWORDS and len(w) > 1) or w.isdigit()
    ]


def near_twin(forgot: Sequence[str], candidate: Sequence[str]) -> bool:
    """Whether ``candidate`` says ``forgot`` (both token sequences, hashed or not) with one
    short run of it in another's place: "server beta" for "server alpha", "invoice 4412"
    for "invoice 4411". That is another fact, which forgetting the first never touches."""
    if not forgot or not candidate:
        return False
    matcher = SequenceMatcher(None, list(forgot), list(candidate), autojunk=False)
    changed = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if len(changed) != 1 or changed[0][0] != "replace":
        return False
    _tag, i1, i2, j1, j2 = changed[0]
    return max(i2 - i1, j2 - j1) <= 2


def known_in(candidate: str, known: Iterable[frozenset[str]], threshold: float = 0.7) -> bool:
    """True when some known line already says (nearly) everything ``candidate`` says."""
    cand = tokens(candidate)
    if not cand:
        return True
    return any(containment(cand, line) >= threshold for line in known if line)


# A concession ("even when she pastes them by accident") qualifies a line without changing
# what it says: the line is also known without it.
_CONCESSION = re.compile(r",?\s+even\s+(?:if|when|though)\b[^.;]*", re.I)


def known_lines(*texts: str) -> list[frozenset[str]]:
    """Token sets of every non-empty, non-heading line of ``texts``."""
    lines = []
    for text in texts:
        for line in text.splitlines():
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                lines.append(tokens(stripped))
                if (core := _CONCESSION.sub("", stripped)) != stripped:
                    lines.append(tokens(core))
    return lines


def fingerprint(text: str) -> list[str]:
    """Hashed tokens: comparable by overlap, yet the forgotten text cannot be read back."""
    return sorted(_hashed(t) for t in tokens(text))


def sequence_print(text: str) -> list[str]:
    """The hashed tokens of ``text`` in order: a near twin can be told from a restatement."""
    return [_hashed(t) for t in ordered_tokens(text)]


def _hashed(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:10]


# One token per idea, for telling a restatement from news: "nobody pushes straight to main"
# restates "never push directly to main"; "don't store the staging passwords" restates
# "never keep credentials".
_SAME_IDEA = {
    "never": "¬",
    "don't": "¬",
    "dont": "¬",
    "nobody": "¬",
    "no-one": "¬",
    "avoid": "¬",
    "can't": "¬",
    "cannot": "¬",
    "mustn't": "¬",
    "shouldn't": "¬",
    "doesn't": "¬",
    "store": "keep",
    "save": "keep",
    "retain": "keep",
    "record": "keep",
    "write": "write",
    "password": "credential",
    "passwd": "credential",
    "token": "credential",
    "secret": "credential",
    "key": "credential",
    "api-key": "credential",
    "straight": "direct",
    "directly": "direct",
    "brief": "short",
    "concise": "short",
    "terse": "short",
    "reply": "answer",
    "response": "answer",
    "respond": "answer",
    "prefer": "like",
    "push": "push",
}
# Words that qualify a statement without changing what it says.
_QUALIFIERS = frozenset(
    """
    rule preference says anywhere even ever mistake accident new reminder really please
    always anymore any
    """.split()  # noqa: SIM905
)


def _ideas(line: frozenset[str]) -> frozenset[str]:
    """``tokens()`` output folded to ideas: negations, synonyms, qualifiers dropped."""
    return frozenset(_SAME_IDEA.get(t, t) for t in line if t not in _QUALIFIERS)


def restates(candidate: str, known: Iterable[frozenset[str]], narrower: bool = False) -> bool:
    """True when a known line says the same idea in other words.

    With ``narrower`` (rules and preferences), a candidate that is a known line plus at
    most two details ("don't keep the staging DB credentials" against "never keep
    credentials") is a restatement too: the known rule already covers it.
    """
    cand = _ideas(tokens(candidate))
    if len(cand) < 2:
        return False
    for line in known:
        said = _ideas(line)
        if len(said) < 2:
            continue
        if containment(cand, said) >= 0.8:
            return True
        covered = narrower and len(said) >= 3 and containment(said, cand) >= 0.8
        if covered and len(cand - said) <= 2 and ("¬" in cand) == ("¬" in said):
            return True
    return False


# --- dreaming and consolidation: same fact, or a newer one? ------------------------------------

# What ``words`` drops besides function words: reporting verbs and relative days say how
# or when something was said, not what; order, cause and quantity words only add noise to
# overlap. (A novelty check keeps the latter: "before merging" is not "after merging".)
_TERM_STOPWORDS = FUNCTION_WORDS | frozenset(
    """
    today tomorrow yesterday ask asked asks tell told say said says get got use uses used
    using really still above after before below between during until while once through
    down off further every because much many anything nothing something
    """.split()  # noqa: SIM905
)
# Dates, times, decimals and versions, and numbers glued to a unit (6h, 412mb): a newer
# statement may change these. A bare integer is more often a name (PR 482, room 3).
_MEASURE = re.compile(
    r"\d{4}-\d{2}(?:-\d{2})?|\d{1,2}:\d{2}(?::\d{2})?|v?\d+(?:[.,]\d+)+|\d+(?:[.,]\d+)?[a-z%]+"
)


def words(text: str) -> list[str]:
    """Content terms: stop words removed, stemmed, diacritics folded, CJK as bigrams.

    Tokens holding a digit are values and stay whole (lower-cased); a number
    glued to its unit is one value. Other tokens are split at inner punctuation
    (``stops.geog`` -> stops, geog) and folded like the search index folds them.
    """
    # Imported here: extraction needs none of the index folding.
    from memclaw.text.language import language_of
    from memclaw.text.tokenize import tokens as index_terms

    language = language_of(text)  # the statement's, not each word's: one word tells little
    found = []
    for word in _words(text):
        if is_value(word):
            found.append(word)
            continue
        for part in _PART.findall(word):
            if part in _TERM_STOPWORDS or (len(part) == 1 and part.isascii()):
                continue
            found.extend(t for t in index_terms(part, language) if t not in _TERM_STOPWORDS)
    return found


@dataclass(frozen=True)
class Fingerprint:
    """What a statement is about (subject words) and what it claims (values).

    ``values`` are all tokens holding digits; ``measures`` the ones a newer
    statement may change, and ``subject`` everything else.
    """

    tokens: frozenset[str]
    subject: frozenset[str]
    values: frozenset[str]
    measures: frozenset[str]

    @classmethod
    def of(cls, text: str) -> Fingerprint:
        tokens = frozenset(words(text))
        values = frozenset(t for t in tokens if is_value(t))
        measures = frozenset(t for t in values if _MEASURE.fullmatch(t))
        return cls(tokens, tokens - measures, values, measures)


def values_compatible(a: Fingerprint, b: Fingerprint) -> bool:
    """No value of one statement is contradicted by the other (one may add detail)."""
    return not a.values or not b.values or a.values <= b.values or b.values <= a.values


def near_duplicate(a: Fingerprint, b: Fingerprint, threshold: float = 0.5) -> bool:
    """Same fact, maybe worded differently or with one more detail."""
    if not values_compatible(a, b):
        return False
    if jaccard(a.tokens, b.tokens) >= threshold:
        return True
    small, big = (a, b) if len(a.tokens) <= len(b.tokens) else (b, a)
    return len(small.tokens) >= 3 and containment(small.tokens, big.tokens) >= 0.9


def supersedes(newer: Fingerprint, older: Fingerprint, threshold: float = 0.75) -> bool:
    """Same subject, different measures: the newer statement replaces the older one."""
    if not newer.measures or not older.measures:
        return False
    if newer.measures <= older.measures or older.measures <= newer.measures:
        return False
    if min(len(newer.subject), len(older.subject)) < 2:
        return False
    return jaccard(newer.subject, older.subject) >= threshold


def mentions_topic(text_tokens: Iterable[str], topic: str) -> bool:
    """True when every word of ``topic`` occurs in the text (after stemming)."""
    wanted = set(words(topic))
    return bool(wanted) and wanted <= set(text_tokens)
