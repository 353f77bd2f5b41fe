"""Post-chat extraction without a model: preconditions, cooldown, lock, dry run, writes."""

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from extract.extractkit import CHAT, Clock, make_agent, tree
from memclaw.extract.pipeline import extract_conversation
from memclaw.extract.result import Status
from memclaw.extract.state import extraction_lock
from memclaw.workspace import ledger
from memclaw.workspace.logs import read_log
from memclaw.workspace.scope import Scope


def test_offline_extraction_files_facts_and_logs(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    result = extract_conversation(Scope(agent), CHAT, session_id="s-1")
    assert result.status is Status.WRITTEN
    assert str(result.engine) == "offline"
    profile, memory = agent.read("PROFILE.md"), agent.read("MEMORY.md")
    assert "- Sarah works at Cloudflare." in profile.split("## Work")[0]
    assert "Sarah prefers terse answers" in profile.split("## Preferences")[1]
    decisions = memory.split("## Decisions")[1].split("##")[0]
    assert "As of 2026-03-30, the team decided to switch" in decisions
    note = agent.read("memory/2026-03-30.md")
    assert "## 14:05" in note and "[decision]" in note
    assert set(result.files_changed) == {"PROFILE.md", "MEMORY.md", "memory/2026-03-30.md"}
    (record,) = read_log(agent, "extract")
    assert record["status"] == "written" and record["session"] == "s-1"
    assert record["changed"] == result.files_changed and "tokens" in record


def test_a_second_run_learns_nothing_new(tmp_path: Path) -> None:
    clock = Clock()
    agent = make_agent(tmp_path, clock)
    extract_conversation(Scope(agent), CHAT)
    clock.advance(minutes=6)
    again = extract_conversation(Scope(agent), CHAT)
    assert again.status is Status.NOTHING
    assert "already known" in again.reason


def test_owner_scope_gets_the_writes(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    result = extract_conversation(Scope.resolve(agent, "alice"), CHAT)
    assert all(name.startswith("owners/user%3Aalice/") for name in result.files_changed)
    assert "Sarah" in Scope.resolve(agent, "user:alice").read("PROFILE.md")
    assert "Sarah" not in agent.read("PROFILE.md")


@pytest.mark.parametrize(
    ("settings", "messages", "kwargs", "words"),
    [
        ({"extract_enabled": False}, CHAT, {}, "turned off"),
        ({}, CHAT, {"session_id": "agent:main:cron:nightly"}, "automated"),
        ({}, CHAT[:3], {}, "needs 4"),
        ({}, [*CHAT, {"role": "user", "content": "ok thx"}], {}, "shorter than 10"),
    ],
)
def test_each_precondition_skips(
    tmp_path: Path,
    settings: dict[str, object],
    messages: list[dict[str, str]],
    kwargs: dict[str, str],
    words: str,
) -> None:
    agent = make_agent(tmp_path, **settings)
    before = agent.read("MEMORY.md")
    result = extract_conversation(Scope(agent), messages, **kwargs)
    assert result.status is Status.SKIPPED and words in result.reason
    assert agent.read("MEMORY.md") == before
    assert next(read_log(agent, "extract"))["skipped"] == result.reason
    forced = extract_conversation(Scope(agent), messages, force=True, **kwargs)
    assert forced.status is not Status.SKIPPED


def test_automated_sessions_extract_when_the_setting_allows(tmp_path: Path) -> None:
    agent = make_agent(tmp_path, extract_skip_automated=False)
    result = extract_conversation(Scope(agent), CHAT, session_id="cron:nightly")
    assert result.status is Status.WRITTEN


@pytest.mark.parametrize("trigger", ["cron", "heartbeat", "automation", "schedule", "Cron"])
def test_recursion_guard_holds_even_with_force(tmp_path: Path, trigger: str) -> None:
    agent = make_agent(tmp_path)
    result = extract_conversation(Scope(agent), CHAT, trigger=trigger, force=True)
    assert result.status is Status.SKIPPED and "never extracted" in result.reason


def test_cooldown_then_free_again(tmp_path: Path) -> None:
    clock = Clock()
    agent = make_agent(tmp_path, clock)
    assert extract_conversation(Scope(agent), CHAT).status is Status.WRITTEN
    clock.advance(minutes=4)
    skipped = extract_conversation(Scope(agent), CHAT)
    assert skipped.status is Status.SKIPPED and "cooldown" in skipped.reason
    assert extract_conversation(Scope.resolve(agent, "bob"), CHAT).status is not Status.SKIPPED
    assert extract_conversation(Scope(agent), CHAT, force=True).status is not Status.SKIPPED
    clock.advance(minutes=5, seconds=1)  # a forced run restarts the cooldown
    assert extract_conversation(Scope(agent), CHAT).status is not Status.SKIPPED


SCRIPT = """
import sys
from datetime import datetime
from memclaw.workspace import Scope, Workspace
from memclaw.extract.pipeline import extract_conversation
now = datetime.fromisoformat(sys.argv[2])
ws = Workspace.open(sys.argv[1], env={}, clock=lambda: now)
chat = [{"role": "user", "content": "I prefer tabs over spaces in Go code."}] * 2 + [
    {"role": "assistant", "content": "ok"}, {"role": "user", "content": "I use Neovim daily."}]
print(extract_conversation(Scope(ws.agent("assistant")), chat).status)
"""


def test_cooldown_holds_across_processes(tmp_path: Path) -> None:
    clock = Clock()
    agent = make_agent(tmp_path, clock)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path), clock.now.isoformat()],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "written"
    clock.advance(minutes=1)
    result = extract_conversation(Scope(agent), CHAT)
    assert result.status is Status.SKIPPED and "cooldown" in result.reason
    state = ledger.load(agent.meta_dir, "extract-state")[0]
    assert "(team)" in state


def test_a_second_extraction_while_one_runs_is_skipped(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with extraction_lock(Scope(agent)) as held:
            assert held
            holding.set()
            release.wait(5)

    worker = threading.Thread(target=hold)
    worker.start()
    try:
        assert holding.wait(5)
        result = extract_conversation(Scope(agent), CHAT, force=True)
        assert result.status is Status.SKIPPED and "running" in result.reason
        other = extract_conversation(Scope.resolve(agent, "carol"), CHAT)
        assert other.status is Status.WRITTEN  # another scope has its own lock
    finally:
        release.set()
        worker.join()
    assert extract_conversation(Scope(agent), CHAT).status is Status.WRITTEN


def test_dry_run_writes_nothing_at_all(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    before = tree(agent.path)
    result = extract_conversation(Scope(agent), CHAT, dry_run=True)
    assert tree(agent.path) == before
    assert result.dry_run and result.status is Status.WOULD_WRITE and not result.files_changed
    assert set(result.diffs) == {"PROFILE.md", "MEMORY.md", "memory/2026-03-30.md"}
    assert "+- Sarah works at Cloudflare." in result.diffs["PROFILE.md"]
    assert result.diffs["memory/2026-03-30.md"].startswith("--- a/memory/2026-03-30.md")
    # A dry run does not start the cooldown either.
    assert extract_conversation(Scope(agent), CHAT).status is Status.WRITTEN


def test_secrets_in_the_chat_never_reach_a_file(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    key = "sk-proj-" + "Xq7Lm2Nw8Rt4Vb1Zc6Ky9Pd3Hs5Jf0Ga"
    chat = [
        *CHAT[:4],
        {"role": "user", "content": f"Use this API key for the mailer service: {key}"},
        {"role": "assistant", "content": "Configured the mailer service with it."},
    ]
    result = extract_conversation(Scope(agent), chat)
    assert result.status is Status.WRITTEN
    every = "".join(
        p.read_bytes().decode(errors="replace") for p in agent.path.rglob("*") if p.is_file()
    )
    every += "".join(p.read_text() for p in agent.meta_dir.rglob("*.jsonl"))
    assert key not in every and "sk-proj" not in every
    assert "API key was configured for the mailer service" in agent.read("MEMORY.md")


def test_noise_only_conversation_keeps_nothing(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    chat = [
        {"role": "user", "content": "HEARTBEAT_OK"},
        {"role": "assistant", "content": "NO_REPLY"},
        {"role": "user", "content": "ok"},
        {"role": "user", "content": "Thanks a lot, that's all!"},
    ]
    result = extract_conversation(Scope(agent), chat)
    assert result.status is Status.NOTHING
