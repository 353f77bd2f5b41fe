"""Is a line the model wrote grounded in what was said, or the model's own invention?

A small model answering an extraction may invent a daily entry ("[2019-06-25 18:43:51]
@Lisbon. A new series of articles about climate change"), echo the prompt's own
template ("one new fact", "markdown bullets for today's note") or make up a detail.
A line it writes is kept only where the conversation (or memory as it stands) says it:

* every value in it (a number, a time, an id, a version) and every name was said,
  except a calendar date or a year, which the model is asked to resolve from "last
  Friday" or "in February" and cannot quote;
* and at least half of its other words were said, as forms of one word ("moved" for
  "moving"), words about the conversation itself ("mentioned", "discussed") aside.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memclaw.judgement.lexicon import NUMBER_WORDS
from memclaw.text.language import language_of
from memclaw.text.likeness import STOPWORDS
from memclaw.text.stem import stem

_WORD = re.compile(r"[^\W_]+(?:[.:/+'’-]+[^\W_]+)*")
# A date the model resolved ("last Friday" is 2026-12-04, "February" February 2027).
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}|(?:19|20)\d{2}")
# Words a summary uses about the conversation, not about what it says.
_ABOUT_TALK = frozenset(
    """
    said says mentioned mentions discussed discusses asked asks told tells shared shares
    talked talks noted notes confirmed confirms explained explains conversation chat
    assistant today
    """.split()  # noqa: SIM905
)
# Number words a model writes as digits ("four years" is "4 years").
_NUMBERS = {word: str(number) for word, number in NUMBER_WORDS.items()}
MIN_SAID = 0.5


def echoes(answer: str, prompt: str) -> bool:
    """Whether ``answer`` is a phrase of the prompt's own template, given back."""
    said = " ".join(answer.casefold().split()).strip(" .")
    return len(said) >= 12 and said in " ".join(prompt.casefold().split())


class Said:
    """The words a conversation (and memory as it stands) said, folded for comparison."""

    def __init__(self, texts: Iterable[str]) -> None:
        text = "\n".join(texts)
        self.language = language_of(text)
        self.keys = frozenset(self._keys(text))

    def _keys(self, text: str) -> list[str]:
        found = []
        for word in _WORD.findall(text.casefold().replace("’", "'")):
            word = word.removesuffix("'s")
            found.append(_fold(word, self.language))
            if word in _NUMBERS:
                found.append(_NUMBERS[word])
        return found

    def grounds(self, line: str) -> bool:
        """Whether ``line`` says what was said (see the module)."""
        written = _WORD.findall(line.replace("’", "'"))
        words = [
            w.casefold().removesuffix("'s")
            for w in written
            if w.casefold() not in STOPWORDS | _ABOUT_TALK and (len(w) > 1 or w.isdigit())
        ]
        values = {w.rstrip(".") for w in words if any(c.isdigit() for c in w)}
        if any(not _DATE.fullmatch(v) and v not in self.keys for v in values):
            return False
        # A name (a capital inside the line) identifies as a value does. (German gives
        # every noun a capital.)
        names = [w.removesuffix("'s") for w in written[1:] if w[:1].isupper()]
        if self.language != "german" and any(
            _fold(n.casefold(), self.language) not in self.keys for n in names
        ):
            return False
        rest = [_fold(w, self.language) for w in words if w not in values]
        if not rest:
            return True
        return sum(w in self.keys for w in rest) / len(rest) >= MIN_SAID


def _fold(word: str, language: str) -> str:
    if any(c.isdigit() for c in word):
        return word.rstrip(".")
    return stem(word, language)
