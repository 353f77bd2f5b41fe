"""`memclaw forget` with Mem0 on: Mem0's copy goes too, by id, on both of Mem0's APIs."""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from providers.fake_mem0 import FakeMem0, start_fake_mem0
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.workspace import ledger

OWNER = "user:maya"


@pytest.fixture
def mem0() -> Iterator[FakeMem0]:
    fake = start_fake_mem0()
    yield fake
    fake.close()


def _configure(root: Path, mem0: FakeMem0, mode: str = "self-hosted") -> None:
    (root / "memclaw.yaml").write_text(
        f"providers:\n  mem0:\n    mode: {mode}\n    base_url: {mem0.base_url}\n"
        "    api_key: m0-key\n    timeout_ms: 2000\n",
        encoding="utf-8",
    )


def _cli(*args: str, code: int = 0) -> Any:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


@pytest.fixture
def planted(isolated_env: Path, mem0: FakeMem0) -> Path:
    """Maya's pregnancy in memclaw and in Mem0, beside facts a forget must leave alone."""
    _configure(isolated_env, mem0)
    _cli("init", "alpha")
    _cli("remember", "alpha", "Maya is pregnant, due in May", "--owner", OWNER)
    _cli("remember", "alpha", "Maya lives in Lisbon", "--owner", OWNER)
    mem0.add_memory("Maya is pregnant, the baby is due in May", OWNER, "alpha")  # m0
    mem0.add_memory("Lives in Lisbon", OWNER, "alpha")  # m1: a search answer, not the fact
    mem0.add_memory("Is pregnant with twins", "user:noor", "alpha")  # m2: another person
    mem0.add_memory("Maya is pregnant", OWNER, "researcher")  # m3: another agent
    return isolated_env


def _state(root: Path) -> str:
    return json.dumps(ledger.load(root / "alpha" / ".memclaw", "mem0-forgotten")[0])


def test_forget_deletes_the_matching_mem0_memory_by_id_and_only_it(
    planted: Path, mem0: FakeMem0
) -> None:
    result = _cli("forget", "alpha", "pregnant", "--owner", OWNER, "--yes")
    assert "also deleted 1 Mem0 memories" in result.stderr
    assert mem0.deleted() == ["/memories/m0"]
    search = mem0.posted("/search")[0]
    assert search.body["filters"] == {"user_id": OWNER, "agent_id": "alpha"}
    assert search.headers["x-api-key"] == "m0-key"
    assert sorted(m["id"] for m in mem0.memories) == ["m1", "m2", "m3"]
    # Ids only: the record names what went, never what it said.
    state = _state(planted)
    assert '"m0"' in state and "pregnan" not in state.lower()


def test_forget_by_id_on_the_platform_api(planted: Path, mem0: FakeMem0) -> None:
    _configure(planted, mem0, mode="platform")
    plan = json.loads(
        _cli("forget", "alpha", "pregnant", "--owner", OWNER, "--dry-run", "--json").stdout
    )
    fact_id = plan["facts"][0]["id"]
    data = json.loads(_cli("forget", "alpha", fact_id, "--owner", OWNER, "--yes", "--json").stdout)
    assert data["mem0"] == {"deleted": 1, "error": None}
    assert mem0.deleted() == ["/v1/memories/m0/"]
    delete = next(r for r in mem0.requests if r.method == "DELETE")
    assert delete.headers["authorization"] == "Token m0-key"
    search = mem0.posted("/v3/memories/search/")[0]
    assert search.body["filters"] == {"AND": [{"user_id": OWNER}, {"agent_id": "alpha"}]}


def test_a_down_mem0_fails_one_line_and_mem0_sync_finishes_the_delete(
    planted: Path, mem0: FakeMem0
) -> None:
    mem0.fail_status = 503
    result = _cli("forget", "alpha", "pregnant", "--owner", OWNER, "--yes")
    # The local forget is complete all the same.
    assert "forgot 1 fact" in result.stderr
    _cli("forget", "alpha", "pregnant", "--owner", OWNER, "--dry-run", code=2)
    line = next(x for x in result.stderr.splitlines() if "Mem0" in x)
    assert "HTTP 503" in line and "memclaw mem0 sync alpha" in line
    assert len(mem0.memories) == 4
    mem0.fail_status = 0
    status = json.loads(_cli("mem0", "status", "alpha", "--json").stdout)
    assert status["forgets_pending"] == 1
    synced = _cli("mem0", "sync", "alpha")
    assert "deleted 1 forgotten Mem0 memories" in synced.stderr
    assert mem0.deleted() == ["/memories/m0"]
    assert json.loads(_state(planted))["pending"] == []
    # Done is done: a second sync deletes nothing more.
    _cli("mem0", "sync", "alpha")
    assert mem0.deleted() == ["/memories/m0"]


def test_without_mem0_forget_says_nothing_of_it(isolated_env: Path) -> None:
    _cli("init", "alpha")
    _cli("remember", "alpha", "Maya is pregnant, due in May", "--owner", OWNER)
    result = _cli("forget", "alpha", "pregnant", "--owner", OWNER, "--yes", "--json")
    assert json.loads(result.stdout)["mem0"] is None
    assert "Mem0" not in result.stderr


def test_the_morning_cards_forget_deletes_in_mem0_and_says_so(
    isolated_env: Path, mem0: FakeMem0
) -> None:
    from datetime import datetime, timedelta

    from memclaw.dream.run import dream_agent
    from memclaw.morning.card import latest, review
    from memclaw.workspace import Workspace
    from memclaw.workspace.scope import Scope

    now = datetime.fromisoformat("2026-11-29T10:30:00+01:00")
    train = "The release train leaves every Sunday"
    settings = {"mem0_mode": "self-hosted", "mem0_base_url": mem0.base_url}
    agent, _ = Workspace.open(isolated_env, overrides=settings, clock=lambda: now).init_agent("pal")
    scope = Scope.resolve(agent, OWNER)
    for back in (1, 2):
        scope.append_daily(f"- {train}.", day=now.date() - timedelta(days=back))
    assert str(dream_agent(scope, model=None).status) == "updated"
    mem0.add_memory("The release train leaves every Sunday", OWNER, "pal")
    card = latest(scope)
    assert card is not None
    fid = next(i["fact"] for i in card.items("promoted") if train in i["text"])
    done = review(scope, card, forget=[fid])
    assert done.outcomes[0].note == "also deleted 1 Mem0 memories"
    assert mem0.deleted() == ["/memories/m0"] and mem0.memories == []
