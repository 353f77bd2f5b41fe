"""An import killed at any point leaves the agent as it was, or fully imported after recovery.

Each test runs a real ``memclaw import`` in a subprocess that the library's test hook
(MEMCLAW_TEST_CRASH_AFTER) kills with os._exit at one exact point.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memclaw.snapshot import import_snapshot, read_snapshot, recover
from memclaw.workspace import Workspace
from memclaw.workspace.safeguards import history

from .helpers import make_agent, snapshot_zip, tree

OLD = {"MEMORY.md": "# Memory\nold\n", "PROFILE.md": "# Profile\nold\n", "SOUL.md": "# Soul\n"}
NEW = {
    "MEMORY.md": b"# Memory\nnew\n",
    "PROFILE.md": b"# Profile\nnew\n",
    "SOUL.md": b"# Soul\n",
    "memory/2026-11-20.md": b"# 2026-11-20\nnew day\n",
}
CRASHED = 70


def memclaw(root: Path, *args: str, crash: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("MEMCLAW_TEST_CRASH_AFTER", None)
    if crash:
        env["MEMCLAW_TEST_CRASH_AFTER"] = crash
    return subprocess.run(
        [sys.executable, "-m", "memclaw", "--root", str(root), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def snap(tmp_path: Path) -> Path:
    path = tmp_path / "snap.zip"
    path.write_bytes(snapshot_zip(NEW))
    return path


def expected(folder: Path) -> dict[str, bytes]:
    return {**tree(folder), **NEW}


def meta_leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in (folder / ".memclaw").glob("import-*"))


def test_killed_while_staging_leaves_the_agent_untouched(ws: Workspace, snap: Path) -> None:
    folder = make_agent(ws, "dst", OLD)
    before = tree(folder)
    proc = memclaw(ws.root, "import", "dst", str(snap), crash="staging")
    assert proc.returncode == CRASHED, proc.stderr
    assert tree(folder) == before
    assert [name.startswith("import-staging-") for name in meta_leftovers(folder)] == [True]
    # Nothing was committed, so recovery only sweeps the orphaned staging folder.
    assert recover(ws, "dst") == []
    assert tree(folder) == before and meta_leftovers(folder) == []


@pytest.mark.parametrize("point", ["journal", "swap:1", "swap:2"])
def test_killed_after_commit_is_rolled_forward(ws: Workspace, snap: Path, point: str) -> None:
    folder = make_agent(ws, "dst", OLD)
    want = expected(folder)
    proc = memclaw(ws.root, "import", "dst", str(snap), crash=point)
    assert proc.returncode == CRASHED, proc.stderr
    assert "import-journal.json" in meta_leftovers(folder)
    if point == "journal":
        assert tree(folder) == {k: v.encode() for k, v in OLD.items()}
    finished = recover(ws, "dst")
    assert len(finished) == 3 - int(point.partition(":")[2] or 0)
    assert tree(folder) == want
    assert meta_leftovers(folder) == []
    agent = ws.agent("dst")
    for name in ("MEMORY.md", "PROFILE.md"):
        assert history.read(agent, history.versions(agent, name)[0]) == OLD[name]


def test_the_next_import_finishes_the_interrupted_one(
    ws: Workspace, snap: Path, tmp_path: Path
) -> None:
    folder = make_agent(ws, "dst", OLD)
    want = expected(folder)
    assert memclaw(ws.root, "import", "dst", str(snap), crash="swap:1").returncode == CRASHED
    # Even a zip that is rejected lets the CLI finish the pending import first.
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip")
    proc = memclaw(ws.root, "import", "dst", str(bad))
    assert proc.returncode == 1
    assert "finished an interrupted import" in proc.stderr
    assert tree(folder) == want and meta_leftovers(folder) == []


def test_a_new_agent_appears_whole_or_not_at_all(ws: Workspace, snap: Path) -> None:
    proc = memclaw(ws.root, "import", "fresh", str(snap), crash="staging")
    assert proc.returncode == CRASHED, proc.stderr
    assert not (ws.root / "fresh").exists()
    assert ws.agent_ids() == []
    assert len(list(ws.root.glob(".import-fresh-*"))) == 1
    import_snapshot(ws, "fresh", read_snapshot(snap.read_bytes()))
    assert list(ws.root.glob(".import-*")) == []
    assert {k: v for k, v in tree(ws.root / "fresh").items() if k in NEW} == NEW


def test_a_damaged_journal_is_reported_not_guessed(ws: Workspace) -> None:
    from memclaw.errors import SnapshotError

    folder = make_agent(ws, "dst", OLD)
    (folder / ".memclaw" / "import-journal.json").write_text("{half a journal")
    with pytest.raises(SnapshotError, match="damaged"):
        recover(ws, "dst")
    assert tree(folder) == {k: v.encode() for k, v in OLD.items()}
