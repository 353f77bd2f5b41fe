"""Snowball stemming in about thirty languages, from PyStemmer (a C extension).

Stemming only has to be consistent between the index and the query, so the
stems need not be dictionary words: "flyttar", "flyttade" and "flyttat" all
become "flytt", "Häuser" and "Haus" become "haus", "running" becomes "run".
"""

from __future__ import annotations

from functools import cache

import Stemmer

ENGLISH = "english"


@cache
def stemmer(language: str) -> Stemmer.Stemmer:
    """One stemmer per language for the whole process (they keep their own word cache)."""
    return Stemmer.Stemmer(language)


def stem(word: str, language: str = ENGLISH) -> str:
    """Stem one lower-case word with the Snowball algorithm of ``language``."""
    return stemmer(language).stemWord(word) or word
