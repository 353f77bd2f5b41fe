"""The Mem0 provider against a local server speaking Mem0's REST API."""

import threading
from typing import Any

from chat.chatkit import OpenChat, sent_messages
from fake_openai import FakeOpenAI
from ledgerkit import stream_text

from memclaw.providers.mem0_state import synced_turns
from providers.fake_mem0 import FakeMem0

SECRET = "sk-" + "abcdefghijklmnopqrstuvwxyz123456"
OWNER = "user:maya"


def _system(fake_openai: FakeOpenAI) -> str:
    content: str = sent_messages(fake_openai)[0]["content"]
    return content


def test_recall_block_is_keyed_by_owner_and_agent(
    mem0_chat: OpenChat, mem0: FakeMem0, fake_openai: FakeOpenAI
) -> None:
    mem0.add_memory("Maya is allergic to peanuts", "user:maya", "pal")
    mem0.add_memory("Noor likes sailing", "user:noor", "pal")
    mem0.add_memory("Maya told the researcher about tea", "user:maya", "researcher")
    conversation = mem0_chat(owner=OWNER)
    conversation.turn("What should I cook tonight?")
    conversation.close(wait=5)
    system = _system(fake_openai)
    assert "[Mem0 Recall]" in system
    assert "Maya is allergic to peanuts" in system
    assert "Noor" not in system and "tea" not in system
    search = mem0.posted("/search")[0]
    assert search.body["filters"] == {"user_id": "user:maya", "agent_id": "pal"}
    assert search.body["top_k"] == 5
    assert search.headers["x-api-key"] == "m0-test-key"


def test_platform_mode_speaks_the_hosted_api(
    mem0_chat: OpenChat, mem0: FakeMem0, fake_openai: FakeOpenAI
) -> None:
    mem0.add_memory("Maya is allergic to peanuts", "user:maya", "pal")
    conversation = mem0_chat({"mem0_mode": "platform"}, owner=OWNER)
    conversation.turn("What should I cook tonight?")
    conversation.close(wait=5)
    search = mem0.posted("/v3/memories/search/")[0]
    assert search.body["filters"] == {"AND": [{"user_id": "user:maya"}, {"agent_id": "pal"}]}
    assert search.headers["authorization"] == "Token m0-test-key"
    assert "x-api-key" not in search.headers
    add = mem0.posted("/v3/memories/add/")[0]
    assert add.body["user_id"] == "user:maya" and add.body["agent_id"] == "pal"
    assert "peanuts" in _system(fake_openai)


def test_a_finished_turn_is_synced_with_user_and_agent_ids(
    mem0_chat: OpenChat, mem0: FakeMem0, fake_openai: FakeOpenAI
) -> None:
    fake_openai.queue_text("Noted: Helix is your editor.")
    conversation = mem0_chat(owner=OWNER)
    conversation.turn("I switched to Helix as my editor.")
    conversation.close(wait=5)
    add = mem0.posted("/memories")[0]
    assert add.body["user_id"] == "user:maya"
    assert add.body["agent_id"] == "pal"
    assert add.body["messages"] == [
        {"role": "user", "content": "I switched to Helix as my editor."},
        {"role": "assistant", "content": "Noted: Helix is your editor."},
    ]
    assert add.body["metadata"]["session"] == conversation.session.id
    assert synced_turns(conversation.session.scope, conversation.session.id) == {0}


def test_owner_less_turns_are_neither_recalled_nor_synced(
    mem0_chat: OpenChat, mem0: FakeMem0
) -> None:
    conversation = mem0_chat()
    conversation.turn("I switched to Helix as my editor.")
    conversation.close(wait=5)
    assert mem0.requests == []
    provider = conversation.engine.providers[1]
    assert provider.stats.skipped == 1  # type: ignore[attr-defined]


def test_secrets_never_leave_the_machine(
    mem0_chat: OpenChat, mem0: FakeMem0, fake_openai: FakeOpenAI
) -> None:
    fake_openai.queue_text(f"I will not keep {SECRET}.")
    conversation = mem0_chat(owner=OWNER)
    conversation.turn(f"My OpenAI key is {SECRET}, remember it")
    conversation.close(wait=5)
    assert mem0.posted("/memories")
    for seen in mem0.requests:
        assert SECRET not in repr(seen.body)
    assert "[REDACTED" in mem0.posted("/memories")[0].body["messages"][0]["content"]


def test_a_down_server_costs_the_turn_nothing_but_a_count(
    mem0_chat: OpenChat, mem0: FakeMem0, fake_openai: FakeOpenAI
) -> None:
    mem0.fail_status = 500
    fake_openai.queue_text("Atlas ships in December.")
    conversation = mem0_chat(owner=OWNER)
    result = conversation.turn("When does Atlas ship?")
    conversation.close(wait=5)
    assert result.text == "Atlas ships in December."
    assert "Project Atlas ships in December" in _system(fake_openai)  # the files still recalled
    stats = conversation.engine.providers[1].stats  # type: ignore[attr-defined]
    assert stats.recall_failures == 1 and stats.sync_failures == 1
    assert any("mem0 sync" in n for n in conversation.drain())
    assert "HTTP 500" in stream_text(conversation.session.agent.meta_dir, "mem0")
    assert synced_turns(conversation.session.scope, conversation.session.id) == set()


def test_a_slow_server_does_not_hold_the_turn(
    mem0_chat: OpenChat, mem0: FakeMem0, fake_openai: FakeOpenAI
) -> None:
    mem0.hold = threading.Event()
    fake_openai.queue_text("Atlas ships in December.")
    conversation = mem0_chat({"mem0_timeout_ms": 200, "mem0_flush_seconds": 0.2}, owner=OWNER)
    result = conversation.turn("When does Atlas ship?")
    # The server has not answered yet (it is held), and the answer is already here.
    assert not mem0.hold.is_set()
    assert result.text == "Atlas ships in December."
    stats: Any = conversation.engine.providers[1].stats  # type: ignore[attr-defined]
    assert stats.recall_failures == 1
    assert "[Mem0 Recall]" not in _system(fake_openai)
    conversation.close(wait=5)
    mem0.hold.set()


def test_a_subagent_recalls_from_its_parent_and_sends_nothing(
    mem0_chat: OpenChat, mem0: FakeMem0, fake_openai: FakeOpenAI
) -> None:
    mem0.add_memory("Maya is allergic to peanuts", "user:maya", "pal")
    conversation = mem0_chat(owner=OWNER, session_id="agent:pal:subagent:1f2e")
    conversation.turn("What should I cook tonight for Maya?")
    conversation.close(wait=5)
    system = _system(fake_openai)
    assert "You are a subagent" in system and "peanuts" in system
    assert mem0.posted("/search")[0].body["filters"]["agent_id"] == "pal"
    assert mem0.posted("/memories") == []


def test_the_mem0_block_stays_inside_the_recall_budget(
    mem0_chat: OpenChat, mem0: FakeMem0, fake_openai: FakeOpenAI
) -> None:
    for i in range(5):
        mem0.add_memory(f"Maya fact number {i} " + "detail " * 30, "user:maya", "pal")
    conversation = mem0_chat({"recall_max_chars": 600}, owner=OWNER)
    conversation.turn("Tell me about Maya")
    conversation.close(wait=5)
    block = _system(fake_openai).split("[Mem0 Recall]", 1)[1]
    assert len("[Mem0 Recall]" + block) <= 600
    assert "more left out: recall budget" in block
    assert "Maya fact number 0" in block


def test_a_full_queue_drops_nothing_for_good(
    mem0_chat: OpenChat, mem0: FakeMem0, fake_openai: FakeOpenAI
) -> None:
    from memclaw.providers.mem0_api import Mem0Client
    from memclaw.providers.mem0_sync import backfill

    mem0.hold = threading.Event()
    settings = {"mem0_search_enabled": False, "mem0_queue_size": 1}
    conversation = mem0_chat(settings, owner=OWNER)
    for word in ("first", "second", "third"):
        fake_openai.queue_text(f"ok {word}")
        conversation.turn(f"the {word} thing to keep")
    # The worker is stuck on the first turn, the second waits in the queue, the third
    # found it full: the answers came all the same.
    stats: Any = conversation.engine.providers[1].stats  # type: ignore[attr-defined]
    assert stats.dropped == 1
    mem0.hold.set()
    conversation.close(wait=5)
    scope, session_id = conversation.session.scope, conversation.session.id
    assert synced_turns(scope, session_id) == {0, 1}
    report = backfill(scope.agent, Mem0Client.from_settings(scope.agent.settings))
    assert report.sent == 1 and report.already == 2
    assert synced_turns(scope, session_id) == {0, 1, 2}
    sent = [a.body["messages"][0]["content"] for a in mem0.posted("/memories")]
    assert sorted(sent) == sorted(f"the {w} thing to keep" for w in ("first", "second", "third"))


def test_no_capture_sends_nothing(mem0_chat: OpenChat, mem0: FakeMem0) -> None:
    conversation = mem0_chat(owner=OWNER, capture=False)
    conversation.turn("I switched to Helix as my editor.")
    conversation.close(wait=5)
    assert mem0.posted("/search") and mem0.posted("/memories") == []
