"""How much each term of a statement says, measured over one dream's notes.

Daily notes restate a fact in other words from one day to the next; what stays
the same are the rare terms: names, products, identifiers, dates and amounts.
So a term is weighted by how few statements of the window (and of the memory
files) contain it, its inverse document frequency, and doubled when it is
written like a name, or raised by half when it is a measure:

* names: a capital inside a sentence (Kenji, Osaka), capitals after the first
  letter (PG16, PgBouncer, HPA), or an identifier (stops.geog, work_mem);
* measures: dates, times, versions, numbers with a unit, codes with digits
  (2026-12-12, 08:15, 12km, pg16); a bare number (10, 482) is not raised.

Common words ("plan", "week", "asked") are then worth little, so two
statements that share only them are not taken for the same fact.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date

from memclaw.text.likeness import is_value, words

NAME_FACTOR = 2.0
MEASURE_FACTOR = 1.5
# In likeness, a term said on one day only cannot be what recurs: it counts this much.
ONE_DAY_FACTOR = 0.5
# Sharing who a statement is about (its proper nouns) is not enough to be the same
# fact: two statements must also share this many other terms (words, values, codes).
MIN_SHARED_TERMS = 2
# Bare numbers name things (PR 482, dry run 2): two statements that both carry some
# and share none are probably about two different things.
OTHER_NUMBERS_FACTOR = 0.5

# CamelCase, inner capitals and acronyms (PostGIS, PG16, HPA), or identifiers with
# an underscore or a dot between letters (maintenance_work_mem, stops.geog).
_SHAPED = re.compile(r"\b\w+[A-Z]\w*|\b\w*[^\W\d_][_.][^\W\d_]\w*(?:[_.]\w+)*")
# A capitalised word that does not open a sentence, a clause or a quotation.
_CAPITALISED = re.compile(r"(?<=[\w,)] )[A-ZÀ-Þ][^\W\d_]+")


def name_terms(text: str) -> tuple[set[str], set[str]]:
    """The terms of ``text`` written like names: (identifiers and acronyms, proper nouns)."""
    shaped: set[str] = set()
    proper: set[str] = set()
    for match in _SHAPED.finditer(text):
        shaped.update(words(match.group()))
    for match in _CAPITALISED.finditer(text):
        proper.update(words(match.group()))
    return shaped, proper


@dataclass(frozen=True)
class Salience:
    """Term weights of one window: document frequencies plus the name-like terms."""

    df: dict[str, int]
    total: int
    names: frozenset[str]
    proper: frozenset[str]  # the names written as proper nouns: people, places, ...
    recurring: frozenset[str]  # terms said on two days or more
    weights: dict[str, float] = field(default_factory=dict)  # every seen term, precomputed
    # Caches for ``similarity``, which a dream calls for many pairs of the same statements.
    _likeness: dict[str, float] = field(default_factory=dict, repr=False)
    _masses: dict[frozenset[str], float] = field(default_factory=dict, repr=False)
    _numbers: dict[frozenset[str], frozenset[str]] = field(default_factory=dict, repr=False)

    @classmethod
    def of(
        cls,
        statements: Iterable[tuple[str, frozenset[str], date | None]],
        check: Callable[[], None] | None = None,
    ) -> Salience:
        """From (text, terms, day) triples: note mentions, and memory lines (no day).

        ``check`` is called every few thousand statements (it may raise to stop).
        """
        df: Counter[str] = Counter()
        days: dict[str, set[date]] = {}
        shaped: set[str] = set()
        proper: set[str] = set()
        total = 0
        named: set[str] = set()  # a long note repeats lines: find each one's names once
        for text, terms, day in statements:
            total += 1
            if check is not None and total % 4096 == 0:
                check()
            df.update(terms)
            if text not in named:
                named.add(text)
                identifiers, capitalised = name_terms(text)
                shaped.update(identifiers & terms)
                proper.update(capitalised & terms)
            if day is not None:
                for term in terms:
                    days.setdefault(term, set()).add(day)
        recurring = frozenset(t for t, seen in days.items() if len(seen) >= 2)
        names = frozenset(shaped | proper)
        salience = cls(dict(df), total, names, frozenset(proper - shaped), recurring)
        salience.weights.update((term, salience._weigh(term)) for term in df)
        return salience

    def weight(self, term: str) -> float:
        found = self.weights.get(term)
        return self._weigh(term) if found is None else found

    def _weigh(self, term: str) -> float:
        idf = math.log((self.total + 1) / (self.df.get(term, 0) + 0.5))
        if term in self.names:
            return idf * NAME_FACTOR
        if is_value(term) and not term.isdigit():
            return idf * MEASURE_FACTOR
        return idf

    def mass(self, terms: Iterable[str]) -> float:
        return sum(self.weight(t) for t in set(terms))

    def detail(self, terms: Iterable[str]) -> float:
        """Weight of the concrete details: names and terms holding a digit."""
        return sum(
            self.weight(t) for t in set(terms) if t in self.names or any(c.isdigit() for c in t)
        )

    def likeness_weight(self, term: str) -> float:
        found = self._likeness.get(term)
        if found is None:
            factor = 1.0 if term in self.recurring else ONE_DAY_FACTOR
            found = self._likeness[term] = self.weight(term) * factor
        return found

    def _likeness_mass(self, terms: frozenset[str]) -> float:
        return sum(self.likeness_weight(t) for t in terms)

    def likeness_mass(self, terms: frozenset[str]) -> float:
        """Sum of the likeness weights of ``terms`` (remembered per set)."""
        return self._cached_mass(terms)

    def _cached_mass(self, terms: frozenset[str]) -> float:
        found = self._masses.get(terms)
        if found is None:
            found = self._masses[terms] = self._likeness_mass(terms)
        return found

    def _bare_numbers(self, terms: frozenset[str]) -> frozenset[str]:
        found = self._numbers.get(terms)
        if found is None:
            found = self._numbers[terms] = frozenset(t for t in terms if t.isdigit())
        return found

    def similarity(self, a: frozenset[str], b: frozenset[str]) -> float:
        """Weight of the shared terms over the geometric mean of both weights, 0..1."""
        shared = a & b
        if len(shared - self.proper) < MIN_SHARED_TERMS:
            return 0.0
        size = math.sqrt(self._cached_mass(a) * self._cached_mass(b))
        likeness = self._likeness_mass(shared) / size if size else 0.0
        numbers_a = self._bare_numbers(a)
        numbers_b = self._bare_numbers(b)
        if numbers_a and numbers_b and not numbers_a & numbers_b:
            likeness *= OTHER_NUMBERS_FACTOR
        return likeness

    def coverage(self, part: frozenset[str], whole: frozenset[str]) -> float:
        """Share of the weight of ``part`` that ``whole`` also holds."""
        mass = self.mass(part)
        return self.mass(part & whole) / mass if mass else 0.0
