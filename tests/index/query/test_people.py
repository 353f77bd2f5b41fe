"""A query naming a person known in the workspace ranks blocks by or about them first."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memclaw.index import search
from memclaw.index.blocks import speaker_of
from memclaw.workspace import Workspace

NOTE = """# 2023-05-02

## 08:50 Mei and Jonah
- Jonah: How was your club? Everyone there loves to read.
- Mei: Good, a novel about a Korean family, and I chose the next one.
- Jonah: I never finish anything.

## 09:30 Ravi and Ana
- Ana: I lent my book about the Azores to Tomás.
- Ravi: Which book should I read on holiday?
"""


def _ws(root: Path) -> Workspace:
    (root / "a" / "memory").mkdir(parents=True)
    (root / "a" / "memory" / "2023-05-02.md").write_text(NOTE, encoding="utf-8")
    now = datetime(2023, 5, 3, 12, tzinfo=UTC)
    return Workspace.open(root, clock=lambda: now)


def test_the_speaker_of_a_turn() -> None:
    assert speaker_of("- Mei Ling: we read") == "Mei Ling"
    assert speaker_of("- **Ana:** hello") == "Ana"
    assert speaker_of("- 2023-05-02: dentist") is None
    assert speaker_of("plain words") is None


def test_the_named_persons_own_turns_rank_first(isolated_env: Path) -> None:
    hits = search(_ws(isolated_env), "What book did Mei read?")
    assert hits[0].text.startswith("- Mei:")
    # Then the turns of the conversation with Mei, before another conversation's "book".
    lines = [h.line for h in hits]
    assert lines[:2] == [5, 4] and lines.index(6) < lines.index(10)


def test_a_name_nobody_speaks_changes_nothing(isolated_env: Path) -> None:
    ws = _ws(isolated_env)
    assert [h.line for h in search(ws, "book Tomás")][:1] == [9]
    plain = [h.line for h in search(ws, "which book")]
    assert plain == [h.line for h in search(ws, "which book Zelda")][: len(plain)]
