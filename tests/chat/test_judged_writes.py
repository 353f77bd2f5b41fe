"""A chat's memory tools ask the chat's model to judge what the offline rules are unsure of."""

import json

from facts.judgekit import NEW, OLD, judge_requests, model_judge, texts
from fake_openai import FakeOpenAI

from chat.chatkit import OpenChat
from memclaw.chat import Conversation
from memclaw.entries.memories import remember
from memclaw.facts import inbox
from memclaw.workspace.scope import Scope


def _tool_result(chat: Conversation) -> str:
    content = [m for m in chat.session.messages if m["role"] == "tool"][-1]["content"]
    assert isinstance(content, str)
    return content


def test_memory_store_in_a_chat_holds_it(open_chat: OpenChat, fake_openai: FakeOpenAI) -> None:
    chat = open_chat(capture=False)
    agent = chat.engine.agent
    remember(Scope(agent), OLD)
    fake_openai.default_reply = model_judge()
    fake_openai.queue_tool_call("memory_store", {"text": NEW}, "c1")
    chat.turn("I have peanut butter every morning now.")
    told = json.loads(_tool_result(chat))
    assert told["action"] == "held" and "inbox" in told["reason"]
    assert NEW not in texts(agent)
    (item,) = inbox.open_items(agent, "")
    assert item.new == NEW and item.source == "tool" and item.reason.startswith("model: ")
    assert len(judge_requests(fake_openai)) == 1


def test_slash_remember_in_a_chat_holds_it(open_chat: OpenChat, fake_openai: FakeOpenAI) -> None:
    chat = open_chat(capture=False)
    agent = chat.engine.agent
    remember(Scope(agent), OLD)
    fake_openai.default_reply = model_judge()
    reply = chat.command(f"/remember {NEW}")
    assert reply.text.startswith("not remembered") and "inbox" in reply.text
    assert NEW not in texts(agent)


def test_a_file_write_tool_in_a_chat_holds_the_contested_line(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    chat = open_chat(capture=False)
    agent = chat.engine.agent
    memory = f"# Memory\n- {OLD}.\n"
    agent.write("MEMORY.md", memory)  # the person's line
    fake_openai.default_reply = model_judge()
    content = f"{memory}- {NEW}.\n- Project Atlas ships in December.\n"
    fake_openai.queue_tool_call(
        "memory_files_write", {"filename": "MEMORY.md", "content": content}, "c1"
    )
    chat.turn("Note my breakfast, and that Atlas ships in December.")
    written = agent.read("MEMORY.md")
    assert f"- {OLD}." in written and "Atlas ships in December" in written
    assert NEW not in written
    (item,) = inbox.open_items(agent, "")
    assert item.new == f"{NEW}." and item.reason.startswith("model: ")
    assert json.loads(_tool_result(chat))["held_in_inbox"][0]["id"] == item.id


def test_a_file_write_keeps_an_edit_the_file_took_while_it_was_judged(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    chat = open_chat(capture=False)
    agent = chat.engine.agent
    memory = f"# Memory\n- {OLD}.\n"
    agent.write("MEMORY.md", memory)
    judged = model_judge()
    edit = "- The person added this line while the model was judging.\n"

    def judge_while_a_person_edits(request: dict[str, object]) -> str:
        if "Memory" in agent.read("MEMORY.md") and edit not in agent.read("MEMORY.md"):
            agent.write("MEMORY.md", agent.read("MEMORY.md") + edit)
        return judged(request)

    fake_openai.default_reply = judge_while_a_person_edits
    content = f"{memory}- {NEW}.\n- Project Atlas ships in December.\n"
    fake_openai.queue_tool_call(
        "memory_files_write", {"filename": "MEMORY.md", "content": content}, "c1"
    )
    chat.turn("Note my breakfast, and that Atlas ships in December.")
    # The person's edit stands, and what the write was let bring in lands beside it.
    assert agent.read("MEMORY.md") == memory + "- Project Atlas ships in December.\n" + edit
    assert json.loads(_tool_result(chat))["action"] == "written"
