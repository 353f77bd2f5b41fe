"""A conversation that ends inside the cooldown is queued and extracted later, never dropped."""

import json
from pathlib import Path

from extract.extractkit import CHAT, Clock, make_agent
from memclaw.extract.later import extract_pending
from memclaw.extract.pending import pending_sessions
from memclaw.extract.pipeline import extract_conversation
from memclaw.extract.result import Status
from memclaw.workspace import ledger
from memclaw.workspace.scope import Scope


def test_a_session_held_back_by_the_cooldown_is_extracted_when_it_ends(tmp_path: Path) -> None:
    clock = Clock()
    agent = make_agent(tmp_path, clock)
    assert extract_conversation(Scope(agent), CHAT, session_id="s-1").status is Status.WRITTEN
    sessions = agent.path / "sessions"
    sessions.mkdir(exist_ok=True)
    (sessions / "s-2.jsonl").write_text("".join(json.dumps(m) + "\n" for m in CHAT))
    clock.advance(minutes=1)
    held = extract_conversation(Scope(agent), CHAT, session_id="s-2")
    assert held.status is Status.SKIPPED
    assert "queued" in held.reason
    assert f"memclaw extract {agent.id} --session s-2 --force" in held.reason
    assert pending_sessions(agent) == [(None, "s-2")]
    assert extract_pending(agent) == []  # still inside the cooldown: stays queued
    assert pending_sessions(agent) == [(None, "s-2")]
    clock.advance(minutes=5)
    (result,) = extract_pending(agent)
    assert result.status is not Status.SKIPPED
    assert pending_sessions(agent) == []
    assert ledger.load(agent.meta_dir, "pending-extract")[0] == []


def test_a_dry_run_or_a_sessionless_run_queues_nothing_but_says_how_to_force(
    tmp_path: Path,
) -> None:
    clock = Clock()
    agent = make_agent(tmp_path, clock)
    extract_conversation(Scope(agent), CHAT)
    dry = extract_conversation(Scope(agent), CHAT, session_id="s-9", dry_run=True)
    assert dry.status is not Status.SKIPPED  # a dry run is never held by the cooldown
    skipped = extract_conversation(Scope(agent), CHAT)
    assert skipped.status is Status.SKIPPED and "--force" in skipped.reason
    assert pending_sessions(agent) == []


def test_concurrent_queueing_loses_no_session(tmp_path: Path) -> None:
    import threading

    from memclaw.extract.pending import queue_session

    agent = make_agent(tmp_path)

    def queue(prefix: str) -> None:
        for i in range(40):
            queue_session(Scope(agent), f"{prefix}-{i}")

    threads = [threading.Thread(target=queue, args=(name,)) for name in ("a", "b", "c")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(pending_sessions(agent)) == 120


def test_a_queued_session_deleted_since_leaves_the_queue_without_a_word(tmp_path: Path) -> None:
    from memclaw.extract.pending import queue_session

    agent = make_agent(tmp_path)
    queue_session(Scope(agent), "s-gone", "the model failed it")
    assert extract_pending(agent) == []
    assert pending_sessions(agent) == []
