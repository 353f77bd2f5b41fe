"""Session keys as multi-agent hosts write them, and agentId on the memory tools."""

import json
from typing import Any

import pytest
from fake_openai import FakeOpenAI

from chat.chatkit import OpenChat, OpenWorkspace, sent_messages, small_agent
from memclaw.chat.schemas import tool_schemas
from memclaw.chat.tools import ToolBox
from memclaw.errors import AgentNotFoundError
from memclaw.extract.pipeline import extract_conversation
from memclaw.gates.session_key import parse_session_key
from memclaw.llm import ToolCall
from memclaw.workspace.agent import Agent
from memclaw.workspace.scope import Scope


@pytest.mark.parametrize(
    ("key", "agent", "subagent", "automated"),
    [
        ("20261129-103000-ab12", None, False, False),
        ("agent:researcher:9b1c", "researcher", False, False),
        ("agent:main:9b1c", "main", False, False),
        ("agent:main:subagent:77aa", "main", True, False),
        ("agent:writer:subagent:77aa", "writer", True, False),
        ("agent:main:cron:nightly", "main", False, True),
        ("agent:pal:heartbeat:1", "pal", False, True),
        ("cron:backup", None, False, True),
        ("agent:main:subagent", "main", False, False),  # no uuid: not a subagent key
        ("agent::x", None, False, False),
    ],
)
def test_every_session_key_shape(key: str, agent: str, subagent: bool, automated: bool) -> None:
    parsed = parse_session_key(key)
    assert (parsed.agent, parsed.subagent, parsed.automated) == (agent, subagent, automated)
    assert parsed.agent_or("pal") == (agent if agent not in (None, "main") else "pal")


def test_an_agent_key_selects_that_agents_namespace(
    open_ws: OpenWorkspace, fake_openai: FakeOpenAI
) -> None:
    ws = open_ws()
    pal, researcher = small_agent(ws), small_agent(ws, "researcher")
    researcher.write("MEMORY.md", "# Memory\n- The researcher tracks arXiv daily.\n")
    from memclaw.chat import Conversation

    conversation = Conversation.open(
        Scope.resolve(pal, "user:maya"), session_id="agent:researcher:9b1c"
    )
    conversation.turn("hello")
    conversation.close(wait=5)
    assert conversation.session.agent.id == "researcher"
    assert conversation.session.path.is_relative_to(researcher.path)
    assert conversation.session.owner == "user:maya"
    assert "tracks arXiv daily" in sent_messages(fake_openai)[0]["content"]
    assert not conversation.session.subagent


def test_main_and_plain_keys_stay_with_the_named_agent(open_chat: OpenChat) -> None:
    for key in ("agent:main:1234", "plain-id"):
        conversation = open_chat(session_id=key)
        assert conversation.session.agent.id == "pal"
        conversation.close(wait=5)


def test_an_unknown_agent_in_the_key_is_one_clear_error(open_chat: OpenChat) -> None:
    with pytest.raises(AgentNotFoundError, match="nobody"):
        open_chat(session_id="agent:nobody:1234")


def test_a_subagent_key_recalls_from_the_parent_and_captures_nothing(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat(session_id="agent:pal:subagent:77aa", owner="user:maya")
    conversation.turn("What ships in December?")
    conversation.close(wait=5)
    session = conversation.session
    assert session.subagent and not session.captures
    system = sent_messages(fake_openai)[0]["content"]
    assert "You are a subagent" in system
    assert "Project Atlas ships in December" in system
    names = {t["function"]["name"] for t in conversation.engine.tools.schemas}
    assert "memory_store" not in names and "memory_files_write" not in names
    assert not conversation.extractor.active


def test_a_cron_key_neither_recalls_nor_captures(open_chat: OpenChat) -> None:
    conversation = open_chat(session_id="agent:main:cron:nightly")
    assert not conversation.engine.recall_enabled
    assert not conversation.session.captures
    conversation.close(wait=5)


def test_extraction_never_takes_a_subagents_session(agent: Agent) -> None:
    messages = [
        {"role": "user", "content": "I moved to Lisbon last month, remember that please."},
        {"role": "assistant", "content": "Noted."},
    ] * 3
    result = extract_conversation(
        Scope(agent), messages, session_id="agent:pal:subagent:1", force=True
    )
    assert "subagent" in result.reason
    assert "Lisbon" not in agent.read("MEMORY.md")


# --- agentId on the tools ------------------------------------------------------------


def _call(box: ToolBox, name: str, **arguments: Any) -> Any:
    record = box.run(ToolCall("c1", name, arguments, json.dumps(arguments)))
    return json.loads(record.result) if record.ok else record.result


@pytest.fixture
def two_agents(open_ws: OpenWorkspace) -> tuple[Agent, Agent]:
    ws = open_ws()
    return small_agent(ws), small_agent(ws, "researcher")


def test_every_tool_offers_agent_id(two_agents: tuple[Agent, Agent]) -> None:
    for schema in tool_schemas(Scope(two_agents[0])):
        assert "agentId" in schema["function"]["parameters"]["properties"]


def test_agent_id_reaches_the_same_owners_memory_of_another_agent(
    two_agents: tuple[Agent, Agent],
) -> None:
    pal, researcher = two_agents
    box = ToolBox(Scope.resolve(pal, "user:maya"), "s1")
    stored = _call(box, "memory_store", text="Maya reads papers on Fridays", agentId="researcher")
    assert stored["action"] == "added"
    mine = Scope.resolve(researcher, "user:maya")
    assert "Maya reads papers" in mine.read("entries/other.md") or any(
        "Maya reads papers" in p.read_text() for p in (mine.folder / "entries").glob("*.md")
    )
    listed = _call(box, "memory_list", agentId="researcher")
    assert [m["text"] for m in listed["memories"]] == ["Maya reads papers on Fridays"]
    assert _call(box, "memory_list")["count"] == 0  # pal's own memory is untouched


def test_agent_id_never_escapes_the_owner(two_agents: tuple[Agent, Agent]) -> None:
    pal, researcher = two_agents
    Scope.resolve(researcher, "user:bob").write("MEMORY.md", "# Bob\n- Bob's PIN hint is owl.\n")
    box = ToolBox(Scope.resolve(pal, "user:maya"), "s1")
    bob_file = "owners/user%3Abob/MEMORY.md"
    assert "another person" in _call(
        box, "memory_files_read", filename=bob_file, agentId="researcher"
    )
    hits = _call(box, "memory_files_search", query="owl PIN", agentId="researcher")
    assert hits["hits"] == []
    for bad in ("../pal", "researcher/owners", "/etc"):
        assert _call(box, "memory_list", agentId=bad).startswith("error:")
    listed = _call(box, "memory_files_list", agentId="researcher")
    assert not any("bob" in f["name"] for f in listed["files"])


def test_the_chat_command_follows_the_key_to_its_agent(
    open_ws: OpenWorkspace, fake_openai: FakeOpenAI
) -> None:
    from typer.testing import CliRunner

    from memclaw.cli.app import app

    ws = open_ws()
    small_agent(ws)
    small_agent(ws, "researcher")
    fake_openai.queue_text("hello from the researcher")
    args = ["--set", f"base_url={fake_openai.base_url}", "--set", "api_key=test"]
    result = CliRunner().invoke(
        app,
        [*args, "chat", "pal", "-m", "hi", "--session", "agent:researcher:9b1c", "--json"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert (ws.root / "researcher" / "sessions" / "agent:researcher:9b1c.jsonl").is_file()
    assert not list((ws.root / "pal" / "sessions").glob("*.jsonl"))
    extracted = CliRunner().invoke(
        app,
        ["extract", "pal", "--session", "agent:researcher:9b1c", "--dry-run", "--json"],
        catch_exceptions=False,
    )
    assert extracted.exit_code == 0, extracted.output
    assert json.loads(extracted.stdout)["agent"] == "researcher"
