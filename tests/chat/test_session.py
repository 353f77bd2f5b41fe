"""Sessions: ids, where transcripts live, resuming, torn lines, the session lock."""

import json
import re

import pytest

from memclaw.chat.session import ChatSession, latest_session, read_transcript
from memclaw.errors import LockBusyError, UsageError, WorkspaceError
from memclaw.workspace.agent import Agent
from memclaw.workspace.scope import Scope


def test_new_session_id_is_dated_and_written_per_turn(agent: Agent) -> None:
    with ChatSession.open(Scope(agent)) as session:
        assert re.fullmatch(r"20261129-103000-[0-9a-f]{4}", session.id)
        assert not session.path.exists()
        session.append([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}])
    lines = session.path.read_text().splitlines()
    assert [json.loads(line)["role"] for line in lines] == ["user", "assistant"]
    assert session.path == agent.path / "sessions" / f"{session.id}.jsonl"


def test_owner_sessions_live_in_the_owners_folder_and_resume_only_their_own(agent: Agent) -> None:
    with ChatSession.open(Scope.resolve(agent, "user:alice"), session_id="a-1") as alice:
        alice.append([{"role": "user", "content": "private"}])
    with ChatSession.open(Scope.resolve(agent, "user:bob"), session_id="b-1") as bob:
        bob.append([{"role": "user", "content": "mine"}])
    assert "owners/" in alice.path.relative_to(agent.path).as_posix()
    assert latest_session(Scope.resolve(agent, "user:alice")) == "a-1"
    assert latest_session(Scope.resolve(agent, "user:bob")) == "b-1"
    assert latest_session(Scope(agent)) is None
    with ChatSession.open(Scope.resolve(agent, "user:bob"), resume=True) as resumed:
        assert resumed.id == "b-1"
        assert [m["content"] for m in resumed.messages] == ["mine"]


def test_resume_picks_the_newest_session(agent: Agent) -> None:
    folder = agent.path / "sessions"
    folder.mkdir()
    (folder / "old.jsonl").write_text('{"role": "user", "content": "old"}\n')
    (folder / "new.jsonl").write_text('{"role": "user", "content": "new"}\n')
    import os

    os.utime(folder / "old.jsonl", (1, 1))
    with ChatSession.open(Scope(agent), resume=True) as session:
        assert session.id == "new"
        assert session.resumed


def test_resume_without_sessions_says_how_to_start(agent: Agent) -> None:
    with pytest.raises(UsageError, match="no session to resume"):
        ChatSession.open(Scope(agent), resume=True)


def test_a_torn_last_line_is_dropped_and_cut_from_the_file(agent: Agent) -> None:
    path = agent.path / "sessions" / "s1.jsonl"
    path.parent.mkdir()
    good = '{"role": "user", "content": "one"}\n{"role": "assistant", "content": "two"}\n'
    path.write_text(good + '{"role": "user", "cont')
    with ChatSession.open(Scope(agent), session_id="s1") as session:
        assert [m["content"] for m in session.messages] == ["one", "two"]
        session.append([{"role": "user", "content": "three"}])
    messages, torn = read_transcript(path)
    assert torn is None
    assert [m["content"] for m in messages] == ["one", "two", "three"]


def test_a_broken_line_in_the_middle_is_an_error_naming_the_line(agent: Agent) -> None:
    path = agent.path / "sessions" / "s2.jsonl"
    path.parent.mkdir()
    line = '{"role": "user", "content": "one"}\n'
    path.write_text(line + "not json\n" + line)
    with pytest.raises(WorkspaceError, match=r"s2.jsonl:2"):
        ChatSession.open(Scope(agent), session_id="s2")


@pytest.mark.parametrize("ending", ["\n", ""])
def test_a_deeply_nested_line_is_an_error_and_never_cut_away(agent: Agent, ending: str) -> None:
    path = agent.path / "sessions" / "s3.jsonl"
    path.parent.mkdir()
    text = '{"role": "user", "content": "one"}\n{"role": "user", "content": '
    text += "[" * 5000 + "]" * 5000 + "}" + ending
    path.write_text(text)
    with pytest.raises(WorkspaceError, match=r"s3.jsonl:2: .*nested deeper than 64 levels"):
        ChatSession.open(Scope(agent), session_id="s3")
    assert path.read_text() == text


def test_unanswered_tool_calls_are_dropped_on_load(agent: Agent) -> None:
    path = agent.path / "sessions" / "s3.jsonl"
    path.parent.mkdir()
    call = {"id": "c1", "type": "function", "function": {"name": "memory_list", "arguments": "{}"}}
    rows = [
        {"role": "user", "content": "list"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "user", "content": "again"},
        {"role": "tool", "tool_call_id": "zz", "content": "orphan"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with ChatSession.open(Scope(agent), session_id="s3") as session:
        assert [m["role"] for m in session.messages] == ["user", "user"]


def test_one_session_cannot_be_open_twice(agent: Agent) -> None:
    with (
        ChatSession.open(Scope(agent), session_id="busy"),
        pytest.raises(LockBusyError, match="open in another memclaw chat"),
    ):
        ChatSession.open(Scope(agent), session_id="busy")
    with ChatSession.open(Scope(agent), session_id="busy"):
        pass


@pytest.mark.parametrize("bad", ["../x", "a/b", "", ".hidden"])
def test_unsafe_session_ids_are_refused(agent: Agent, bad: str) -> None:
    with pytest.raises(UsageError):
        ChatSession.open(Scope(agent), session_id=bad or "..")


def test_session_and_resume_together_are_a_usage_error(agent: Agent) -> None:
    with pytest.raises(UsageError, match="not both"):
        ChatSession.open(Scope(agent), session_id="x", resume=True)


def test_captures_is_false_for_subagents_and_scheduled_runs(agent: Agent) -> None:
    with ChatSession.open(Scope(agent), subagent=True) as s:
        assert not s.captures
    with ChatSession.open(Scope(agent), trigger="cron") as s:
        assert not s.captures
    with ChatSession.open(Scope(agent), session_id="cron:nightly") as s:
        assert not s.captures
    with ChatSession.open(Scope(agent), trigger="chat") as s:
        assert s.captures


def test_tool_call_arguments_are_redacted_as_json(agent: Agent) -> None:
    from secretkit import GITHUB

    arguments = json.dumps({"content": f"token {GITHUB}", "note": 'say "hi"'})
    call = {"id": "c1", "type": "function", "function": {"name": "x", "arguments": arguments}}
    with ChatSession.open(Scope(agent)) as session:
        session.append([{"role": "assistant", "content": None, "tool_calls": [call]}])
    raw = session.path.read_text()
    assert GITHUB not in raw
    (message,) = [json.loads(line) for line in raw.splitlines()]
    stored = json.loads(message["tool_calls"][0]["function"]["arguments"])
    assert stored["note"] == 'say "hi"' and "[REDACTED:" in stored["content"]
