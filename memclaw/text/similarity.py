"""Cheap text likeness for dreaming and consolidation: content terms, values, Jaccard.

Two statements are "the same fact" when their content words overlap strongly and
their values (the tokens holding digits) agree. Same subject with different
measures (dates, times, sizes, versions) means one superseded the other.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# A token keeps inner punctuation so that 2026-12-12, 3.12 and 08:15 stay whole values.
_TOKEN = re.compile(r"\w(?:[\w.:/+-]*\w)?")
# "12 km", "41.3 M rows", "3 min 40 s": a number and its unit are one value, however spaced.
_UNIT = re.compile(
    r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s?(km|m|mi|min|h|hrs?|s|ms|kb|mb|gb|tb|kg|g|%)(?!\w)",
    re.IGNORECASE,
)
# Thousands separators: 18,940 is one number, not 18 and 940.
_THOUSANDS = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+)(?![\d,]\d)")
_PART = re.compile(r"[^\W_]+")
STOPWORDS = frozenset(
    """a about above after again all also am an and any anything are as at be because been
    before being below between both but by can could did do does doing down during each
    every few for from further had has have having he her here hers him his how i if in
    into is it its just me more most my no nor not nothing now of off on once only or other
    our out over own same she should so some something such than that the their them then
    there these they this those through to too under until up very was we were what when
    where which while who whom why will with would you your yours today tomorrow yesterday
    still really much many ask asked asks tell told say said says get got use uses used
    using""".split()  # noqa: SIM905
)


def words(text: str) -> list[str]:
    """Content terms: stop words removed, stemmed, diacritics folded, CJK as bigrams.

    Tokens holding a digit are values and stay whole (lower-cased); a number
    glued to its unit is one value. Other tokens are split at inner punctuation
    (``stops.geog`` -> stops, geog) and folded like the search index folds them.
    """
    # Imported here: the index package is heavy, and consolidation needs none of the rest.
    from memclaw.text.language import language_of
    from memclaw.text.tokenize import tokens as index_terms

    language = language_of(text)  # the statement's, not each word's: one word tells little
    text = _THOUSANDS.sub(lambda m: m.group(1).replace(",", ""), text)
    text = _UNIT.sub(lambda m: m.group(1) + m.group(2).lower(), text)
    found = []
    for token in _TOKEN.findall(text.lower()):
        if is_value(token):
            found.append(token)
            continue
        for part in _PART.findall(token):
            if part in STOPWORDS or (len(part) == 1 and part.isascii()):
                continue
            found.extend(t for t in index_terms(part, language) if t not in STOPWORDS)
    return found


# Dates, times, decimals and versions, and numbers glued to a unit (6h, 412mb): a newer
# statement may change these. A bare integer is more often a name (PR 482, room 3).
_MEASURE = re.compile(
    r"\d{4}-\d{2}(?:-\d{2})?|\d{1,2}:\d{2}(?::\d{2})?|v?\d+(?:[.,]\d+)+|\d+(?:[.,]\d+)?[a-z%]+"
)


def is_value(token: str) -> bool:
    return any(ch.isdigit() for ch in token)


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


def jaccard(a: Iterable[str], b: Iterable[str]) -> float:
    sa, sb = set(a), set(b)
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / len(sa | sb)


def containment(small: Iterable[str], big: Iterable[str]) -> float:
    """Share of ``small`` found in ``big``."""
    ss = set(small)
    return len(ss & set(big)) / len(ss) if ss else 0.0


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
