"""A model's write through a chat tool passes the settle and the guard (issue 25, point 5)."""

import json
import shutil
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from chat.chatkit import OpenChat, OpenWorkspace, sent_messages
from memclaw.chat import Conversation
from memclaw.facts import inbox
from memclaw.workspace.scope import Scope

MAYA = "- Maya Lindqvist (she/her) lives in Majorna, Gothenburg, Sweden."
PROFILE = f"# Profile\n\n## Identity\n\n{MAYA}\n- Has a dog, Knut.\n"


@pytest.fixture
def chat(open_chat: OpenChat) -> Conversation:
    conversation = open_chat(capture=False)
    conversation.engine.agent.write("PROFILE.md", PROFILE)  # typed by the person
    return conversation


def tool_result(server: FakeOpenAI) -> str:
    content = [m for m in sent_messages(server) if m["role"] == "tool"][-1]["content"]
    assert isinstance(content, str)
    return content


def test_the_readme_example_keeps_the_persons_line_and_writes_the_move_beside_it(
    chat: Conversation, fake_openai: FakeOpenAI
) -> None:
    # Majorna is in Gothenburg: the move contradicts nothing, and the person's line stays.
    edit = {"filename": "PROFILE.md", "old_text": MAYA, "new_text": "- Maya moved to Gothenburg"}
    fake_openai.queue_tool_call("memory_files_edit", edit, "c1")
    fake_openai.queue_text("Noted, beside what you wrote.")
    chat.turn("Remember that I moved to Gothenburg")
    agent = chat.engine.agent
    assert agent.read("PROFILE.md") == PROFILE.replace(MAYA, f"{MAYA}\n- Maya moved to Gothenburg")
    assert inbox.open_items(agent, "") == []
    told = json.loads(tool_result(fake_openai))
    assert told["kept_person_lines"] == [MAYA[2:]]


def test_a_new_city_for_the_persons_line_waits_in_the_inbox(
    chat: Conversation, fake_openai: FakeOpenAI
) -> None:
    edit = {"filename": "PROFILE.md", "old_text": MAYA, "new_text": "- Maya lives in Oslo"}
    fake_openai.queue_tool_call("memory_files_edit", edit, "c1")
    fake_openai.queue_text("That waits in your inbox.")
    chat.turn("Remember that I live in Oslo")
    agent = chat.engine.agent
    assert agent.read("PROFILE.md") == PROFILE
    (item,) = inbox.open_items(agent, "")
    assert (item.old, item.new, item.source) == (MAYA[2:], "Maya lives in Oslo", "tool")
    told = json.loads(tool_result(fake_openai))
    assert told["action"] == "held" and told["kept_person_lines"] == [MAYA[2:]]
    assert told["held_in_inbox"][0]["id"] == item.id and "inbox" in told["note"]


def test_a_whole_file_rewrite_cannot_drop_or_reword_a_persons_line(
    chat: Conversation, fake_openai: FakeOpenAI
) -> None:
    content = "# Profile\n\n## Identity\n\n- Maya lives in Gothenburg.\n- Likes green tea.\n"
    fake_openai.queue_tool_call(
        "memory_files_write", {"filename": "PROFILE.md", "content": content}, "c1"
    )
    fake_openai.queue_text("Done.")
    chat.turn("Tidy up my profile please, and note that I like green tea.")
    profile = chat.engine.agent.read("PROFILE.md")
    assert MAYA in profile and "- Has a dog, Knut." in profile
    assert "- Likes green tea." in profile  # what contradicts nothing is written
    told = json.loads(tool_result(fake_openai))
    assert told["action"] == "written"
    assert set(told["kept_person_lines"]) == {MAYA[2:], "Has a dog, Knut."}


def test_removing_a_persons_line_is_refused_and_the_model_is_told(
    chat: Conversation, fake_openai: FakeOpenAI
) -> None:
    edit = {"filename": "PROFILE.md", "old_text": "- Has a dog, Knut.\n", "new_text": ""}
    fake_openai.queue_tool_call("memory_files_edit", edit, "c1")
    fake_openai.queue_text("I may not remove that.")
    chat.turn("Clean up the profile.")
    assert chat.engine.agent.read("PROFILE.md") == PROFILE
    told = tool_result(fake_openai)
    assert told.startswith("error: refused: a person wrote") and "Knut" in told


def test_a_value_the_person_corrects_in_the_turn_changes_alone(
    chat: Conversation, fake_openai: FakeOpenAI
) -> None:
    edit = {"filename": "PROFILE.md", "old_text": "Majorna", "new_text": "Linnéstaden"}
    fake_openai.queue_tool_call("memory_files_edit", edit, "c1")
    fake_openai.queue_text("Updated.")
    chat.turn("Actually I live in Linnéstaden now, not Majorna.")
    agent = chat.engine.agent
    corrected = MAYA.replace("Majorna", "Linnéstaden")
    assert agent.read("PROFILE.md") == PROFILE.replace(MAYA, corrected)
    assert inbox.open_items(agent, "") == []
    told = json.loads(tool_result(fake_openai))
    assert told["action"] == "written" and told["corrected_on_the_persons_word"] == 1
    # the corrected line is still the person's: a later model rewording is refused
    again = {"filename": "PROFILE.md", "old_text": corrected, "new_text": "- Maya: Linnéstaden"}
    fake_openai.queue_tool_call("memory_files_edit", again, "c2")
    fake_openai.queue_text("Kept.")
    chat.turn("Make the profile shorter.")
    assert corrected in agent.read("PROFILE.md")


def test_the_same_value_change_without_the_persons_correction_waits_in_the_inbox(
    chat: Conversation, fake_openai: FakeOpenAI
) -> None:
    edit = {"filename": "PROFILE.md", "old_text": "Majorna", "new_text": "Linnéstaden"}
    fake_openai.queue_tool_call("memory_files_edit", edit, "c1")
    fake_openai.queue_text("Noted.")
    chat.turn("We were looking at flats in Linnéstaden today.")
    agent = chat.engine.agent
    assert agent.read("PROFILE.md") == PROFILE
    (item,) = inbox.open_items(agent, "")
    assert item.new == MAYA[2:].replace("Majorna", "Linnéstaden")


def test_on_a_fresh_clone_of_the_demo_every_line_is_the_persons(
    open_ws: OpenWorkspace, fake_openai: FakeOpenAI
) -> None:
    """The demo as git ships it: nothing beside its files says who wrote a line."""
    ws = open_ws()
    demo = Path(__file__).parents[2] / "workspaces" / "demo"
    shipped = shutil.copytree(demo, ws.root / "demo", ignore=shutil.ignore_patterns(".memclaw"))
    (shipped / ".memclaw").mkdir()
    shutil.copy(demo / ".memclaw" / "agent.yaml", shipped / ".memclaw" / "agent.yaml")
    chat = Conversation.open(Scope(ws.agent("demo")), capture=False)
    profile = chat.engine.agent.read("PROFILE.md")
    assert MAYA in profile.splitlines()
    fake_openai.queue_tool_call("memory_store", {"text": "Maya moved to Gothenburg"}, "c1")
    edit = {"filename": "PROFILE.md", "old_text": MAYA, "new_text": "- Maya lives in Oslo"}
    fake_openai.queue_tool_call("memory_files_edit", edit, "c2")
    fake_openai.queue_text("Noted; Oslo waits in your inbox.")
    chat.turn("Remember that I moved to Gothenburg, and that I live in Oslo")
    assert chat.engine.agent.read("PROFILE.md") == profile
    (item,) = inbox.open_items(chat.engine.agent, "")
    assert (item.old, item.new) == (MAYA[2:], "Maya lives in Oslo")
    chat.close(wait=5)
