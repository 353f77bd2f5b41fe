"""Chat `/good` past soul_update_interval revises SOUL.md, not only the morning card."""

from fake_openai import FakeOpenAI

from chat.chatkit import OpenChat
from memclaw.entries.memories import remember
from memclaw.workspace.scope import Scope

RULE = "Never schedule meetings on Fridays for Maya"


def test_good_in_a_chat_past_the_interval_revises_soul(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat({"soul_update_interval": 1})
    agent = conversation.engine.agent
    remember(Scope(agent), RULE, category="rule")
    agent.append_daily(f"- {RULE}")
    result = conversation.turn("can Maya schedule meetings on Fridays?")
    assert result.recalled.hits
    fake_openai.queue_json({"lines": [RULE]})  # the model writes the Learned lines
    good = conversation.command("/good")
    conversation.close(wait=5)
    assert "SOUL.md: learned from" in good.title
    assert f"- {RULE}" in agent.read("SOUL.md")
