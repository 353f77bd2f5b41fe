"""What a forget looks for: the person's words, or the statements of chosen facts.

A *fact line* is a line of a memory file (PROFILE.md, MEMORY.md, an entry, an
owner's file, a daily note); it goes whole. Free text (a transcript message, a
log record, the dream diary, a previous version's prose) loses only the
sentences that hold the fact, replaced by :data:`MARK`, so what else it says stays.

Words match as whole words, case-insensitive, with a plural or verb ending
("knee" finds "knees" and "right-knee"), and a line must hold every one of
them. A statement matches its own copies (the same fact id) and any sentence
that says nearly all of it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from memclaw.errors import UsageError
from memclaw.facts.ids import fact_id, normalise_statement
from memclaw.judgement import Relation as Judged
from memclaw.judgement import is_correction, judge, read
from memclaw.text.likeness import STOPWORDS, containment, jaccard, tokens

MARK = "[forgotten]"


class Relation(StrEnum):
    COPY = "copy"  # states the fact: it goes
    MENTION = "mention"  # names its words but says something else: kept unless chosen
    OTHER = "other"  # another value, or a correction superseding it: never removed by it


_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_ENDINGS = r"(?:s|es|'s|ed|d|ing)?"


def query_words(words: str) -> list[str]:
    """The searchable words of what a person typed; raises when there are none."""
    found = [w for w in _WORD.findall(words.lower()) if w not in STOPWORDS or w.isdigit()]
    found = list(dict.fromkeys(w for w in found if len(w) > 1 or w.isdigit()))
    if not found:
        raise UsageError(
            f"{words!r} has no words to look for; give the fact's words or its id (f1a2b3c4d)"
        )
    return found


@dataclass
class Matcher:
    """Tells what is to be forgotten in one scope (``prefix`` is ``Scope.prefix``)."""

    prefix: str
    words: list[str] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    statements: list[frozenset[str]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    also: bool = False  # lines that merely mention the fact go too (the person chose them)
    # (file relative to the agent, line) of the memory lines that go: a recall of them goes too.
    lines: set[tuple[str, int]] = field(default_factory=set)
    # The chat messages (whitespace folded) of the exchanges that stored the fact
    # (``erasure.sources``): the person said it there in words of their own.
    sources: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._patterns = [
            re.compile(rf"(?<![^\W_]){re.escape(w)}{_ENDINGS}(?![^\W_])", re.IGNORECASE)
            for w in self.words
        ]

    def add_statement(self, statement: str) -> None:
        self.ids.add(fact_id(statement, self.prefix))
        found = tokens(statement)
        if found and found not in self.statements:
            self.statements.append(found)
            self.texts.append(statement)

    def has_words(self, text: str) -> bool:
        return bool(self._patterns) and all(p.search(text) for p in self._patterns)

    def _alike(self, text: str) -> list[str]:
        """The forgotten statements ``text`` says nearly all of."""
        found = tokens(text)
        if not found:
            return []
        return [
            t
            for s, t in zip(self.statements, self.texts, strict=True)
            if containment(s, found) >= 0.8 or jaccard(s, found) >= 0.6
        ]

    def relation(self, text: str) -> Relation | None:
        """How ``text`` (a sentence or line) stands to the fact; None: it does not touch it."""
        if self.has_words(text):
            return Relation.COPY
        alike = self._alike(text)
        if not alike:
            return None
        # A near twin ("server b4" for "server b3", invoice 4412) is another fact: a line
        # that lacks a value naming the forgotten one does not touch it.
        named = [t for t in alike if _values(t) <= read(text).keys]
        if not named:
            return None
        judged = [judge(t, text) for t in named]
        verdicts = [j.relation for j in judged]
        if is_correction(text) or Judged.UPDATE in verdicts:
            return Relation.OTHER  # another value for the same thing, or the truth that replaced it
        found = tokens(text)
        if all(j.relation is Judged.DISTINCT and j.sure for j in judged) and not any(
            tokens(t) <= found for t in named
        ):
            return None  # a near twin (server beta for server alpha): another fact, untouched
        if any(
            v is Judged.SAME or (v is Judged.RICHER and jaccard(tokens(t), found) >= 0.6)
            for t, v in zip(named, verdicts, strict=True)
        ):
            return Relation.COPY  # the fact, in other words or with a word more
        # It says the fact and more ("remind Dana that ..."): the rest may matter to the person.
        return Relation.MENTION

    def says(self, text: str) -> bool:
        """True when ``text`` (one sentence or free text) holds the fact."""
        return self.relation(text) in (Relation.COPY, Relation.MENTION)

    def line_relation(self, line: str) -> Relation | None:
        """How a memory file's ``line`` stands to the fact (a copy goes, another value stays)."""
        stripped = line.strip()
        if not stripped:
            return None
        if fact_id(normalise_statement(stripped), self.prefix) in self.ids:
            return Relation.COPY
        found = [self.relation(stripped), *(self.relation(s) for s in _sentences(stripped))]
        for kind in (Relation.OTHER, Relation.COPY, Relation.MENTION):
            if kind in found:
                return kind
        return None

    def fact_line(self, line: str) -> bool:
        """True when a memory file's ``line`` is (a copy of) the fact, or a chosen mention."""
        found = self.line_relation(line)
        return found is Relation.COPY or (self.also and found is Relation.MENTION)

    def asked(self, record: dict[str, Any]) -> bool:
        """True when a log record's query asked for the fact, or its hits found a line of it.

        A search record keeps the question and where its answer lived: the
        question ("cardiologist") says what the person forgot as much as the fact.
        """
        query = record.get("query")
        query = query if isinstance(query, str) else ""
        if query.strip() and (any(p.search(query) for p in self._patterns) or self.says(query)):
            return True
        hits = record.get("hits")
        if not self.lines or not isinstance(hits, list):
            return False
        for hit in hits:
            if not isinstance(hit, dict) or not isinstance(hit.get("file"), str):
                continue
            start, end = hit.get("line"), hit.get("end_line")
            if not isinstance(start, int):
                continue
            last = end if isinstance(end, int) and end >= start else start
            if any((hit["file"], n) in self.lines for n in range(start, last + 1)):
                return True
        return False

    def typed(self, line: str) -> bool:
        """True when a line of the input history said the fact: in the exchange that
        stored it, or stating or so much as mentioning it (it is a cache, not memory)."""
        text = " ".join(line.removeprefix("+").split())
        return text in self.sources or self.relation(text) in (Relation.COPY, Relation.MENTION)

    def _in_exchange(self, sentence: str) -> bool:
        """A sentence of an exchange that stored the fact says it when it shares a word."""
        found = tokens(sentence)
        return any(found & statement for statement in self.statements)

    def redact(self, text: str) -> tuple[str, int]:
        """``text`` with every sentence holding the fact replaced by :data:`MARK`."""
        says: Callable[[str], bool]
        if " ".join(text.split()) in self.sources:
            says = self._in_exchange
        elif self.says(text) or any(self.says(s) for s in _sentences(text)):
            says = self.says
        else:
            return text, 0
        out, count, pos = [], 0, 0
        for match in _SENTENCE.finditer(text + "\n"):
            piece = text[pos : match.start()]
            gap = text[match.start() : match.end()] if match.start() < len(text) else ""
            pos = match.end()
            if piece.strip() and says(piece):
                lead = piece[: len(piece) - len(piece.lstrip())]
                out.append(lead + MARK + gap)
                count += 1
            else:
                out.append(piece + gap)
        if not count:  # the fact spans sentences: the whole text goes
            return MARK, 1
        return "".join(out), count

    def redact_data(self, value: Any) -> tuple[Any, int]:
        """Every string in JSON data redacted; a string holding JSON is redacted inside."""
        if isinstance(value, str):
            inner = _json_inside(value)
            if inner is not None:
                cleaned, count = self.redact_data(inner)
                return (json.dumps(cleaned, ensure_ascii=False), count) if count else (value, 0)
            return self.redact(value)
        if isinstance(value, list):
            pairs = [self.redact_data(item) for item in value]
            return [v for v, _ in pairs], sum(c for _, c in pairs)
        if isinstance(value, dict):
            total, out = 0, {}
            for key, item in value.items():
                out[key], count = self.redact_data(item)
                total += count
            return out, total
        return value, 0


def _values(statement: str) -> frozenset[str]:
    """The values in ``statement`` (numbers, ids, dates): what tells it from its near twins."""
    return frozenset(w.key for w in read(statement).words if w.value)


def _sentences(text: str) -> Iterable[str]:
    return (s for s in _SENTENCE.split(text) if s.strip())


def _json_inside(value: str) -> Any:
    # Tool-call arguments are a JSON object inside a string.
    stripped = value.strip()
    if not stripped.startswith(("{", "[")):
        return None
    try:
        return json.loads(stripped)
    except json.JSONDecodeError:
        return None
