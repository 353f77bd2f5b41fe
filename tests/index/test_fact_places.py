"""Fact places read from the index's own rows agree with projecting the files themselves."""

import sqlite3
from dataclasses import replace
from pathlib import Path

from extract.extractkit import make_agent

from index.schemakit import float32_vectors
from memclaw.facts.model import Place
from memclaw.facts.project import project_scope
from memclaw.index import search, sync_agent
from memclaw.index.facts.places import Places
from memclaw.index.store import index_path, open_index
from memclaw.workspace import Agent
from memclaw.workspace.scope import Scope

ENTRY = (
    "## m-1a2b3c4d\n"
    "Maya prefers uv over Poetry\n"
    "for every new project.\n"
    "\n"
    "- category: preference\n"
    "- created: 2026-11-20\n"
    "- updated: 2026-11-28\n"
)


def _workspace(agent: Agent) -> None:
    agent.write("MEMORY.md", "# Memory\n## Tools\n- Maya prefers uv\n- The CI runs on Fridays\n")
    agent.write("memory/2026-11-02.md", "# 2026-11-02\n- [preference] Maya prefers uv\n")
    agent.write("memory/2026-11-05.md", "# 2026-11-05\n\nWe talked.\n- Maya prefers uv\n")
    agent.write("memory/2026-11-06.md", "# 2026-11-06\n- Maya prefers uv and tea\n")
    agent.write("entries/preference.md", ENTRY)
    # The same words in an owner's folder are another scope's fact: never one of these places.
    agent.write("owners/bo/MEMORY.md", "# Memory\n- Maya prefers uv\n")
    sync_agent(agent)


def _key(p: Place) -> tuple[str, int, str, object, str]:
    return (p.path, p.line, p.statement, p.day, p.author)


def test_every_place_found_through_the_index_is_every_place_the_files_state(
    tmp_path: Path,
) -> None:
    agent = make_agent(tmp_path)
    _workspace(agent)
    truth = project_scope(Scope(agent))
    conn = open_index(agent.path)
    try:
        places = Places(conn, agent)
        for seen in truth:
            found = places.everywhere(replace(seen, category=""))
            expected = [p for p in truth if p.fact == seen.fact]
            assert sorted(map(_key, found)) == sorted(map(_key, expected)), seen.statement
        uv = next(p for p in truth if p.statement == "Maya prefers uv")
        assert {p.path for p in places.everywhere(uv)} == {
            "MEMORY.md",
            "memory/2026-11-02.md",
            "memory/2026-11-05.md",
        }
    finally:
        conn.close()


def test_the_facts_on_a_block_are_its_own_lines_and_an_entry_is_read_whole(
    tmp_path: Path,
) -> None:
    agent = make_agent(tmp_path)
    _workspace(agent)
    conn = open_index(agent.path)
    try:
        places = Places(conn, agent)
        on_memory = places.on_block("MEMORY.md", 4, 4, "- The CI runs on Fridays")
        assert [(p.line, p.statement) for p in on_memory] == [(4, "The CI runs on Fridays")]
        tagged = places.on_block("memory/2026-11-02.md", 2, 2, "- [preference] Maya prefers uv")
        assert [p.statement for p in tagged] == ["Maya prefers uv"]
        entry = places.on_block("entries/preference.md", 2, 3, "Maya prefers uv over Poetry")
        assert [p.statement for p in entry] == [
            "Maya prefers uv over Poetry for every new project."
        ]
        assert places.on_block("notes/todo.md", 1, 1, "- not a memory file") == []
    finally:
        conn.close()


def test_an_index_with_the_old_facts_table_loses_it_and_gives_the_pages_back(
    tmp_path: Path,
) -> None:
    agent = make_agent(tmp_path)
    _workspace(agent)
    path = index_path(agent.path)
    with sqlite3.connect(path) as old:
        old.execute("CREATE TABLE facts (file_id INTEGER, fact TEXT, statement TEXT)")
        old.executemany("INSERT INTO facts VALUES (1, 'f00000000', ?)", [("x" * 500,)] * 2000)
        old.execute("INSERT INTO meta VALUES ('facts_format', 'facts-1')")
        old.execute("DROP TABLE packs")  # as before schema 6 (and 5)
        old.execute("DROP INDEX files_first")
        old.execute("CREATE TABLE blocks (id INTEGER PRIMARY KEY)")
        float32_vectors(old, [])  # as before schema 7
        old.execute("PRAGMA user_version = 3")
    with sqlite3.connect(path) as old:
        old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    grown = path.stat().st_size
    conn = open_index(agent.path)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert "facts" not in tables
        assert conn.execute("SELECT value FROM meta WHERE key = 'facts_format'").fetchone() is None
    finally:
        conn.close()
    assert path.stat().st_size < grown / 2
    assert sync_agent(agent).rebuilt  # schemas 5 and 6 store blocks anew: rebuilt from the files
    assert search(agent.workspace, "Fridays", agents=[agent.id], log=False)
