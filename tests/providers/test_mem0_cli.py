"""`memclaw mem0 status|search|sync` against the fake Mem0 server."""

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope
from providers.fake_mem0 import FakeMem0

SECRET = "sk-" + "abcdefghijklmnopqrstuvwxyz123456"


@pytest.fixture
def configured(isolated_env: Path, mem0: FakeMem0) -> Path:
    (isolated_env / "memclaw.yaml").write_text(
        f"providers:\n  mem0:\n    mode: self-hosted\n    base_url: {mem0.base_url}\n"
        "    api_key: m0-key\n    timeout_ms: 2000\n",
        encoding="utf-8",
    )
    _cli("init", "alpha")
    return isolated_env


def _cli(*args: str, code: int = 0) -> Any:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


def _session(root: Path, owner: str, session_id: str, turns: list[tuple[str, str]]) -> None:
    scope = Scope.resolve(Workspace.open(root).agent("alpha"), owner)
    folder = scope.folder / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for user, answer in turns:
        lines.append({"role": "user", "content": user})
        lines.append({"role": "assistant", "content": answer})
    text = "".join(json.dumps(m) + "\n" for m in lines)
    (folder / f"{session_id}.jsonl").write_text(text, encoding="utf-8")


def test_status_reports_a_reachable_server_and_what_is_unsent(
    configured: Path, mem0: FakeMem0
) -> None:
    _session(configured, "user:maya", "s1", [("I moved to Lisbon.", "Noted.")])
    data = json.loads(_cli("mem0", "status", "alpha", "--json").stdout)
    assert data["reachable"] is True and data["mode"] == "self-hosted"
    assert data["unsent_turns"] == 1 and data["synced_turns"] == 0
    assert mem0.requests[0].headers["x-api-key"] == "m0-key"


def test_status_of_a_down_server_exits_1(configured: Path, mem0: FakeMem0) -> None:
    mem0.fail_status = 503
    data = json.loads(_cli("mem0", "status", "alpha", "--json", code=1).stdout)
    assert data["reachable"] is False and "HTTP 503" in data["error"]


def test_search_needs_an_owner_and_reads_only_that_owners_memory(
    configured: Path, mem0: FakeMem0
) -> None:
    _cli("mem0", "search", "alpha", "lisbon", code=2)
    mem0.add_memory("Maya lives in Lisbon", "user:maya", "alpha")
    mem0.add_memory("Noor lives in Oslo", "user:noor", "alpha")
    found = json.loads(
        _cli("mem0", "search", "alpha", "where", "--owner", "user:maya", "--json").stdout
    )
    assert [m["memory"] for m in found["memories"]] == ["Maya lives in Lisbon"]


def test_sync_backfills_once_resumes_and_skips_what_must_not_go(
    configured: Path, mem0: FakeMem0
) -> None:
    turns = [("I moved to Lisbon.", "Noted."), (f"My key is {SECRET}", "I will not keep it.")]
    _session(configured, "user:maya", "s1", turns)
    _session(configured, "user:maya", "agent:alpha:subagent:9f", [("helper work", "done")])
    _session(configured, "user:maya", "agent:alpha:cron:nightly", [("tick", "ok")])
    team = configured / "alpha" / "sessions"
    team.mkdir(exist_ok=True)
    (team / "t1.jsonl").write_text('{"role": "user", "content": "hi"}\n', encoding="utf-8")

    mem0.fail_status = 500  # the first run stops at the first failure and records nothing
    first = json.loads(_cli("mem0", "sync", "alpha", "--json", code=1).stdout)
    assert first["sent"] == 0 and "HTTP 500" in first["error"]

    mem0.fail_status = 0
    mem0.requests.clear()
    second = json.loads(_cli("mem0", "sync", "alpha", "--json").stdout)
    assert second["sent"] == 2 and len(second["skipped"]) == 3
    added = mem0.posted("/memories")
    assert [a.body["user_id"] for a in added] == ["user:maya", "user:maya"]
    assert all(SECRET not in json.dumps(a.body) for a in added)
    assert [a.body["metadata"]["turn"] for a in added] == [0, 1]

    third = json.loads(_cli("mem0", "sync", "alpha", "--json").stdout)
    assert third["sent"] == 0 and third["already_synced"] == 2
    assert len(mem0.posted("/memories")) == 2
    # A rebuild sends every turn once more; the turns that must not go still do not.
    _cli("mem0", "sync", "alpha", "--again", "--dry-run", code=2)
    again = json.loads(_cli("mem0", "sync", "alpha", "--again", "--json").stdout)
    assert again["sent"] == 2 and again["already_synced"] == 0
    assert len(mem0.posted("/memories")) == 4


def test_a_half_configured_mem0_is_one_clear_error(isolated_env: Path) -> None:
    _cli("init", "alpha")
    result = _cli(
        "--set",
        "mem0_mode=self-hosted",
        "--set",
        "mem0_api_key=k",
        "mem0",
        "status",
        "alpha",
        code=1,
    )
    assert "base_url" in result.output


def test_a_bad_mode_is_refused(isolated_env: Path) -> None:
    (isolated_env / "memclaw.yaml").write_text(
        "providers:\n  mem0:\n    mode: cloud\n", encoding="utf-8"
    )
    result = _cli("config", "show", code=1)
    assert "platform, self-hosted" in result.output
