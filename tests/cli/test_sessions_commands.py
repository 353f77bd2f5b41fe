"""memclaw sessions: list, show and delete stored chat sessions."""

import json
import os
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from memclaw.chat.session import ChatSession
from memclaw.cli.app import app
from memclaw.workspace import Scope, Workspace


def _cli(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=input, catch_exceptions=False)


def _write(folder: Path, sid: str, messages: list[dict[str, Any]], mtime: int) -> Path:
    path = folder / "sessions" / f"{sid}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(m) + "\n" for m in messages), "utf-8")
    os.utime(path, (mtime, mtime))
    return path


TURN = [{"role": "user", "content": "I use uv"}, {"role": "assistant", "content": "Noted."}]


def test_list_newest_first_with_counts(isolated_env: Path) -> None:
    _cli("init", "alpha")
    _write(isolated_env / "alpha", "20261101-080000-aaaa", TURN, 1_700_000_000)
    _write(isolated_env / "alpha", "cron:nightly", TURN[:1], 1_700_000_500)
    (isolated_env / "alpha" / "sessions" / "notes.txt").write_text("not a session")
    result = _cli("sessions", "alpha", "--json")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)["sessions"]
    assert [(r["id"], r["messages"]) for r in rows] == [
        ("cron:nightly", 1),
        ("20261101-080000-aaaa", 2),
    ]
    assert rows[1]["first"].startswith("2026-11-01T08:00:00")
    assert (
        rows[1]["size"]
        == (isolated_env / "alpha/sessions/20261101-080000-aaaa.jsonl").stat().st_size
    )
    table = _cli("sessions", "list", "alpha")
    header, first = table.stdout.splitlines()[:2]
    assert header == "ID\tMESSAGES\tFIRST\tLAST\tSIZE"  # one header row, as `ps` prints
    assert first.startswith("cron:nightly\t1\t")


def test_list_is_per_owner(isolated_env: Path) -> None:
    _cli("init", "alpha")
    maya = Scope.resolve(Workspace.open().agent("alpha"), "user:maya")
    _write(maya.folder, "s-maya", TURN, 1_700_000_000)
    assert json.loads(_cli("sessions", "alpha", "--json").stdout)["sessions"] == []
    mine = json.loads(_cli("sessions", "alpha", "--owner", "user:maya", "--json").stdout)
    assert [r["id"] for r in mine["sessions"]] == ["s-maya"]
    empty = _cli("sessions", "alpha")
    assert empty.exit_code == 0 and "no chat sessions" in empty.stderr


def test_show_prints_roles_and_content_plainly(isolated_env: Path) -> None:
    _cli("init", "alpha")
    _write(isolated_env / "alpha", "s1", TURN, 1_700_000_000)
    result = _cli("sessions", "show", "alpha", "s1")
    assert result.exit_code == 0
    assert result.stdout == "user:\nI use uv\n\nassistant:\nNoted.\n\n"
    data = json.loads(_cli("sessions", "show", "alpha", "s1", "--json").stdout)
    assert data["messages"] == TURN


def test_show_rejects_bad_and_unknown_ids(isolated_env: Path) -> None:
    _cli("init", "alpha")
    bad = _cli("sessions", "show", "alpha", "../MEMORY")
    assert bad.exit_code != 0 and "not valid" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    gone = _cli("sessions", "show", "alpha", "nope")
    assert gone.exit_code != 0 and "no session 'nope'" in gone.stderr


def test_delete_asks_unless_yes(isolated_env: Path) -> None:
    _cli("init", "alpha")
    path = _write(isolated_env / "alpha", "s1", TURN, 1_700_000_000)
    declined = _cli("sessions", "delete", "alpha", "s1", input="n\n")
    assert declined.exit_code == 1 and path.is_file()
    accepted = _cli("sessions", "delete", "alpha", "s1", input="y\n")
    assert accepted.exit_code == 0 and not path.exists()
    other = _write(isolated_env / "alpha", "s2", TURN, 1_700_000_000)
    assert _cli("sessions", "delete", "alpha", "s2", "--yes").exit_code == 0
    assert not other.exists()


def test_delete_refuses_an_open_session(isolated_env: Path) -> None:
    _cli("init", "alpha")
    path = _write(isolated_env / "alpha", "s1", TURN, 1_700_000_000)
    where = Scope.resolve(Workspace.open().agent("alpha"), None)
    with ChatSession.open(where, session_id="s1"):
        busy = _cli("sessions", "delete", "alpha", "s1", "--yes")
    assert busy.exit_code != 0 and "open in a memclaw chat" in busy.stderr
    assert path.is_file()
    assert _cli("sessions", "delete", "alpha", "s1", "--yes").exit_code == 0


def test_sessions_is_in_the_memory_panel(isolated_env: Path) -> None:
    help_text = _cli("--help").stdout
    memory = help_text.index("Memory")
    assert memory < help_text.index("sessions") < help_text.index("Maintenance")
