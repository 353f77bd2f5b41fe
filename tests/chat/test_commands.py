"""Slash commands through the library: what each one does and says."""

import json

from fake_openai import FakeOpenAI

from chat.chatkit import OpenChat
from memclaw.chat import is_command


def test_is_command() -> None:
    assert is_command("/remember x")
    assert not is_command("// a comment about paths")
    assert not is_command("hello /remember")


def test_remember_forget_and_memory(open_chat: OpenChat) -> None:
    conversation = open_chat(owner="user:maya")
    added = conversation.command("/remember Maya takes the 07:42 train on Mondays")
    assert added.text.startswith("added m-") and not added.error
    memory_id = added.text.split()[1]
    shown = conversation.command("/memory")
    assert shown.markdown and memory_id in shown.text and "Project Atlas" in shown.text
    gone = conversation.command(f"/forget {memory_id}", ask=lambda _question: True)
    assert [text for _id, text in gone.rows] == ["Maya takes the 07:42 train on Mondays"]
    assert memory_id not in conversation.command("/memory").text
    again = conversation.command("/forget --yes the 07:42 train")
    assert "nothing in memory matches" in again.text
    ops = [op["op"] for op in conversation.engine.memory_operations]
    conversation.close(wait=5)
    assert ops == ["store", "forget"]
    agent = conversation.engine.agent
    files = [p for p in agent.path.rglob("entries/*.md") if ".memclaw" not in p.parts]
    assert files and "07:42" not in "".join(p.read_text() for p in files)


def test_search_profile_prompt_and_tokens(open_chat: OpenChat) -> None:
    conversation = open_chat()
    conversation.engine.agent.append_daily("Picked Procrastinate for the job queue.")
    found = conversation.command("/search Procrastinate")
    assert found.rows and found.rows[0][0].startswith("memory/")
    assert "Name: Maya" in conversation.command("/profile").text
    assert "--- MEMORY.md ---" in conversation.command("/prompt").text
    tokens = conversation.command("/tokens")
    parts = [left for left, _right in tokens.rows]
    assert parts[0] == "system" and "tool definitions" in parts and parts[-1] == "total"
    assert "128,000-token window" in tokens.title
    conversation.close(wait=5)


def test_dream_previews_by_default(open_chat: OpenChat, fake_openai: FakeOpenAI) -> None:
    conversation = open_chat()
    reply = conversation.command("/dream")
    conversation.close(wait=5)
    assert reply.text.startswith("dream idle")
    assert not reply.error
    assert conversation.command("/dream sideways").error


def test_help_exit_and_unknown(open_chat: OpenChat) -> None:
    conversation = open_chat()
    names = [left.split()[0] for left, _ in conversation.command("/help").rows]
    assert names == [
        "/remember",
        "/forget",
        "/undo",
        "/search",
        "/good",
        "/bad",
        "/memory",
        "/profile",
        "/prompt",
        "/tokens",
        "/dream",
        "/why",
        "/morning",
        "/help",
        "/exit",
    ]
    assert conversation.command("/exit").exit
    assert conversation.command("/quit").exit
    assert conversation.command("/nope").error
    conversation.close(wait=5)


def test_subagents_cannot_write_with_commands(open_chat: OpenChat) -> None:
    conversation = open_chat(subagent=True)
    for line in ("/remember x is y", "/forget x", "/dream apply"):
        reply = conversation.command(line)
        assert reply.error and "subagent" in reply.text
    conversation.close(wait=5)


def test_a_secret_is_refused_by_remember(open_chat: OpenChat) -> None:
    conversation = open_chat()
    secret = "sk-" + "proj-" + "Zx9" * 12
    reply = conversation.command(f"/remember my key is {secret}")
    conversation.close(wait=5)
    assert reply.error and "secret" in reply.text


def test_forget_in_a_chat_reaches_its_own_transcript_and_context(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    agent = conversation.engine.agent
    agent.write("MEMORY.md", agent.read("MEMORY.md") + "- Maya is pregnant, due in May.\n")
    fake_openai.queue_text("Congratulations on being pregnant!")
    conversation.turn("Big news: I'm pregnant. Keep answers short today.")
    path = conversation.session.path
    assert "pregnant" in path.read_text()

    # The chat holds this transcript open.
    gone = conversation.command("/forget pregnant", ask=lambda _question: True)
    assert [text for _id, text in gone.rows] == ["Maya is pregnant, due in May."]
    assert "pregnant" not in path.read_text() + agent.read("MEMORY.md")
    assert "Keep answers short today." in path.read_text()
    fake_openai.queue_text("Noted.")
    conversation.turn("Thanks.")
    sent = json.dumps(fake_openai.last_request().body["messages"])
    assert "pregnant" not in sent  # the next turn's context no longer carries it
    conversation.close(wait=5)


def test_forget_asks_first_and_removes_nothing_on_no_or_without_a_terminal(
    open_chat: OpenChat,
) -> None:
    conversation = open_chat()
    agent = conversation.engine.agent
    agent.write("MEMORY.md", agent.read("MEMORY.md") + "- Maya is pregnant, due in May.\n")
    asked: list[str] = []

    def no(question: str) -> bool:
        asked.append(question)
        return False

    kept = conversation.command("/forget pregnant", ask=no)
    assert kept.text == "nothing forgotten" and "pregnant" in agent.read("MEMORY.md")
    assert asked and "Maya is pregnant, due in May." in asked[0] and asked[0].endswith("?")
    refused = conversation.command("/forget pregnant")  # piped: nobody to ask
    assert refused.error and "--yes" in refused.text and "pregnant" in agent.read("MEMORY.md")
    gone = conversation.command("/forget --yes pregnant")
    assert not gone.error and "pregnant" not in agent.read("MEMORY.md")
    conversation.close(wait=5)


def test_undo_in_chat_reverts_the_last_change_and_shows_what_it_did(open_chat: OpenChat) -> None:
    from memclaw.facts.ledger import facts_of

    conversation = open_chat()
    scope = conversation.engine.scope
    conversation.command("/remember Maya lives in Oslo")
    before = [f.to_dict() for f in facts_of(scope)]
    conversation.command("/remember Correction: Maya lives in Bergen")

    undone = conversation.command("/undo")

    assert not undone.error and undone.title.startswith("undid the remember")
    assert any("Maya lives in Bergen → Maya lives in Oslo" in text for _f, text in undone.rows)
    assert [f.to_dict() for f in facts_of(scope)] == before
    assert "/undo" in [left.split()[0] for left, _ in conversation.command("/help").rows]
    conversation.close(wait=5)
