"""Blocks are indexed with their neighbours' words: a question like the setup finds the answer."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memclaw.index import search
from memclaw.index.blocks import split_blocks
from memclaw.workspace import Workspace

NOW = datetime(2023, 4, 1, 12, 0, tzinfo=UTC)
NOTE = """# 2023-03-18

## 18:40
- Elena: I'm writing a children's book about a fox.
- Kofi: Lovely! I went back to university to study history.
- Kofi: Have you got an illustrator yet?
- Elena: My friend Tilde is doing the pictures in watercolour.
- Kofi: Tilde is a great painter.

## 19:10
- Jamal: Who did the pictures for the album?
"""


def _ws(root: Path) -> Workspace:
    (root / "a" / "memory").mkdir(parents=True)
    (root / "a" / "memory" / "2023-03-18.md").write_text(NOTE, encoding="utf-8")
    return Workspace.open(root, clock=lambda: NOW)


def test_a_turn_carries_its_neighbours_words_without_their_speaker() -> None:
    blocks = {b.line: b for b in split_blocks(NOTE, "memory/2023-03-18.md")}
    # The turns before first, then after; no stopwords, no speaker; eight words in a
    # dialogue between two people (four otherwise: see the next test).
    assert blocks[7].context == "got illustrator yet Lovely went back university study"
    assert blocks[8].context == "friend pictures watercolour got illustrator yet"  # no "Tilde"
    assert blocks[6].context == "Lovely went back university study history I'm writing"
    assert "album" not in blocks[8].context  # the next section is not a neighbour
    assert blocks[10].context == ""  # nor is a turn of another section


def test_the_answer_turn_ranks_first_for_a_question_phrased_like_its_setup(
    isolated_env: Path,
) -> None:
    hits = search(_ws(isolated_env), "who is Elena's illustrator")
    assert hits[0].line == 7  # Elena's own line, next to the word "illustrator"


def test_a_line_found_only_through_a_neighbour_is_not_a_hit(
    isolated_env: Path,
) -> None:
    hits = search(_ws(isolated_env), "Tilde watercolour")
    assert [h.line for h in hits] == [7, 8]  # line 6 has neither word: line 7 is the hit


def test_a_chat_role_lends_and_gets_four_words_only() -> None:
    note = """## 09:00
- Maya: Ingrid works as a nurse in the big hospital downtown since spring.
- assistant: Noted, I will remember the hospital and the nurse job.
- Maya: Lars moved to Utrecht with his cat and his bicycle last week.
"""
    blocks = {b.line: b for b in split_blocks(note, "memory/2023-03-18.md")}
    # "assistant" is a role, not a person: its line says nothing of the one before.
    assert len(blocks[3].context.split()) == 4
    assert len(blocks[4].context.split()) == 4
    people = note.replace("assistant:", "Ingrid:")
    blocks = {b.line: b for b in split_blocks(people, "memory/2023-03-18.md")}
    assert len(blocks[3].context.split()) == 8  # between two people, eight
    assert len(blocks[4].context.split()) == 8  # (Maya's line two up included)
