"""A machine that refuses a write (a full disk, a read-only root): one line, nothing lost.

The first tests inject the refusal in-process; the last runs the commands on a real
small file system (a tmpfs mounted in a user namespace of its own), filled to the brim
and then made read-only.
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.errors import StorageError, storage_refusal


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def files_of(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha1(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*.md"))
        if p.is_file() and ".memclaw" not in p.parts
    }


@pytest.mark.parametrize(
    ("exc", "said"),
    [
        (OSError(errno.ENOSPC, "No space left on device", "/r/a/MEMORY.md"), "no space"),
        (OSError(errno.EROFS, "Read-only file system"), "read-only"),
        (sqlite3.OperationalError("database or disk is full"), "no space"),
        (sqlite3.OperationalError("attempt to write a readonly database"), "read-only"),
    ],
)
def test_a_refusal_is_named_with_what_to_do(exc: BaseException, said: str) -> None:
    refusal = storage_refusal(exc)
    assert isinstance(refusal, StorageError) and said in str(refusal)
    assert "nothing was half-written" in str(refusal) and "\n" not in str(refusal)


@pytest.mark.parametrize(
    "exc",
    [
        FileNotFoundError(errno.ENOENT, "gone"),
        sqlite3.OperationalError("no such table: x"),
        KeyError(),
    ],
)
def test_anything_else_is_not_taken_for_a_full_disk(exc: BaseException) -> None:
    assert storage_refusal(exc) is None


def test_a_full_disk_at_the_write_is_one_line_and_the_file_stays(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("init", "a")[0] == 0
    assert run("remember", "a", "Sam lives in Lisbon")[0] == 0
    before = files_of(isolated_env / "a")

    def full(*_: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    code, stdout, stderr = run("remember", "a", "Sam moved to Porto")
    assert code == 1 and stdout == ""
    assert stderr.startswith("error: no space is left on the device") and stderr.count("\n") == 1
    assert files_of(isolated_env / "a") == before
    assert not list((isolated_env / "a").rglob("*.tmp"))


def test_an_index_that_cannot_be_written_still_answers(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    run("init", "a")
    run("remember", "a", "Sam drinks rooibos tea")
    assert "rooibos" in run("search", "rooibos", "-a", "a")[1]

    def full(_: Path) -> sqlite3.Connection:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr("memclaw.index.sources.open_index", full)
    code, stdout, _ = run("search", "rooibos", "-a", "a")
    assert code == 0 and "rooibos" in stdout
    assert "searched the index as it was" in caplog.text


def test_a_remembered_fact_stands_when_only_the_index_is_refused(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    run("init", "a")

    def full(*_: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    with monkeypatch.context() as refusing:
        refusing.setattr("memclaw.index.sync_agent", full)
        code, stdout, stderr = run("remember", "a", "Sam drinks rooibos tea")
    assert code == 0 and "added" in stdout + stderr
    assert "the next search catches it up" in caplog.text
    assert "rooibos" in run("search", "rooibos", "-a", "a")[1]


# The commands a person runs, each on a disk with no space left and then a read-only one.
SCRIPT = r"""
set -u
mount -t tmpfs -o size=2m tmpfs "$M"
mc() { "$PY" -m memclaw "$@"; }
mc init a >/dev/null && mc remember a "Sam drinks rooibos tea" >/dev/null
notes="$M/root/a/memory"
printf '# Notes\n- Sam likes green tea\n- The standup is at 09:15\n' > "$notes/2026-11-02.md"
printf '# Notes\n- Sam likes green tea\n' > "$notes/2026-11-03.md"
mc search tea -a a >/dev/null && mc export a -o "$OUT/a.zip" >/dev/null
# The memory files (what sits beside them in .memclaw/ may keep a copy of a previous version).
snapshot() {
  (cd "$M/root" && find . -name '*.md' -type f -exec sha1sum {} + | grep -v /.memclaw/ | sort)
}
attempt() {
  for command in "remember a 'Sam moved to Porto'" "files write a MEMORY.md --content '# M'" \
      "search tea -a a" "reindex a" "dream a" "consolidate a" "forget a 'green tea' --yes" \
      "undo a" "import b $OUT/a.zip" "extract a -t $OUT/talk.json --force"; do
    eval "mc $command" >"$OUT/out" 2>"$OUT/err"
    printf '%s\t%s\t%s\n' "$1 $command" "$?" "$(tr '\t\n' '  ' <"$OUT/err")"
  done
}
snapshot > "$OUT/before"
dd if=/dev/zero of="$M/filler" bs=1k count=100000 2>/dev/null
attempt full
snapshot > "$OUT/full"
mount -o remount,ro "$M"
attempt read-only
snapshot > "$OUT/after"
"""


def test_every_command_on_a_real_full_then_read_only_disk(tmp_path: Path) -> None:
    unshare = shutil.which("unshare")
    probe = [unshare, "-Urm", "true"] if unshare else None
    if probe is None or subprocess.run(probe, capture_output=True).returncode != 0:
        pytest.skip("this machine lets no user namespace mount a small file system")
    mount, out = tmp_path / "m", tmp_path / "out"
    mount.mkdir()
    out.mkdir()
    (out / "talk.json").write_text(
        '[{"role": "user", "content": "I moved to Porto and I cycle to work every day."}]'
    )
    env = {
        **os.environ,
        "M": str(mount),
        "OUT": str(out),
        "PY": sys.executable,
        "MEMCLAW_ROOT": str(mount / "root"),
    }
    done = subprocess.run(
        [unshare, "-Urm", "bash", "-c", textwrap.dedent(SCRIPT)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    rows = [line.split("\t") for line in done.stdout.splitlines()]
    assert len(rows) == 20, done.stdout + done.stderr
    for command, code, said in rows:
        assert "Traceback" not in said and "Errno" not in said, (command, said)
        if "search" in command:  # answered from the index it has, saying so
            assert code == "0" and said.startswith("searched the index as it was"), said
        else:  # said once, in the last line: what was refused and what to do
            assert code != "0" and said.count("error: ") == 1, (command, said)
            assert said.split("error: ")[1].split(". ")[0].startswith(("no space", "the ")), said
    # Every memory file is as it was: nothing written, nothing lost or torn.
    before = (out / "before").read_text()
    assert (out / "full").read_text() == before
    assert (out / "after").read_text() == before
