"""The job runner: retries, time limits, failures kept apart, shards and the summary line."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.errors import UsageError, WorkspaceError
from memclaw.jobs.batch import Target
from memclaw.jobs.runner import JOBS_LOG, Shard, run_jobs
from memclaw.workspace import Workspace, ledger

HELLO: list[dict[str, Any]] = [{"role": "user", "content": "hello"}]


def chat_twice(ws: Workspace, target: Target, model: Any) -> str:
    """A job with two model calls: the second must wait for the first."""
    if target.agent == "broken":
        raise WorkspaceError("broken: MEMORY.md is not UTF-8")
    return model.chat(HELLO).text + model.chat(HELLO).text


def model_ws(root: Path, server: FakeOpenAI, **overrides: Any) -> Workspace:
    values = {"base_url": server.base_url, "max_retries": 0, "job_retries": 2, **overrides}
    return Workspace.open(root, env={}, overrides=values)


def test_a_model_error_is_retried_and_a_bad_key_is_not(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    ws = model_ws(isolated_env, fake_openai)
    fake_openai.queue_error(503, "overloaded")
    summary = run_jobs(ws, "test", [Target("a")], chat_twice, workers=1)
    (outcome,) = summary.outcomes
    assert outcome.ok and outcome.result == "okok" and outcome.attempts == 2

    fake_openai.reset()
    fake_openai.queue_error(401, "bad key")
    (outcome,) = run_jobs(ws, "test", [Target("a")], chat_twice, workers=1).outcomes
    assert not outcome.ok and outcome.attempts == 1 and "API key" in (outcome.error or "")
    assert len(fake_openai.chat_requests()) == 1


def test_retries_stop_at_job_retries(isolated_env: Path, fake_openai: FakeOpenAI) -> None:
    ws = model_ws(isolated_env, fake_openai, job_retries=1)
    for _ in range(3):
        fake_openai.queue_error(500, "down")
    (outcome,) = run_jobs(ws, "test", [Target("a")], chat_twice, workers=1).outcomes
    assert not outcome.ok and outcome.attempts == 2
    assert len(fake_openai.chat_requests()) == 2


def test_a_job_out_of_time_fails_alone(isolated_env: Path, fake_openai: FakeOpenAI) -> None:
    # Margins wide enough for a loaded machine: the quick jobs need milliseconds of their
    # 3 s, and the slow job's first call outlives its 3 s by far.
    ws = model_ws(isolated_env, fake_openai, job_timeout_seconds=3)
    fake_openai.queue_delay(8)
    targets = [Target("slow"), Target("b"), Target("broken")]
    summary = run_jobs(ws, "test", targets, chat_twice, workers=1)
    slow, quick, broken = summary.outcomes
    assert slow.timed_out and "timed out" in (slow.error or "") and slow.attempts == 1
    assert quick.ok and quick.result == "okok"
    assert not broken.ok and "not UTF-8" in (broken.error or "")
    # The slow job started no call after its time ran out: 1 + 2, not 2 + 2.
    assert len(fake_openai.chat_requests()) == 3
    (record,) = ledger.read(isolated_env / ".memclaw", JOBS_LOG)
    assert record["job"] == "test" and record["executor"] == "local"
    assert (record["jobs"], record["ok"], record["failed"], record["timed_out"]) == (3, 1, 2, 1)


def test_shards_split_agents_stably_and_completely() -> None:
    ids = [f"agent-{n}" for n in range(200)]
    shards = [Shard(i, 3) for i in (1, 2, 3)]
    held = [[a for a in ids if s.holds(a)] for s in shards]
    assert sorted(a for h in held for a in h) == sorted(ids)  # each agent in exactly one
    assert all(40 < len(h) < 95 for h in held)
    assert Shard.parse("2/3") == Shard(2, 3)
    assert Shard(1, 1).holds("anything")
    for bad in ("0/3", "4/3", "1-3", "a/b", "2"):
        with pytest.raises(UsageError):
            Shard.parse(bad)


def _agent_with_notes(root: Path, name: str) -> None:
    agent, _ = Workspace.open(root).init_agent(name)
    for offset in (3, 2, 1):
        agent.append_daily("- Maya prefers uv", day=date.today() - timedelta(days=offset))


def test_cli_shards_cover_every_agent_once(isolated_env: Path) -> None:
    names = [f"a{n}" for n in range(8)]
    for name in names:
        _agent_with_notes(isolated_env, name)
    runner = CliRunner()
    dreamed: list[str] = []
    for shard in ("1/2", "2/2"):
        result = runner.invoke(app, ["dream", "--all", "--shard", shard, "--json"])
        assert result.exit_code == 0, result.output
        dreamed += [r["agent"] for r in json.loads(result.stdout)["results"]]
    assert sorted(dreamed) == names
    records = list(ledger.read(isolated_env / ".memclaw", JOBS_LOG))
    assert [r["shard"] for r in records] == ["1/2", "2/2"]
    bad = runner.invoke(app, ["consolidate", "--all", "--shard", "3/2"])
    assert bad.exit_code == 2 and "between 1 and N" in bad.output


def test_base_commands_never_import_ray(isolated_env: Path) -> None:
    _agent_with_notes(isolated_env, "demo")
    script = (
        "import sys\n"
        "from memclaw.cli.fast import main\n"
        "for args in (['search', 'uv', '--agent', 'demo'], ['--help'], ['dream', '--all']):\n"
        "    sys.argv = ['memclaw', *args]\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit as exit:\n"
        "        assert exit.code in (0, None), (args, exit.code)\n"
        "assert 'ray' not in sys.modules, 'ray was imported'\n"
        "assert 'memclaw.jobs.ray_executor' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


def test_ray_missing_is_one_clear_line(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if memclaw[ray] were not installed
    _agent_with_notes(isolated_env, "demo")
    result = CliRunner().invoke(app, ["dream", "--all", "--executor", "ray"])
    assert result.exit_code == 2
    assert "pip install 'memclaw[ray]'" in result.output
    assert "Traceback" not in result.output
