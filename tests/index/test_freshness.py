"""Freshness in proportion to what changed, with a stated bound proven on an injected clock.

The bound (docs/commands/search.md, "Freshness"): a search sees at once any file added, removed or
renamed, and any edit to a core file, one of the newest daily notes or a recently
modified file; any other edit within ``freshness_sweep_seconds``. While ``memclaw
watch`` runs, searches trust it and check nothing.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from memclaw.index import search, sync_agent
from memclaw.index.fresh.check import bring_up_to_date
from memclaw.index.fresh.marker import TRUST_S, beat, clear, marker_path
from memclaw.index.store import open_index
from memclaw.workspace import Workspace

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
NOTES = 100
SWEEP = 30


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def at(self, seconds: float) -> None:
        self.now = T0 + timedelta(seconds=seconds)


def _workspace(root: Path) -> tuple[Workspace, Clock, Path]:
    agent = root / "a"
    (agent / "memory").mkdir(parents=True)
    (agent / "MEMORY.md").write_text("# Memory\n\n- Knut is a Lapphund\n")
    past = T0.timestamp() - 10 * 86400
    start = date(2026, 8, 1)
    for i in range(NOTES):
        note = agent / "memory" / f"{start + timedelta(days=i)}.md"
        note.write_text(f"# {start + timedelta(days=i)}\n\n- entry number {i}\n")
        os.utime(note, (past + i * 60, past + i * 60))  # settled, oldest first
    for settled in (agent / "MEMORY.md", agent / "memory", agent):
        os.utime(settled, (past, past))  # a folder just changed is listed again: see state.py
    clock = Clock()
    ws = Workspace.open(root, env={}, clock=clock, overrides={"freshness_sweep_seconds": SWEEP})
    sync_agent(ws.agent("a"))
    return ws, clock, agent


def _found(ws: Workspace, word: str) -> list[str]:
    return [h.file for h in search(ws, word, log=False)]


def _append(path: Path, line: str) -> None:
    """An in-place edit (no rename): the folder's time does not move."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(line)


def test_an_edit_to_an_old_note_is_seen_within_the_sweep_bound(isolated_env: Path) -> None:
    ws, clock, agent = _workspace(isolated_env)
    old = agent / "memory" / "2026-08-01.md"
    _append(old, "- saw a zebracorn\n")
    clock.at(1)
    assert _found(ws, "zebracorn") == []  # not checked yet: it is neither new nor hot
    clock.at(SWEEP - 1)
    assert _found(ws, "zebracorn") == []
    clock.at(SWEEP)  # the bound: never missed for longer than freshness_sweep_seconds
    assert _found(ws, "zebracorn") == ["memory/2026-08-01.md"]


def test_a_search_checks_the_hot_set_and_folders_not_every_file(isolated_env: Path) -> None:
    _ws, clock, agent = _workspace(isolated_env)
    clock.at(5)
    conn = open_index(agent)
    try:
        stats = bring_up_to_date(conn, agent, is_global=False, now=clock(), sweep_seconds=SWEEP)
        assert stats.files <= 41  # MEMORY.md, 8 newest notes, 32 most recently modified
        clock.at(SWEEP + 5)
        stats = bring_up_to_date(conn, agent, is_global=False, now=clock(), sweep_seconds=SWEEP)
        assert stats.files == NOTES + 1  # the full sweep
    finally:
        conn.close()


def test_new_removed_core_and_newest_files_are_seen_at_once(isolated_env: Path) -> None:
    ws, clock, agent = _workspace(isolated_env)
    clock.at(1)
    _append(agent / "MEMORY.md", "- Knut loves kanelbullar\n")
    assert _found(ws, "kanelbullar") == ["MEMORY.md"]
    newest = agent / "memory" / "2026-11-08.md"
    _append(newest, "- the heater broke\n")
    assert _found(ws, "heater") == ["memory/2026-11-08.md"]
    (agent / "memory" / "2026-12-01.md").write_text("# 2026-12-01\n\n- bought a kayak\n")
    assert _found(ws, "kayak") == ["memory/2026-12-01.md"]
    (agent / "notes").mkdir()
    (agent / "notes" / "ideas.md").write_text("- a sauna by the lake\n")
    assert _found(ws, "sauna") == ["notes/ideas.md"]
    (agent / "memory" / "2026-08-02.md").unlink()
    assert "memory/2026-08-02.md" not in _found(ws, "number")
    renamed = agent / "memory" / "2026-08-03.md"
    _append(renamed, "- the ferry timetable changed\n")
    renamed.rename(agent / "memory" / "2026-07-03.md")
    assert _found(ws, "ferry") == ["memory/2026-07-03.md"]


def test_a_running_watcher_is_trusted_until_its_mark_is_stale(isolated_env: Path) -> None:
    ws, clock, agent = _workspace(isolated_env)
    beat(agent)
    mark = marker_path(agent)
    os.utime(mark, (T0.timestamp(), T0.timestamp()))
    clock.at(1)
    _append(agent / "MEMORY.md", "- Knut loves kanelbullar\n")
    assert _found(ws, "kanelbullar") == []  # trusted: the watcher re-indexes edits itself
    clock.at(TRUST_S)  # no beat for TRUST_S seconds: the watcher is gone
    assert _found(ws, "kanelbullar") == ["MEMORY.md"]
    clear(agent)
    assert not mark.exists()


def test_an_unreadable_freshness_record_means_a_full_sweep(isolated_env: Path) -> None:
    ws, clock, agent = _workspace(isolated_env)
    _append(agent / "memory" / "2026-08-01.md", "- saw a zebracorn\n")
    conn = sqlite3.connect(agent / ".memclaw" / "index.sqlite")
    conn.execute("UPDATE meta SET value = 'not json' WHERE key = 'freshness'")
    conn.commit()
    conn.close()
    clock.at(1)
    assert _found(ws, "zebracorn") == ["memory/2026-08-01.md"]
