"""The facts table: filled by sync, rebuilt by reindex, read by the trust lookup."""

import sqlite3
from pathlib import Path

from extract.extractkit import make_agent

from memclaw.index import reindex, sync_agent
from memclaw.index.store import index_path


def _rows(agent_path: Path) -> list[tuple[str, int, str]]:
    with sqlite3.connect(index_path(agent_path)) as conn:
        return conn.execute(
            "SELECT files.path, f.line, f.statement FROM facts AS f "
            "JOIN files ON files.id = f.file_id ORDER BY files.path, f.line"
        ).fetchall()


def test_sync_projects_facts_and_follows_edits_and_removals(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    agent.write("MEMORY.md", "# Memory\n- Maya prefers uv\n")
    agent.append_daily("- Standup moved to 09:30")
    sync_agent(agent)
    rows = _rows(agent.path)
    assert ("MEMORY.md", 2, "Maya prefers uv") in rows
    assert any(path.startswith("memory/") and "09:30" in text for path, _, text in rows)
    agent.write("MEMORY.md", "# Memory\n\n- Maya prefers Poetry\n")
    sync_agent(agent)
    assert ("MEMORY.md", 3, "Maya prefers Poetry") in _rows(agent.path)
    assert not any("uv" in text for _, _, text in _rows(agent.path))
    agent.file("MEMORY.md").unlink()
    sync_agent(agent)
    assert not any(path == "MEMORY.md" for path, _, _ in _rows(agent.path))


def test_reindex_rebuilds_the_table_and_an_old_index_gets_one(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    agent.write("MEMORY.md", "# Memory\n- Maya prefers uv\n")
    sync_agent(agent)
    before = _rows(agent.path)
    with sqlite3.connect(index_path(agent.path)) as conn:
        conn.execute("DROP TABLE facts")
        conn.execute("DELETE FROM meta WHERE key = 'facts_format'")
    sync_agent(agent)  # an index from before the table: filled without changing any file
    assert _rows(agent.path) == before
    reindex(agent)
    assert _rows(agent.path) == before
