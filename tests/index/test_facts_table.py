"""The facts table: filled by sync, rebuilt by reindex, read by the trust lookup."""

import sqlite3
from pathlib import Path

import pytest
from extract.extractkit import make_agent

from memclaw.entries.memories import remember
from memclaw.facts.feedback import give
from memclaw.index import reindex, sync_agent
from memclaw.index.facts.trust import trust_lookup
from memclaw.index.store import index_path
from memclaw.workspace.scope import Scope


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


def test_trust_lookup_by_line_and_id_is_computed_when_read(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    scope = Scope(agent)
    remember(scope, "Maya prefers uv")
    agent.write("MEMORY.md", "# Memory\n- Project Atlas ships in December\n")
    lookup = trust_lookup(agent)
    assert lookup.at("MEMORY.md", 2) == pytest.approx(0.7)
    assert lookup.at("MEMORY.md", 1) is None and lookup.at("nowhere.md", 1) is None
    fact = give(scope, "Atlas ships", good=False)
    after = trust_lookup(agent)
    assert after.of(fact.id) == pytest.approx(fact.trust) and fact.trust < 0.2
    assert after.at("MEMORY.md", 1, 2) == pytest.approx(fact.trust)  # a block spanning lines
