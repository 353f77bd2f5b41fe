"""A damaged index (zeroed pages, cut short, random bytes) is moved aside and rebuilt."""

import importlib
import json
import logging
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from index.damagekit import KINDS, corrupt_copies, damage, filler
from memclaw.cli.app import app
from memclaw.errors import WorkspaceError
from memclaw.index import Searcher, search, sync_agent, sync_global
from memclaw.index import damage as damage_mod
from memclaw.index.store import index_path
from memclaw.workspace import Workspace

NEEDLE = "kayaks need a permit in the Fjordby harbour"


def _workspace(root: Path) -> Workspace:
    for rel, text in {**filler(), "MEMORY.md": f"# Memory\n\n- {NEEDLE}\n"}.items():
        for base in (root / "a", root / "_global"):
            path = base / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    ws = Workspace.open(root)
    sync_agent(ws.agent("a"))
    sync_global(ws)
    return ws


def _found(ws: Workspace) -> list[tuple[str, str, int]]:
    return [(h.agent, h.file, h.line) for h in search(ws, "Fjordby harbour permit", log=False)]


def _warned(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "was damaged" in r.getMessage()]


@pytest.fixture
def ws(isolated_env: Path) -> Workspace:
    return _workspace(isolated_env)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("which", ["a", "_global"])
def test_search_heals_a_damaged_index(
    ws: Workspace, kind: str, which: str, caplog: pytest.LogCaptureFixture
) -> None:
    before = _found(ws)
    assert ("a", "MEMORY.md", 3) in before and ("_global", "MEMORY.md", 3) in before
    path = index_path(ws.root / which)
    damage(path, kind)
    with caplog.at_level(logging.WARNING):
        assert _found(ws) == before
    assert len(_warned(caplog)) == 1 and str(path) in _warned(caplog)[0]
    assert len(corrupt_copies(path)) == 1
    assert _found(ws) == before  # and the rebuilt index is sound
    assert len(_warned(caplog)) == 1


@pytest.mark.parametrize("kind", KINDS)
def test_cli_search_and_reindex_heal_every_index(
    ws: Workspace, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    before = _found(ws)
    runner = CliRunner()
    for which in ("a", "_global"):
        damage(index_path(ws.root / which), kind)
    with caplog.at_level(logging.WARNING):
        result = runner.invoke(app, ["search", "Fjordby", "--json"], catch_exceptions=False)
    assert result.exit_code == 0
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert {(r["agent"], r["file"]) for r in rows if NEEDLE in r["text"]} == {
        ("a", "MEMORY.md"),
        ("_global", "MEMORY.md"),
    }
    assert len(_warned(caplog)) == 2
    caplog.clear()
    for which in ("a", "_global"):
        damage(index_path(ws.root / which), kind)
    with caplog.at_level(logging.WARNING):
        result = runner.invoke(app, ["reindex", "--all", "--json"], catch_exceptions=False)
    assert result.exit_code == 0 and '"index": "_global"' in result.stdout
    assert len(_warned(caplog)) == 2
    assert _found(ws) == before


def test_reindex_finds_damage_a_query_would_miss(
    ws: Workspace, caplog: pytest.LogCaptureFixture
) -> None:
    """Zeroed pages deep in the full-text index: quick_check sees them before the rebuild."""
    path = index_path(ws.root / "a")
    size = path.stat().st_size
    with open(path, "r+b") as handle:
        handle.seek(size - 8 * 4096)
        handle.write(b"\0" * 4096 * 4)
    with caplog.at_level(logging.WARNING):
        result = CliRunner().invoke(app, ["reindex", "a"], catch_exceptions=False)
    assert result.exit_code == 0
    assert _warned(caplog) and corrupt_copies(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
    conn.close()


def test_the_cli_says_so_on_stderr_in_one_line(ws: Workspace) -> None:
    damage(index_path(ws.root / "a"), "zeroed")
    done = subprocess.run(
        [sys.executable, "-m", "memclaw", "search", "Fjordby", "--agent", "a"],
        capture_output=True,
        text=True,
        check=False,
        env={"MEMCLAW_ROOT": str(ws.root), "PATH": "/usr/bin:/bin", "NO_COLOR": "1"},
    )
    assert done.returncode == 0 and "a/MEMORY.md:3:" in done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "was damaged" in lines[0] and "rebuilt it from the files" in lines[0]


def test_a_long_lived_searcher_heals_and_keeps_searching(ws: Workspace) -> None:
    with Searcher(ws) as searcher:
        before = searcher.search("Fjordby", agents=["a"], log=False)
        searcher.close()  # the chat keeps its searcher; its indexes reopen on the next search
        damage(index_path(ws.root / "a"), "zeroed")
        assert searcher.search("Fjordby", agents=["a"], log=False) == before


def test_at_most_two_damaged_copies_are_kept(ws: Workspace) -> None:
    path = index_path(ws.root / "a")
    for n in range(4):  # within one second or not: names stay distinct
        damage(path, "random")
        assert _found(ws)
        assert len(corrupt_copies(path)) == min(n + 1, 2)
    assert len(corrupt_copies(path)) == 2


def test_a_busy_index_is_not_mistaken_for_damage(ws: Workspace) -> None:
    path = index_path(ws.root / "a")
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    busy = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with pytest.raises(sqlite3.OperationalError) as caught:
            busy.execute("BEGIN IMMEDIATE")
    finally:
        busy.close()
        blocker.execute("ROLLBACK")
        blocker.close()
    assert not damage_mod.is_damage(caught.value)
    damage(path, "zeroed")
    broken = sqlite3.connect(path)
    with pytest.raises(sqlite3.DatabaseError) as caught:
        broken.execute("SELECT * FROM meta").fetchall()
    broken.close()
    assert damage_mod.is_damage(caught.value)


def test_damage_that_comes_back_after_a_rebuild_is_one_clear_error(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    search_mod = importlib.import_module("memclaw.index.search")

    def broken(*args: object, **kwargs: object) -> None:
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(search_mod, "keyword_candidates", broken)
    with pytest.raises(WorkspaceError, match="damaged again right after a rebuild"):
        search(ws, "Fjordby", agents=["a"], log=False)
    assert len(corrupt_copies(index_path(ws.root / "a"))) == 1  # the rebuilt one stays


def test_a_pack_that_does_not_unpack_is_damage_and_heals(
    ws: Workspace, caplog: pytest.LogCaptureFixture
) -> None:
    before = _found(ws)
    path = index_path(ws.root / "a")
    with sqlite3.connect(path) as conn:  # valid pages, garbage where a file's blocks were
        conn.execute("UPDATE packs SET data = randomblob(length(data))")
    conn.close()
    with caplog.at_level(logging.WARNING):
        assert _found(ws) == before
    assert len(_warned(caplog)) == 1 and len(corrupt_copies(path)) == 1
