"""Compound words written together or apart: "workout" finds "work out", and back.

People write the same compound both ways ("workout" / "work out", "ice cream" /
"icecream", "week end" / "weekend"), and no stemmer joins them. The query is
checked against the index's own words, so only forms that occur somewhere are
added:

* a query word that splits into two words the index holds ("work" + "out")
  also matches them as a phrase, next to each other and in that order;
* two query words side by side that the index holds joined ("workout") also
  match the joined word, which then answers for both.

A split that means nothing ("kaya" + "king") costs a phrase no block holds.
Only ASCII words are tried (the compounds of German or Swedish are written
together and stemmed as one word); English stems are used, as for the spelling
variants the index folds.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise

from memclaw.text.stem import ENGLISH
from memclaw.text.tokenize import STOPWORD_WORDS, Query, Term, tokens

MIN_PART = 3  # letters in each half of a split: "at" + "tend" is not a compound
MIN_WORD = 6

_WORD = re.compile(r"[A-Za-z]+")


def with_compounds(query: Query, known: Callable[[str], bool]) -> Query:
    """``query`` with the other way of writing its compounds, where ``known(token)``
    says whether the index holds ``token``."""
    words = [w.casefold() for w in _WORD.findall(query.text)]
    terms = list(query.terms)
    for word in dict.fromkeys(words):
        if len(word) >= MIN_WORD and word not in STOPWORD_WORDS:
            for split in _splits(word, known):
                _add(terms, word, split)
    for left, right in pairwise(words):
        if len(left) < 2 or len(right) < 2 or len(left + right) < MIN_WORD:
            continue
        joined = _stem(left + right)
        if joined and known(joined[0]):
            for word in (left, right):
                _add(terms, word, joined)
    return replace(query, terms=tuple(terms))


def _splits(word: str, known: Callable[[str], bool]) -> list[tuple[str, ...]]:
    found = []
    for i in range(MIN_PART, len(word) - MIN_PART + 1):
        left, right = _stem(word[:i]), _stem(word[i:])
        if left and right and known(left[-1]) and known(right[0]):
            found.append(left + right)
    return found


def _add(terms: list[Term], word: str, form: tuple[str, ...]) -> None:
    """``form`` as one more way to match the term of ``word`` (none: a stopword)."""
    own = _stem(word)
    for i, term in enumerate(terms):
        if own in term.forms and form not in term.forms:
            terms[i] = replace(term, alternatives=(*term.alternatives, form))


def _stem(text: str) -> tuple[str, ...]:
    return tuple(tokens(text, ENGLISH))
