"""kill -9 anywhere in dream, extract, forget, undo and import: nothing a person wrote is lost.

Each run of a command is killed at its Nth flush or rename (every write memclaw
makes to a file has one), for N spread over all of them the command makes.
After every kill each line a person wrote is still there, everything beside the
files reads back whole (`doctor`'s state check), and running the command again
completes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.doctor.checks import check_state
from memclaw.doctor.report import Status
from memclaw.entries.memories import remember
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope

PROFILE = "# Profile\n\n- Maya Lindqvist lives in Majorna, Gothenburg.\n- Maya's dog is Knut.\n"
MEMORY = "# Memory\n\n- Standups are at 09:30.\n- The staging box runs Debian 12.\n"
PERSON = [line for line in (PROFILE + MEMORY).splitlines() if line.startswith("- ")]
TRANSCRIPT = [
    {"role": "user", "content": "I'm Maya. We decided to move CI from Jenkins to GitHub Actions."},
    {"role": "assistant", "content": "Noted."},
    {"role": "user", "content": "Also, the launch of Bluebird is on 2026-06-12."},
    {"role": "assistant", "content": "Noted: Bluebird launches on 2026-06-12."},
]
# Runs the CLI, killed (exit 9) at its Nth flush or rename; N = 0 only counts them.
KILLED = textwrap.dedent(
    """
    import os, sys
    after, count_to = int(sys.argv[1]), sys.argv[2]
    seen = [0]

    def dying(real):
        def call(*args, **kwargs):
            seen[0] += 1
            if seen[0] == after:
                os._exit(9)
            return real(*args, **kwargs)
        return call

    # Every write memclaw makes is flushed (fsync) and most are then renamed into place.
    os.fsync, os.replace = dying(os.fsync), dying(os.replace)
    from memclaw.cli.app import app
    try:
        app(sys.argv[3:], prog_name="memclaw")
    finally:
        open(count_to, "w").write(str(seen[0]))
    """
)
COMMANDS = {
    "dream": ["dream", "demo"],
    "extract": ["extract", "demo", "--session", "s-1"],
    "forget": ["forget", "demo", "bee colonies", "--yes"],
    "undo": ["undo", "demo"],
    "import": ["import", "demo", "{backup}"],
}


def prepared(root: Path) -> Path:
    """A root whose agent has a person's lines, notes, a chat, a fact and a backup."""
    ws = Workspace.open(root, env={})
    agent, _ = ws.init_agent("demo")
    (agent.path / "PROFILE.md").write_text(PROFILE, encoding="utf-8")  # typed by the person
    (agent.path / "MEMORY.md").write_text(MEMORY, encoding="utf-8")
    today = agent.now().date()
    agent.append_daily("- Maya moved CI to GitHub Actions.\n- Knut had his vaccination.", day=today)
    sessions = agent.path / "sessions"
    sessions.mkdir()
    lines = "".join(json.dumps(m) + "\n" for m in TRANSCRIPT)
    (sessions / "s-1.jsonl").write_text(lines, encoding="utf-8")
    backup = ["--root", str(root), "export", "demo", "-o", str(root.parent / "backup.zip")]
    assert CliRunner().invoke(app, backup).exit_code == 0
    remember(Scope(agent), "Rafael's bee colonies are called Ada and Grace")
    agent.append_daily("- Jonas signs off the cutover.", day=today)  # the backup predates it
    return root


def run(root: Path, name: str, after: int) -> tuple[int, int]:
    """(exit status, flushes and renames made) of one command, killed at the ``after``th."""
    count = root.parent / "count"
    count.unlink(missing_ok=True)
    args = [a.format(backup=root.parent / "backup.zip") for a in COMMANDS[name]]
    env = {**os.environ, "MEMCLAW_ROOT": str(root), "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-c", KILLED, str(after), str(count), *args],
        env=env,
        capture_output=True,
        check=False,
    )
    said = done.stderr.decode()
    # A forget run again after a kill may find the fact gone from everywhere already.
    finished = name == "forget" and done.returncode == 2 and "nothing in demo matches" in said
    assert done.returncode in (0, 9) or finished, said
    return done.returncode, int(count.read_text()) if count.exists() else after


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_kill_at_any_write_loses_nothing_a_person_wrote(tmp_path: Path, name: str) -> None:
    template = prepared(tmp_path / "template" / "ws")
    probe = tmp_path / "probe" / "ws"
    shutil.copytree(template.parent, probe.parent)
    code, total = run(probe, name, 0)
    assert code == 0 and total >= 1, (name, code, total)
    # Ten kill points spread over the command's writes (all of them when fewer).
    points = sorted({1 + (total - 1) * k // 9 for k in range(10)})
    for after in points:
        where = tmp_path / f"kill-{after}" / "ws"
        shutil.copytree(template.parent, where.parent)
        code, _ = run(where, name, after)
        assert code == 9, (name, after, code)
        agent = Workspace.open(where, env={}).agent("demo")
        text = agent.read("PROFILE.md") + agent.read("MEMORY.md")
        lost = [line for line in PERSON if line not in text.splitlines()]
        assert not lost, f"{name} killed at write {after} of {total} lost {lost}"
        state = check_state(Workspace.open(where, env={}))
        assert state.status is not Status.FAIL, (name, after, state)
        run(where, name, 0)  # the same command again completes (it asserts so)
        text = agent.read("PROFILE.md") + agent.read("MEMORY.md")
        assert not [line for line in PERSON if line not in text.splitlines()]
