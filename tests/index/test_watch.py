"""Watch mode: edits, editors' save-by-rename, renames and deletes reach the index."""

import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from memclaw.index import search
from memclaw.index.fresh.marker import marker_path
from memclaw.index.watch import WorkspaceWatcher, is_relevant, run_watch
from memclaw.workspace import Workspace

TIMEOUT = 10.0


def _eventually(check: Callable[[], bool], timeout: float = TIMEOUT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return check()


class Recorder:
    def __init__(self) -> None:
        self.batches: list[set[Path]] = []
        self.lock = threading.Lock()

    def __call__(self, paths: set[Path]) -> None:
        with self.lock:
            self.batches.append(set(paths))

    def seen(self) -> set[Path]:
        with self.lock:
            return set().union(*self.batches) if self.batches else set()


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[tuple[Path, Recorder]]:
    folder = tmp_path / "agent"
    folder.mkdir()
    recorder = Recorder()
    with WorkspaceWatcher([folder], recorder, debounce_ms=50):
        yield folder, recorder


def test_relevance_rules(tmp_path: Path) -> None:
    assert is_relevant(tmp_path / "MEMORY.md", tmp_path)
    assert is_relevant(tmp_path / "memory" / "2026-01-01.md", tmp_path)
    assert not is_relevant(tmp_path / ".memclaw" / "index.sqlite", tmp_path)
    assert not is_relevant(tmp_path / ".MEMORY.md.swp", tmp_path)
    assert not is_relevant(tmp_path / "notes.txt", tmp_path)
    assert not is_relevant(tmp_path.parent / "elsewhere.md", tmp_path)
    assert is_relevant(tmp_path / "memory", tmp_path, is_directory=True)


def test_a_burst_of_edits_is_one_batch(tmp_path: Path) -> None:
    # A window of seconds, not the fixture's 50 ms: on a loaded machine five writes in a
    # row can be more than 50 ms apart, and the burst would rightly be two batches.
    folder, recorder = tmp_path / "agent", Recorder()
    folder.mkdir()
    target = folder / "MEMORY.md"
    with WorkspaceWatcher([folder], recorder, debounce_ms=2000):
        for i in range(5):
            target.write_text(f"- edit {i}\n", encoding="utf-8")
        assert _eventually(lambda: target in recorder.seen())
    assert len(recorder.batches) == 1


def test_atomic_save_reports_the_real_file_not_the_temp(watched: tuple[Path, Recorder]) -> None:
    folder, recorder = watched
    temp = folder / ".MEMORY.md.tmp"
    temp.write_text("- saved by an editor\n", encoding="utf-8")
    os.replace(temp, folder / "MEMORY.md")
    assert _eventually(lambda: folder / "MEMORY.md" in recorder.seen())
    assert temp not in recorder.seen()


def test_renames_deletes_and_ignored_paths(watched: tuple[Path, Recorder]) -> None:
    folder, recorder = watched
    (folder / "A.md").write_text("- a\n", encoding="utf-8")
    assert _eventually(lambda: folder / "A.md" in recorder.seen())
    (folder / "A.md").rename(folder / "B.md")
    assert _eventually(lambda: folder / "B.md" in recorder.seen())
    (folder / "B.md").unlink()
    meta = folder / ".memclaw"
    meta.mkdir()
    (meta / "index.sqlite").write_bytes(b"x")
    (folder / "notes.txt").write_text("x", encoding="utf-8")
    time.sleep(0.3)
    assert all(".memclaw" not in p.parts and p.suffix != ".txt" for p in recorder.seen())


def test_run_watch_keeps_the_index_in_step(isolated_env: Path) -> None:
    agent = isolated_env / "a"
    agent.mkdir()
    (agent / "MEMORY.md").write_text("- the kayak is red\n", encoding="utf-8")
    ws = Workspace.open(isolated_env, overrides={"watch_debounce_ms": 50})
    lines: list[str] = []
    stop = threading.Event()
    thread = threading.Thread(
        target=run_watch, args=(ws, None), kwargs={"report": lines.append, "stop": stop}
    )
    thread.start()
    try:
        assert _eventually(lambda: any(line.startswith("watching") for line in lines))
        assert lines[0] == "indexed a: 1 file"
        assert marker_path(agent).exists()  # searches trust this watcher while it runs

        def found(word: str) -> bool:
            return bool(search(ws, word, sync=False, log=False))

        assert found("kayak")
        (agent / "MEMORY.md").write_text("- the canoe is green\n", encoding="utf-8")
        assert _eventually(lambda: found("canoe") and not found("kayak"))
        temp = agent / ".PROFILE.md.swp"
        temp.write_text("- likes cardamom buns\n", encoding="utf-8")
        os.replace(temp, agent / "PROFILE.md")
        assert _eventually(lambda: found("cardamom"))
        (agent / "PROFILE.md").rename(agent / "NOTES.md")
        assert _eventually(
            lambda: [h.file for h in search(ws, "cardamom", sync=False, log=False)] == ["NOTES.md"]
        )
        (agent / "NOTES.md").unlink()
        assert _eventually(lambda: not found("cardamom"))
        assert any(line.startswith("changed: a/") for line in lines)
        assert any(line.startswith("re-indexed a/") for line in lines)
        assert any("(removed)" in line for line in lines)
    finally:
        stop.set()
        thread.join(timeout=TIMEOUT)
    assert not thread.is_alive()
    assert not marker_path(agent).exists()
