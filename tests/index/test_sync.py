"""Incremental sync: unchanged files skipped, changed/new/deleted handled, rebuild is exact."""

import os
import sqlite3
from pathlib import Path

from memclaw.index import reindex, sync_agent
from memclaw.index.storage.packs import visible_blocks
from memclaw.index.store import index_path
from memclaw.workspace import Workspace


def _agent(root: Path, files: dict[str, str]):  # type: ignore[no-untyped-def]
    for name, text in files.items():
        path = root / "a" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return Workspace.open(root).agent("a")


def _age(path: Path, seconds: int = 60) -> None:
    """Push a file's mtime into the past so it is not 'racy' (just written)."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - seconds * 1_000_000_000))


def _rows(agent) -> list[tuple[str, int, str]]:  # type: ignore[no-untyped-def]
    conn = sqlite3.connect(index_path(agent.path))
    try:
        return sorted((f.path, b.line, b.text) for f, b in visible_blocks(conn))
    finally:
        conn.close()


def test_first_sync_indexes_every_markdown_file(isolated_env: Path) -> None:
    agent = _agent(
        isolated_env,
        {
            "MEMORY.md": "# Memory\n\n- one\n- two\n",
            "memory/2026-11-28.md": "# 2026-11-28\n\n- walked Knut\n",
            "sessions/x.jsonl": "{}\n",
            ".hidden/NOTES.md": "- secret-ish\n",
        },
    )
    stats = sync_agent(agent)
    assert stats.added == 2 and stats.files == 2
    assert sorted(stats.changed) == ["MEMORY.md", "memory/2026-11-28.md"]
    assert ("memory/2026-11-28.md", 3, "- walked Knut") in _rows(agent)


def test_unchanged_files_are_skipped_by_size_and_mtime(isolated_env: Path) -> None:
    agent = _agent(isolated_env, {"MEMORY.md": "- one\n", "PROFILE.md": "- two\n"})
    for name in ("MEMORY.md", "PROFILE.md"):
        _age(agent.path / name)
    sync_agent(agent)
    again = sync_agent(agent)
    assert again.unchanged == 2 and not again.dirty and again.touched == 0


def test_touched_but_identical_file_is_hashed_not_reindexed(isolated_env: Path) -> None:
    agent = _agent(isolated_env, {"MEMORY.md": "- one\n"})
    sync_agent(agent)
    path = agent.path / "MEMORY.md"
    path.write_text("- one\n", encoding="utf-8")
    _age(path, 5)
    stats = sync_agent(agent)
    assert stats.touched == 1 and not stats.dirty


def test_changed_new_and_deleted_files(isolated_env: Path) -> None:
    agent = _agent(isolated_env, {"MEMORY.md": "- one\n", "memory/2026-01-01.md": "- old\n"})
    sync_agent(agent)
    (agent.path / "MEMORY.md").write_text("- one\n- three\n", encoding="utf-8")
    (agent.path / "memory/2026-01-01.md").unlink()
    (agent.path / "DREAMS.md").write_text("- dreamt\n", encoding="utf-8")
    stats = sync_agent(agent)
    assert stats.updated == 1 and stats.added == 1
    assert stats.removed == ["memory/2026-01-01.md"]
    assert _rows(agent) == [
        ("DREAMS.md", 1, "- dreamt"),
        ("MEMORY.md", 1, "- one"),
        ("MEMORY.md", 2, "- three"),
    ]


def test_same_size_edit_is_caught(isolated_env: Path) -> None:
    agent = _agent(isolated_env, {"MEMORY.md": "- cat\n"})
    sync_agent(agent)
    path = agent.path / "MEMORY.md"
    before = path.stat()
    path.write_text("- dog\n", encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # same size, same mtime
    sync_agent(agent)
    assert _rows(agent) == [("MEMORY.md", 1, "- dog")]


def test_deleting_the_index_rebuilds_the_same_rows(isolated_env: Path) -> None:
    agent = _agent(
        isolated_env,
        {"MEMORY.md": "# M\n\n- a\n- b\n", "owners/user%3Ax/MEMORY.md": "- mine\n"},
    )
    sync_agent(agent)
    before = _rows(agent)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{index_path(agent.path)}{suffix}").unlink(missing_ok=True)
    assert sync_agent(agent).added == 2
    assert _rows(agent) == before
    assert reindex(agent).rebuilt
    assert _rows(agent) == before


def test_corrupt_index_is_rebuilt(isolated_env: Path) -> None:
    agent = _agent(isolated_env, {"MEMORY.md": "- a\n"})
    path = index_path(agent.path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"this is not a database" * 100)
    assert sync_agent(agent).added == 1
    assert _rows(agent) == [("MEMORY.md", 1, "- a")]


def test_newer_schema_is_rebuilt(isolated_env: Path) -> None:
    agent = _agent(isolated_env, {"MEMORY.md": "- a\n"})
    sync_agent(agent)
    conn = sqlite3.connect(index_path(agent.path))
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    assert sync_agent(agent).added == 1
