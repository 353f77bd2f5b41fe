"""Storage: the contentless full-text table stays exact under edits; reindex keeps no dead pages."""

import os
import shutil
import sqlite3
from pathlib import Path

import pristine

from memclaw.index import reindex, search, sync_agent
from memclaw.index.storage.packs import visible_blocks
from memclaw.index.store import index_path
from memclaw.workspace import Workspace

DEMO = pristine.demo()


def _demo(root: Path):  # type: ignore[no-untyped-def]
    shutil.copytree(DEMO, root / "demo", ignore=shutil.ignore_patterns(".memclaw", "sessions"))
    return Workspace.open(root, env={}).agent("demo")


def _terms(agent) -> list[tuple[str, str, int, int]]:  # type: ignore[no-untyped-def]
    """Every (term, column, rows, occurrences) the full-text index holds."""
    conn = sqlite3.connect(index_path(agent.path))
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, blocks_fts, col)")
        return conn.execute("SELECT term, col, doc, cnt FROM temp.v ORDER BY 1, 2").fetchall()
    finally:
        conn.close()


def _edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    st = path.stat()  # a new mtime, in the past so that the sync trusts it at once
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - 60_000_000_000))


def test_edits_leave_the_same_index_as_a_rebuild(isolated_env: Path) -> None:
    agent = _demo(isolated_env)
    sync_agent(agent)
    memory = agent.path / "MEMORY.md"
    table = "| Pet | Name |\n|---|---|\n| dog | Knut |\n| cat | Sigrid |\n"
    memory.write_text(memory.read_text(encoding="utf-8") + "\n## Pets\n\n" + table)
    sync_agent(agent)
    _edit(memory, "Sigrid", "Malin")
    (agent.path / "memory" / "2026-11-20.md").unlink()
    (agent.path / "PROFILE.md").write_text("# Profile\n\n- likes kanelbullar\n")
    stats = sync_agent(agent)
    assert stats.dirty
    incremental = _terms(agent)
    assert not [t for t in incremental if t[0] == "sigrid"]  # the old row's tokens are gone
    assert search(Workspace.open(isolated_env, env={}), "Malin pet")[0].file == "MEMORY.md"
    reindex(agent)
    assert _terms(agent) == incremental


def test_reindex_leaves_no_dead_pages(isolated_env: Path) -> None:
    agent = _demo(isolated_env)
    reindex(agent)
    path = index_path(agent.path)
    first = path.stat().st_size
    for _ in range(6):
        reindex(agent)
    assert path.stat().st_size <= first
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA freelist_count").fetchone()[0] == 0
    finally:
        conn.close()


def test_the_text_is_stored_once(isolated_env: Path) -> None:
    agent = _demo(isolated_env)
    reindex(agent)
    conn = sqlite3.connect(index_path(agent.path))
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_schema")}
    finally:
        conn.close()
    assert "blocks_fts" in tables and "blocks_fts_content" not in tables


def _ids(agent, rel: str) -> list[tuple[int, str]]:  # type: ignore[no-untyped-def]
    conn = sqlite3.connect(index_path(agent.path))
    try:
        return [(b.id, b.text) for f, b in visible_blocks(conn) if f.path == rel]
    finally:
        conn.close()


def test_an_append_reindexes_only_the_new_blocks_and_stays_exact(isolated_env: Path) -> None:
    agent = _demo(isolated_env)
    sync_agent(agent)
    note = agent.path / "memory" / "2026-11-28.md"  # the newest: its blocks are the last ids
    before = _ids(agent, "memory/2026-11-28.md")
    text = note.read_text(encoding="utf-8")
    _edit(note, text, text + "- bought a red kayak\n- and a paddle\n")
    assert sync_agent(agent).changed == ["memory/2026-11-28.md"]
    after = _ids(agent, "memory/2026-11-28.md")
    assert after[: len(before)] == before  # the unchanged blocks kept their rows
    assert [t for _, t in after[len(before) :]] == ["- bought a red kayak", "- and a paddle"]
    older = agent.path / "memory" / "2026-11-20.md"  # not the last: a longer file moves up
    text = older.read_text(encoding="utf-8")
    _edit(older, text, text + "- one more line\n")
    sync_agent(agent)
    _edit(older, "- one more line", "- one line less")  # same length: rewritten in place
    sync_agent(agent)
    incremental = _terms(agent)
    ws = Workspace.open(isolated_env, env={})
    assert [h.file for h in search(ws, "paddle")] == ["memory/2026-11-28.md"]
    assert [h.file for h in search(ws, "less")] == ["memory/2026-11-20.md"]
    reindex(agent)
    assert _terms(agent) == incremental


TURNS = [
    "- Ana: We finally framed the wedding photos",
    "- Ben: They look lovely on the hallway wall",
    "- Ana: Seven years this spring!",
    "- Ben: Time flies, congratulations",
    "- Ana: Thanks, dinner at the harbour to celebrate",
]


def _rebuilt_equals_incremental(agent) -> None:  # type: ignore[no-untyped-def]
    sync_agent(agent)
    incremental = _terms(agent)
    reindex(agent)
    assert _terms(agent) == incremental


def test_neighbour_words_are_not_stored_and_edits_between_turns_stay_exact(
    isolated_env: Path,
) -> None:
    agent = _demo(isolated_env)
    note = agent.path / "memory" / "2026-11-28.md"  # the newest: appends keep their ids
    body = "# 2026-11-28\n\n## 19:05 Ana, Ben\n\n" + "\n".join(TURNS) + "\n"
    note.write_text(body, encoding="utf-8")
    sync_agent(agent)
    conn = sqlite3.connect(index_path(agent.path))
    try:
        extras = [b.extra for _, b in visible_blocks(conn)]
    finally:
        conn.close()
    # Only a block's own context is stored (a table's header row): lent words are recomputed.
    assert not any(e and "wedding" in e for e in extras)
    ws = Workspace.open(isolated_env, env={})
    # "wedding" is lent to the answer turn by the turn two above it.
    assert any("Seven years" in h.text for h in search(ws, "wedding seven"))
    _edit(note, "Time flies", "Time really flies")  # a middle turn: its neighbours change too
    _rebuilt_equals_incremental(agent)
    _edit(note, "celebrate\n", "celebrate\n- Ben: Book the table for eight\n")  # an append
    _rebuilt_equals_incremental(agent)
    _edit(note, "- Ben: They look lovely on the hallway wall\n", "")  # a turn deleted
    _rebuilt_equals_incremental(agent)
    _edit(note, "## 19:05 Ana, Ben\n\n", "")  # the section goes: every turn's neighbours move
    _rebuilt_equals_incremental(agent)
    note.unlink()
    _rebuilt_equals_incremental(agent)
