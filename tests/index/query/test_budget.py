"""search --budget: whole hits best first, then the lines around them, within the budget.

(Each person speaks once: in a talk where someone speaks again, the turn after a hit
would be a hit itself, by its neighbour's words: keyword._as_hit.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from memclaw.errors import UsageError
from memclaw.index import search
from memclaw.index.query.context import handed_over, within_budget
from memclaw.workspace import Workspace

NOTE = """# 2023-02-18

## 19:05 Elena, Jamal, Kofi, Dara

- Elena: The reunion gig is on, everyone is in
- Jamal: The Crown offered Saturday the 20th of May
- Kofi: Perfect, I'll book the rehearsal room
- Dara: Bring the old setlist

## 21:40 Elena, Jamal

- Elena: Goodnight
"""


def _ws(root: Path) -> Workspace:
    note = root / "a" / "memory" / "2023-02-18.md"
    note.parent.mkdir(parents=True)
    note.write_text(NOTE, encoding="utf-8")
    memory = "- Jamal still plays bass in the reunion band after twenty years\n"
    (root / "a" / "MEMORY.md").write_text(memory, encoding="utf-8")
    return Workspace.open(root, env={})


def _handed(hits, arounds) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    lines = []
    for hit, near in zip(hits, arounds, strict=True):
        lines += [(hit.file, n) for n, _ in near.before]
        lines += [(hit.file, n) for n in range(hit.line, hit.end_line + 1)]
        lines += [(hit.file, n) for n, _ in near.after]
    return lines


def _cost(hits, arounds) -> int:  # type: ignore[no-untyped-def]
    texts = [h.text for h in hits] + [t for a in arounds for _, t in a.before + a.after]
    return sum(len(t) + 1 for t in texts)


def test_the_turn_after_a_hit_comes_with_it_when_the_budget_allows(isolated_env: Path) -> None:
    ws = _ws(isolated_env)
    hits = search(ws, "when is the reunion gig", log=False)
    assert [h.file for h in hits] == ["memory/2023-02-18.md", "MEMORY.md"]
    assert "Saturday" not in " ".join(h.text for h in hits)
    kept, arounds = within_budget(ws, hits, 400)
    assert kept == hits and _cost(kept, arounds) <= 400
    after = [t for _, t in arounds[0].after]
    assert after[0] == "- Jamal: The Crown offered Saturday the 20th of May"
    handed = _handed(kept, arounds)
    assert len(handed) == len(set(handed))  # no line twice
    # The section ends at the next heading: its lines and the heading are not context.
    assert all(n < 10 for f, n in handed if f == "memory/2023-02-18.md")
    assert ("memory/2023-02-18.md", 3) not in handed  # nor the heading above


def test_hits_come_first_and_context_only_with_what_is_left(isolated_env: Path) -> None:
    ws = _ws(isolated_env)
    hits = search(ws, "reunion", log=False)
    just_hits = sum(len(h.text) + 1 for h in hits)
    kept, arounds = within_budget(ws, hits, just_hits)
    assert kept == hits and all(not a.before and not a.after for a in arounds)
    # A hit too long for what is left is passed over for the next one that fits.
    first, second = hits
    kept, _ = within_budget(ws, hits, len(second.text) + 1)
    assert kept == [second] and len(first.text) > len(second.text)
    kept, arounds = within_budget(ws, hits, 1)
    assert kept == [] and arounds == []


def test_a_budget_and_context_do_not_go_together(isolated_env: Path) -> None:
    ws = _ws(isolated_env)
    hits = search(ws, "reunion", log=False)
    with pytest.raises(UsageError, match="--budget"):
        handed_over(ws, hits, context=1, budget=100)
    with pytest.raises(UsageError, match="--budget"):
        within_budget(ws, hits, 0)
    assert handed_over(ws, hits) == (hits, None)
