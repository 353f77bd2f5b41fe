"""Concurrency: eight processes append to one daily note while a ninth rewrites MEMORY.md.

Every process is a separate interpreter (``python -c``), as separate CLI runs would be. The
root lives on tmpfs when there is one: this test is about locking, not about disk speed.
"""

import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memclaw.workspace import Workspace
from memclaw.workspace.safeguards import history

WORKERS = 8
ENTRIES = 200
PAYLOAD = 120  # long enough that a torn or interleaved write would show

APPENDER = """
import sys
from datetime import date
from memclaw.workspace import Workspace
from memclaw.workspace.safeguards import history

root, worker, entries, payload = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
agent = Workspace.open(root).agent("alpha")
print("ready", flush=True)
sys.stdin.readline()  # start together
for i in range(entries):
    tag = f"w{worker:02d}-{i:03d}"
    agent.append_daily(f"- entry {tag} " + "x" * payload + f" end {tag}", day=date(2026, 11, 29))
"""

REWRITER = """
import sys
from pathlib import Path
from memclaw.workspace import Workspace
from memclaw.workspace.safeguards import history

root = sys.argv[1]
agent = Workspace.open(root).agent("alpha")
stop = Path(root) / "stop"
print("ready", flush=True)
sys.stdin.readline()
count = 0
while not stop.exists() or count < 5:
    body = "".join(f"- fact {count % 16}.{n}\\n" for n in range(150))
    agent.write("MEMORY.md", f"# Memory\\n\\n## Version {count % 16}\\n\\n" + body)
    count += 1
print(count, flush=True)
"""


def version(k: int) -> str:
    body = "".join(f"- fact {k}.{n}\n" for n in range(150))
    return f"# Memory\n\n## Version {k}\n\n{body}"


@pytest.fixture
def fast_root(isolated_env: Path) -> Iterator[Path]:
    base = Path("/dev/shm") if Path("/dev/shm").is_dir() else isolated_env.parent
    folder = Path(tempfile.mkdtemp(prefix="memclaw-concurrency-", dir=base))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _spawn(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_parallel_appends_and_rewrites(fast_root: Path) -> None:
    ws = Workspace.open(fast_root)
    agent, _ = ws.init_agent("alpha")
    seeded = agent.read("MEMORY.md")
    allowed = {seeded, *(version(k) for k in range(16))}

    rewriter = _spawn(REWRITER, str(fast_root))
    appenders = [
        _spawn(APPENDER, str(fast_root), str(w), str(ENTRIES), str(PAYLOAD)) for w in range(WORKERS)
    ]
    processes = [rewriter, *appenders]
    try:
        for proc in processes:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        for proc in processes:  # release them all at once
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()

        memory = agent.path / "MEMORY.md"
        seen: set[str] = set()
        while any(p.poll() is None for p in appenders):
            text = memory.read_text(encoding="utf-8")
            assert text in allowed, "a reader saw a MEMORY.md that was never written"
            seen.add(text)
            time.sleep(0.002)
        (fast_root / "stop").touch()
        out, err = rewriter.communicate(timeout=60)
        assert rewriter.returncode == 0, err
        assert int(out.split()[-1]) >= 5
        for proc in appenders:
            _, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err
    finally:
        for proc in processes:
            if proc.poll() is None:
                proc.kill()
                proc.wait()

    assert agent.read("MEMORY.md") in allowed
    assert len(seen) >= 1

    note = (agent.path / "memory" / "2026-11-29.md").read_text(encoding="utf-8")
    assert note.startswith("# 2026-11-29\n\n")
    lines = [line for line in note.splitlines()[1:] if line]
    assert len(lines) == WORKERS * ENTRIES
    pattern = re.compile(rf"- entry (w\d\d-\d\d\d) x{{{PAYLOAD}}} end \1")
    tags = []
    for line in lines:
        found = pattern.fullmatch(line)
        assert found, f"torn or interleaved entry: {line[:80]!r}"
        tags.append(found.group(1))
    expected = {f"w{w:02d}-{i:03d}" for w in range(WORKERS) for i in range(ENTRIES)}
    assert len(tags) == len(set(tags)) == len(expected)
    assert set(tags) == expected
    # each process's own entries keep their order
    for w in range(WORKERS):
        mine = [t for t in tags if t.startswith(f"w{w:02d}-")]
        assert mine == sorted(mine)
    # the structure is exact: heading, then one blank line before every entry
    assert note == "# 2026-11-29\n" + "".join(f"\n{line}\n" for line in lines)
    # every kept previous version of MEMORY.md is one that was written
    for old in history.versions(agent, "MEMORY.md"):
        assert history.read(agent, old) in allowed
