"""``memclaw remember`` asks the configured model's contradiction judge, as extraction does.

With a model configured, what only the model sees as a contradiction (``judgekit``) waits
in the inbox; a model that fails, hangs or answers garbage leaves the offline verdict (the
write goes through) with one warning line; with no model nothing is asked. The chat's and
MCP's tools are checked in tests/chat/test_judged_writes.py and tests/mcpserver.
"""

import json
import logging
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI
from typer.testing import CliRunner

from facts.judgekit import (
    NEW,
    OLD,
    configure,
    judge_requests,
    model_judge,
    seeded,
    texts,
)
from memclaw.chat.tools import ToolBox
from memclaw.cli.app import app
from memclaw.entries.memories import remember
from memclaw.facts import inbox
from memclaw.facts.judge import Judge, judge_pairs
from memclaw.judgement import Relation, judge
from memclaw.llm import ToolCall, open_model_no_retry
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope


def test_the_pair_is_one_the_offline_judge_is_unsure_of() -> None:
    verdict = judge(OLD, NEW)
    assert verdict.relation is Relation.DISTINCT and not verdict.sure


def _cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


# --- remember, from the command line --------------------------------------------------------


def test_cli_remember_holds_what_only_the_model_sees(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    agent = seeded(isolated_env)
    configure(isolated_env, fake_openai)
    fake_openai.default_reply = model_judge()
    done = _cli("remember", "pal", NEW, "--json")
    assert done.exit_code == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["action"] == "held" and answer["entry"] is None
    assert texts(agent) == [OLD]
    (item,) = inbox.open_items(agent, "")
    assert (item.old, item.new) == (OLD, NEW)
    assert item.reason.startswith("model: afternoon calls are meetings after lunch")
    assert len(judge_requests(fake_openai)) == 1


def test_without_a_model_remember_is_judged_offline_and_nothing_is_asked(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    agent = seeded(isolated_env)  # no memclaw.yaml: no endpoint
    done = _cli("remember", "pal", NEW, "--json")
    assert json.loads(done.stdout)["action"] == "added"
    assert sorted(texts(agent)) == sorted([OLD, NEW])
    assert inbox.open_items(agent, "") == [] and fake_openai.requests == []


def test_no_request_when_nothing_is_contested(isolated_env: Path, fake_openai: FakeOpenAI) -> None:
    seeded(isolated_env)
    configure(isolated_env, fake_openai)
    assert _cli("remember", "pal", "The office closes at 18:00 on Fridays").exit_code == 0
    assert _cli("search", "peanuts", "--agent", "pal").exit_code == 0
    assert fake_openai.requests == []


@pytest.mark.parametrize("fault", ["timeout", "garbage", "error"])
def test_a_failing_model_leaves_the_offline_verdict_with_one_warning(
    isolated_env: Path,
    fake_openai: FakeOpenAI,
    caplog: pytest.LogCaptureFixture,
    fault: str,
) -> None:
    agent = seeded(isolated_env)
    configure(isolated_env, fake_openai, request_timeout=0.5, max_retries=3)
    if fault == "error":
        fake_openai.queue_error(500, "the model fell over")
    fake_openai.default_reply = model_judge(
        delay=3.0 if fault == "timeout" else 0.0, garbage=fault == "garbage"
    )
    with caplog.at_level(logging.WARNING, logger="memclaw.facts"):
        done = _cli("remember", "pal", NEW, "--json")
    assert json.loads(done.stdout)["action"] == "added"  # the write is never lost
    assert NEW in texts(agent) and inbox.open_items(agent, "") == []
    (warning,) = [r for r in caplog.records if r.name == "memclaw.facts"]
    assert "the offline verdict stands" in warning.getMessage()
    assert len(judge_requests(fake_openai)) == 1  # asked once: no retries while a person waits


def test_after_a_failure_the_judge_rests_instead_of_waiting_on_every_write(
    isolated_env: Path, fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    settings = {"base_url": fake_openai.base_url, "api_key": "test", "request_timeout": 0.5}
    agent, _ = Workspace.open(isolated_env, overrides=settings).init_agent("pal")
    scope = Scope(agent)
    remember(scope, OLD)
    remember(scope, "Kenji reviews PRs in the morning")
    fake_openai.default_reply = model_judge(delay=3.0)
    box = ToolBox(scope, "s1", judge=Judge(partial(open_model_no_retry, agent.settings)))
    with caplog.at_level(logging.WARNING, logger="memclaw.facts"):
        for text in (NEW, "Kenji reviews only small PRs"):
            record = box.run(ToolCall("c", "memory_store", {"text": text}, "{}"))
            assert record.ok and json.loads(record.result)["action"] == "added"
    assert len(judge_requests(fake_openai)) == 1
    assert len([r for r in caplog.records if r.name == "memclaw.facts"]) == 1


def test_a_credential_in_a_hand_edited_line_never_reaches_the_judge(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    token = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5"
    settings = {"base_url": fake_openai.base_url, "api_key": "test"}
    agent, _ = Workspace.open(isolated_env, overrides=settings).init_agent("pal")
    line = f"- Maya's GitHub token for the lotsen deploy bot is {token}\n"
    (agent.path / "MEMORY.md").write_text(f"# Memory\n{line}", encoding="utf-8")  # by hand
    fake_openai.default_reply = model_judge()
    new = "Maya's GitHub token for the lotsen deploy bot expires in March"
    remember(Scope(agent), new, model=Judge(partial(open_model_no_retry, agent.settings)))
    (request,) = judge_requests(fake_openai)
    sent = json.dumps(request.body)
    assert token not in sent and "[REDACTED" in sent


def test_a_model_that_cannot_be_opened_leaves_the_offline_verdict(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from memclaw.errors import ModelError

    def cannot_open() -> None:
        raise ModelError("no model: set base_url")

    with caplog.at_level(logging.WARNING):
        verdicts = judge_pairs([(OLD, NEW)], Judge(cannot_open))
    assert verdicts == [judge(OLD, NEW)]  # the offline verdict, not an error
    assert "the offline verdict stands" in caplog.text


def test_a_judge_asks_the_model_once_per_pair(isolated_env: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.default_reply = model_judge()
    configure(isolated_env, fake_openai)
    settings = Workspace.open(isolated_env).settings
    opinion = Judge(partial(open_model_no_retry, settings))
    first, again = judge_pairs([(OLD, NEW)], opinion), judge_pairs([(OLD, NEW)], opinion)
    assert first == again and first[0].disagrees and not first[0].sure  # (judged, then applied)
    assert len(judge_requests(fake_openai)) == 1
