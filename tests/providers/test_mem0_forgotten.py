"""What must never reach or come back from Mem0: forgotten facts, private and scheduled turns."""

import json
from pathlib import Path
from typing import Any

from chat.chatkit import OpenChat, sent_messages
from fake_openai import FakeOpenAI
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.entries.memories import remember
from memclaw.erasure import apply_forget, plan_forget
from memclaw.providers.mem0_api import Mem0Client
from memclaw.providers.mem0_sync import backfill
from providers.fake_mem0 import FakeMem0

OWNER = "user:maya"
QUIET = {"mem0_search_enabled": False, "mem0_sync_enabled": False}


def _forget_while_mem0_is_down(conversation: Any, mem0: FakeMem0, words: str) -> None:
    scope = conversation.session.scope
    remember(scope, "Maya is pregnant, due in May")
    mem0.fail_status = 503
    apply_forget(plan_forget(scope, words))  # Mem0's part fails; the local forget completes
    mem0.fail_status = 0


def test_a_forgotten_fact_never_comes_back_in_mem0_recall(
    mem0_chat: OpenChat, mem0: FakeMem0, fake_openai: FakeOpenAI
) -> None:
    mem0.add_memory("Maya is pregnant, the baby is due in May", OWNER, "pal")
    mem0.add_memory("Maya is allergic to peanuts", OWNER, "pal")
    conversation = mem0_chat(owner=OWNER)
    _forget_while_mem0_is_down(conversation, mem0, "pregnant")
    conversation.turn("What should I cook tonight?")
    conversation.close(wait=5)
    system: str = sent_messages(fake_openai)[0]["content"]
    assert "peanuts" in system
    assert "pregnan" not in system.lower()
    # The delete failed: Mem0 still holds it, and recall kept it out all the same.
    assert any("pregnant" in m["memory"] for m in mem0.memories)


def test_mem0_search_leaves_out_what_was_forgotten(
    isolated_env: Path, mem0_chat: OpenChat, mem0: FakeMem0
) -> None:
    mem0.add_memory("Maya is pregnant, the baby is due in May", OWNER, "pal")
    mem0.add_memory("Maya lives in Lisbon", OWNER, "pal")
    conversation = mem0_chat(QUIET, owner=OWNER)
    _forget_while_mem0_is_down(conversation, mem0, "pregnant")
    conversation.close(wait=5)
    (isolated_env / "memclaw.yaml").write_text(
        f"providers:\n  mem0:\n    mode: self-hosted\n    base_url: {mem0.base_url}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        app, ["mem0", "search", "pal", "maya", "--owner", OWNER, "--json"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    found = [m["memory"] for m in json.loads(result.stdout)["memories"]]
    assert found == ["Maya lives in Lisbon"]


def test_sync_never_sends_no_capture_or_scheduled_turns(
    mem0_chat: OpenChat, mem0: FakeMem0, fake_openai: FakeOpenAI
) -> None:
    # Mem0 sync was off while these chats ran: only the back-fill could send them.
    private = mem0_chat(QUIET, owner=OWNER, capture=False)
    fake_openai.queue_text("Understood.")
    private.turn("Off the record: I am interviewing at another company.")
    private.close(wait=5)
    cron = mem0_chat(QUIET, owner=OWNER, trigger="cron")
    fake_openai.queue_text("Nightly summary done.")
    cron.turn("Summarise today's notes for the nightly report.")
    cron.close(wait=5)
    # The private session resumed with capture on: from here on it may be sent.
    resumed = mem0_chat(QUIET, owner=OWNER, session_id=private.session.id)
    fake_openai.queue_text("Noted.")
    resumed.turn("I switched to Helix as my editor.")
    resumed.close(wait=5)
    scope = resumed.session.scope
    report = backfill(scope.agent, Mem0Client.from_settings(scope.agent.settings))
    sent = [m["content"] for add in mem0.posted("/memories") for m in add.body["messages"]]
    assert sent == ["I switched to Helix as my editor.", "Noted."]
    assert report.sent == 1 and report.uncaptured == 2


def test_sync_never_sends_a_turn_that_says_a_forgotten_fact(
    mem0_chat: OpenChat, mem0: FakeMem0, fake_openai: FakeOpenAI
) -> None:
    conversation = mem0_chat(QUIET, owner=OWNER)
    fake_openai.queue_text("Congratulations!")
    conversation.turn("Big news: I am pregnant.")
    fake_openai.queue_text("Noted.")
    conversation.turn("I switched to Helix as my editor.")
    conversation.close(wait=5)
    scope = conversation.session.scope
    remember(scope, "Maya is pregnant")
    mem0.fail_status = 503  # nothing in Mem0 yet; the forget's own delete just fails
    apply_forget(plan_forget(scope, "pregnant"))
    mem0.fail_status = 0
    # A transcript a person restored by hand after the forget says it again.
    session = scope.folder / "sessions" / f"{conversation.session.id}.jsonl"
    lines = [json.dumps({"role": "user", "content": "Big news: I am pregnant."})]
    session.write_text("\n".join(lines) + "\n" + session.read_text(encoding="utf-8"))
    report = backfill(scope.agent, Mem0Client.from_settings(scope.agent.settings))
    sent = json.dumps([add.body for add in mem0.posted("/memories")])
    assert "pregnan" not in sent.lower() and "Helix" in sent
    assert report.forgotten >= 1


def test_chat_forget_deletes_in_mem0_and_says_so(mem0_chat: OpenChat, mem0: FakeMem0) -> None:
    mem0.add_memory("Maya is pregnant, the baby is due in May", OWNER, "pal")
    mem0.add_memory("Maya is allergic to peanuts", OWNER, "pal")
    conversation = mem0_chat(QUIET, owner=OWNER)
    remember(conversation.session.scope, "Maya is pregnant, due in May")
    reply = conversation.command("/forget --yes pregnant")
    conversation.close(wait=5)
    assert "also deleted 1 Mem0 memories" in reply.title
    assert [m["memory"] for m in mem0.memories] == ["Maya is allergic to peanuts"]


def test_a_fact_the_team_forgot_is_left_out_of_every_owners_mem0_recall(
    mem0_chat: OpenChat, mem0: FakeMem0, fake_openai: FakeOpenAI
) -> None:
    mem0.add_memory("The vault code is kept in the blue binder", OWNER, "pal")
    mem0.add_memory("Maya is allergic to peanuts", OWNER, "pal")
    conversation = mem0_chat(owner=OWNER)
    team = conversation.session.scope.for_owner(None)
    remember(team, "The vault code is kept in the blue binder")
    apply_forget(plan_forget(team, "blue binder"))
    conversation.turn("What should I cook tonight?")
    conversation.close(wait=5)
    system: str = sent_messages(fake_openai)[0]["content"]
    assert "peanuts" in system and "binder" not in system


def test_a_live_turn_restating_a_forgotten_fact_is_not_sent(
    mem0_chat: OpenChat, mem0: FakeMem0, fake_openai: FakeOpenAI
) -> None:
    conversation = mem0_chat({"mem0_search_enabled": False}, owner=OWNER)
    remember(conversation.session.scope, "Maya is pregnant")
    apply_forget(plan_forget(conversation.session.scope, "pregnant"))
    fake_openai.queue_text("Congratulations!")
    conversation.turn("Big news again: I am pregnant.")
    fake_openai.queue_text("Noted.")
    conversation.turn("I switched to Helix as my editor.")
    conversation.close(wait=5)
    sent = json.dumps([add.body for add in mem0.posted("/memories")])
    assert "pregnan" not in sent.lower() and "Helix" in sent
