"""Split markdown into line-addressed blocks, the unit of retrieval.

A block is a list item (with its continuation lines), a paragraph, a table
row, a fenced code block or a heading. Each knows its first and last line
(1-based), the path of headings above it, and a date when one applies: the
daily note's own date, else an "As of YYYY-MM-DD" in the text, else a date
that opens the block or heads its section.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Protocol

from memclaw.text.tokenize import STOPWORD_WORDS, WORD
from memclaw.workspace.entries import ENTRIES_DIR, is_entry_metadata

_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_RULE = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_TABLE_SEP = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_ISO_DATE = r"(\d{4}-\d{2}-\d{2})"
_AS_OF = re.compile(r"\bas of\s+" + _ISO_DATE + r"\b", re.IGNORECASE)
_LEADING_DATE = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])?[ \t]*\**" + _ISO_DATE + r"\b")
_DAILY_NAME = re.compile(_ISO_DATE + r"\.md$")

SECTION_SEP = " › "
# A turn of a conversation ("- Ana: Seven years this spring!"): the speaker label is left
# out of a neighbour's context, or every turn would carry both speakers' names.
_SPEAKER = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,9}[.)])?[ \t]*(?:\*\*)?"
    r"(?P<name>[^\W\d][\w .'’-]{0,40}?)(?:\*\*)?:(?:\*\*)?[ \t]+"
)
_NEIGHBOUR_KINDS = ("item", "paragraph")
# At most this many content words lent by the neighbours, nearest turn first. FTS5's BM25
# normalises by the length of all columns, so a long context reorders blocks by what
# happens to be next door: on benchmarks/search_quality.py (a ledger of unrelated lines)
# recall@10 fell from 0.982 to 0.858 with every neighbour word, and is 0.982 with four;
# on the conversation benchmark's tuning half it is 0.760 with every word, 0.720 with four.
NEIGHBOUR_WORDS = 4
NEIGHBOUR_CHARS = 400  # of each neighbour: a long paragraph next door is not context
# Turns before and after a block lending it their words. Two before, as the setup of an
# answer is often two turns up (question, reply, answer): with every word lent, the
# conversation benchmark's tuning half had recall@10 0.773 with one before, 0.800 with two.
BEFORE, AFTER = 2, 1
# In a dialogue between people, up to this many words: one person's turn is about what
# the other just said. On the conversation benchmark's tuning half (195 questions)
# recall@10 went from 0.772 with four to 0.803 with eight from the other person's turns
# (0.795 with six, 0.813 with twelve), and 0.815 with eight from every turn of the
# window. Not between a person and a chat role: an assistant's "Noted." says nothing of
# the line before, and on benchmarks/search_quality.py (a person's unrelated lines, each
# acknowledged) lending eight there took recall@10 from 0.982 to 0.956.
DIALOGUE_WORDS = 8
ROLES = frozenset({"user", "assistant", "system", "tool", "bot", "ai", "me", "you"})


@dataclass(frozen=True)
class Block:
    line: int
    end_line: int
    kind: str  # heading | item | paragraph | row | code
    text: str
    section: tuple[str, ...]
    date: str | None
    context: str = ""  # extra searchable context, e.g. the header row of a table
    lent: str = ""  # the neighbours' words (``with_neighbours``), also at the end of ``context``

    @property
    def own_context(self) -> str:
        """The context the block has by itself (a table's header row), without lent words."""
        if not self.lent:
            return self.context
        return self.context[: len(self.context) - len(self.lent)].rstrip()

    @property
    def hash(self) -> str:
        """Content hash: the same text anywhere is the same block for caches and logs."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()[:16]

    @property
    def section_path(self) -> str:
        return SECTION_SEP.join(self.section)


def _valid(day: str | None) -> str | None:
    if day is None:
        return None
    try:
        return date.fromisoformat(day).isoformat()
    except ValueError:
        return None


def file_date(rel_path: str) -> str | None:
    """The date of a daily note (``memory/2026-11-28.md``), from its name."""
    match = _DAILY_NAME.search(rel_path.rsplit("/", 1)[-1])
    return _valid(match.group(1)) if match else None


def text_date(text: str) -> str | None:
    """An explicit "As of" date, else a date that opens the text."""
    match = _AS_OF.search(text)
    if match and _valid(match.group(1)):
        return match.group(1)
    match = _LEADING_DATE.match(text)
    return _valid(match.group(1)) if match else None


class _Builder:
    """Accumulates lines into blocks while walking a file once."""

    def __init__(self, daily: str | None) -> None:
        self.daily = daily
        self.blocks: list[Block] = []
        self.headings: list[tuple[int, str, str | None]] = []  # level, title, date
        self.kind = ""
        self.start = 0
        self.lines: list[str] = []
        self.context = ""

    def section(self) -> tuple[str, ...]:
        return tuple(title for _, title, _ in self.headings)

    def section_date(self) -> str | None:
        for _, _, day in reversed(self.headings):
            if day:
                return day
        return None

    def emit(
        self, kind: str, start: int, lines: list[str], context: str = "", day: str | None = None
    ) -> None:
        text = "\n".join(lines).strip("\n")
        if not text.strip():
            return
        day = self.daily or day or text_date(text) or self.section_date()
        end = start + len(lines) - 1
        self.blocks.append(Block(start, end, kind, text, self.section(), day, context))

    def open(self, kind: str, start: int, line: str, context: str = "") -> None:
        self.flush()
        self.kind, self.start, self.lines, self.context = kind, start, [line], context

    def flush(self) -> None:
        if self.lines:
            self.emit(self.kind, self.start, self.lines, self.context)
        self.kind, self.lines, self.context = "", [], ""

    def heading(self, number: int, level: int, title: str, line: str) -> None:
        self.flush()
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        day = text_date(title)
        self.emit("heading", number, [line], day=day)
        self.headings.append((level, title, day))


def split_blocks(text: str, rel_path: str = "") -> list[Block]:
    """Blocks of one markdown file, each with its neighbours' words (``with_neighbours``);
    ``rel_path`` gives daily notes their date."""
    return with_neighbours(parse_blocks(text, rel_path))


def parse_blocks(text: str, rel_path: str = "") -> list[Block]:
    """Blocks of one markdown file, without their neighbours' words (the index computes
    those itself, for the blocks it writes: ``storage/fts.py``)."""
    b = _Builder(file_date(rel_path))
    fence: str | None = None
    table_header = ""
    in_table = False
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if fence is not None:
            b.lines.append(line)
            if line.strip().startswith(fence):
                fence = None
                b.flush()
            continue
        stripped = line.strip()
        was_table, in_table = in_table, stripped.startswith("|")
        if not stripped:
            b.flush()
            continue
        opening = _FENCE.match(line)
        if opening:
            b.open("code", number, line)
            fence = opening.group(1)
            continue
        heading = _HEADING.match(line)
        if heading:
            b.heading(number, len(heading.group(1)), (heading.group(2) or "").strip(), line)
            continue
        if in_table:
            if _TABLE_SEP.match(stripped):
                b.flush()
                continue
            if not was_table:
                table_header = stripped
                b.open("row", number, line)
            else:
                b.open("row", number, line, table_header)
            b.flush()
            continue
        if _RULE.match(line):
            b.flush()
            continue
        if _LIST_ITEM.match(line):
            b.open("item", number, line)
            continue
        if b.lines and b.kind in ("item", "paragraph"):
            b.lines.append(line)
        else:
            b.open("paragraph", number, line)
    b.flush()
    return b.blocks


def bookkeeping(rel_path: str, block: Block) -> bool:
    """Whether ``block`` is an entries file's bookkeeping, which no question is about: its
    title, an entry's id heading, an entry's ``- category:``, dates and fields."""
    if ENTRIES_DIR not in rel_path.split("/")[:-1]:
        return False
    return block.kind == "heading" or (
        block.kind == "item" and is_entry_metadata(rel_path, block.text)
    )


def speaker_of(text: str) -> str | None:
    """The speaker label a turn opens with ("- Ana: ..." is Ana's), if any."""
    label = _SPEAKER.match(text)
    if label is None:
        return None
    return label.group("name").strip()


class Turn(Protocol):
    """What neighbour context reads of a block: a parsed ``Block`` or a stored row."""

    @property
    def kind(self) -> str: ...
    @property
    def section(self) -> object: ...
    @property
    def text(self) -> str: ...


def neighbour_text(block: Turn) -> str:
    """What a block lends its neighbours: its words without the speaker label, cut short."""
    text = " ".join(block.text.split())
    label = _SPEAKER.match(text)
    if label:
        text = text[label.end() :]
    return text[:NEIGHBOUR_CHARS]


def _run(blocks: Sequence[Turn], i: int, step: int, count: int) -> list[Turn]:
    """Up to ``count`` turns of the same section next to ``blocks[i]``, going ``step``."""
    found: list[Turn] = []
    j = i + step
    while len(found) < count and 0 <= j < len(blocks):
        other = blocks[j]
        if other.kind not in _NEIGHBOUR_KINDS or other.section != blocks[i].section:
            break
        found.append(other)
        j += step
    return found


def lent_words(blocks: Sequence[Turn]) -> list[str]:
    """The words each of ``blocks`` (one file's, in order) gets from its neighbours.

    Block ``i``'s words depend on blocks ``i - BEFORE`` to ``i + AFTER`` only:
    the index recomputes them from a window of stored rows (``storage.fts``).
    """
    out = [""] * len(blocks)
    for i, block in enumerate(blocks):
        if block.kind not in _NEIGHBOUR_KINDS:
            continue
        # The turns before first: an answer's setup comes before it (nearest-first order,
        # next turn second, had recall@10 0.680 against 0.720 on the tuning half).
        near = [*_run(blocks, i, -1, BEFORE), *_run(blocks, i, 1, AFTER)]
        if near:
            out[i] = _lent(block, near)
    return out


def _person(speaker: str | None) -> bool:
    """Whether a turn's label names a person, not a chat role ("user", "assistant")."""
    return speaker is not None and speaker.casefold() not in ROLES


def _lent(block: Turn, near: list[Turn]) -> str:
    """The words ``near`` lend ``block``, nearest first: ``NEIGHBOUR_WORDS`` at most, or
    ``DIALOGUE_WORDS`` in a dialogue (``block`` and a neighbour are turns of two people:
    then the turn two up, the same person's, is the setup of the question between)."""
    speaker = speaker_of(block.text)
    dialogue = _person(speaker) and any(
        _person(said) and said != speaker for said in (speaker_of(o.text) for o in near)
    )
    cap = DIALOGUE_WORDS if dialogue else NEIGHBOUR_WORDS
    have = {w.casefold() for w in WORD.findall(block.text)}
    kept: list[str] = []
    for other in near:
        for word in WORD.findall(neighbour_text(other)):
            if len(kept) >= cap:
                return " ".join(kept)
            if (k := word.casefold()) not in STOPWORD_WORDS and k not in have:
                kept.append(word)
                have.add(k)
    return " ".join(kept)


def with_neighbours(blocks: list[Block]) -> list[Block]:
    """Each list item or paragraph with its neighbours' words as context.

    A question is often phrased like the turns before its answer ("How long have
    Ana and her husband been married?": the wedding photos come a turn or two
    before "Seven years this spring!"; "Who won?" comes before "My dad did").
    So a turn carries the words of the ``BEFORE`` turns before it and the
    ``AFTER`` after it, in the same section, without a break between; the
    context column is weighted below the block's own words (keyword.py).
    """
    out = list(blocks)
    for i, (block, lent) in enumerate(zip(blocks, lent_words(blocks), strict=True)):
        if lent:
            context = " ".join(filter(None, [block.context, lent]))
            out[i] = replace(block, context=context, lent=lent)
    return out
