"""Long conversations are read whole, dated by their own time, and named by the user's name."""

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from extract.conversations import filler, stamp, talk
from extract.extractkit import Clock, make_agent, model_agent
from memclaw.extract.pipeline import extract_conversation
from memclaw.extract.timeline import conversation_moment, session_time, windows
from memclaw.extract.transcripts import parse_transcript
from memclaw.workspace.logs import read_log
from memclaw.workspace.scope import Scope

LATE = datetime(2026, 12, 10, 16, 40, tzinfo=UTC)
GH = "ghp_" + "Lm2Kq8Nw4Rt6Zb1Vc9Yd3Hs5Jf7Pa0We2Uo"


def _long() -> list[dict[str, str]]:
    start = talk(
        "Hi, I'm Dana Okafor, a data engineer at Northwind Labs.",
        "Hello Dana.",
        "Never deploy on Fridays. Reason: our on-call rotation is thin at weekends.",
        "Understood.",
    )
    end = talk(f"the token for the staging bot is {GH}", "Configured the staging bot.")
    return start + filler(7, 40) + end


def test_windows_cover_everything_with_a_bounded_number_of_calls() -> None:
    assert windows(20, 30, 6, 8).spans == [(0, 20)]
    cut = windows(57, 30, 6, 8)
    assert cut.spans == [(0, 30), (24, 54), (48, 57)]
    huge = windows(1000, 30, 6, 8)
    assert len(huge.spans) == 8 and huge.spans[0][0] == 0 and huge.spans[-1][1] == 1000
    assert all(a[1] > b[0] for a, b in zip(huge.spans, huge.spans[1:], strict=False))


def test_the_conversation_time_comes_from_messages_then_session_then_today() -> None:
    stamped = [{"role": "user", "content": "x", "created_at": "2026-10-14T08:30:00Z"}]
    assert conversation_moment(stamped, None, LATE).day.isoformat() == "2026-10-14"
    assert session_time("20261128-101500-ab12") == datetime(2026, 11, 28, 10, 15, tzinfo=UTC)
    assert session_time("2026-11-28-demo") == datetime(2026, 11, 28, tzinfo=UTC)
    fallback = conversation_moment([{"role": "user", "content": "x"}], "chat-1", LATE)
    assert fallback.when == LATE and fallback.source.startswith("today")


def test_a_transcript_keeps_its_times() -> None:
    text = json.dumps({"date": "2026-11-28", "messages": [{"role": "user", "content": "hi"}]})
    assert parse_transcript(text)[0]["timestamp"] == "2026-11-28"
    lines = json.dumps({"role": "user", "content": "hi", "created_at": 1764316800})
    assert parse_transcript(lines)[0]["timestamp"] == "1764316800"


def test_the_start_of_a_long_conversation_is_not_lost(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    messages = _long()
    assert len(messages) > agent.settings.extract_max_messages
    result = extract_conversation(Scope(agent), messages, force=True)
    texts = [fact.text for fact in result.facts]
    assert any(t.startswith("Dana Okafor is a data engineer at Northwind Labs") for t in texts)
    rule = next(t for t in texts if "Fridays" in t)
    assert rule.startswith("Dana's rule:") and "on-call rotation is thin" in rule
    token = next(t for t in texts if "token" in t)
    assert token.endswith("a token was configured for the staging bot.")
    written = agent.read("PROFILE.md") + agent.read("MEMORY.md")
    assert GH not in written and " is https" not in written


def test_an_old_session_is_dated_by_its_own_day(tmp_path: Path) -> None:
    agent = make_agent(tmp_path, Clock(LATE))
    messages = talk(
        "Other news: Hanna Berg starts Monday as our new backend developer",
        "Welcome Hanna.",
    ) + filler(3, 3)
    result = extract_conversation(
        Scope(agent), messages, session_id="20261128-101500-ab12", force=True
    )
    (fact,) = [f for f in result.facts if "Hanna" in f.text]
    assert "2026-11-30" in fact.text and "2026-12-14" not in fact.text
    assert fact.text.startswith("As of 2026-11-28")
    # The daily note is the conversation's day, under the time it happened.
    assert "memory/2026-11-28.md" in result.files_changed
    assert "## 10:15" in agent.read("memory/2026-11-28.md")
    (record,) = read_log(agent, "extract")
    assert record["conversation_time"] == "2026-11-28T10:15+00:00 from session id"


def test_without_any_time_today_is_used_and_said(tmp_path: Path) -> None:
    agent = make_agent(tmp_path, Clock(LATE))
    extract_conversation(Scope(agent), _long(), force=True)
    (record,) = read_log(agent, "extract")
    assert record["conversation_time"].endswith("from today (the conversation carries no time)")


def test_the_name_in_the_profile_is_used(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    agent.write("PROFILE.md", "# Profile\n\n## Identity\n\n- Sam Whitfield, developer.\n")
    messages = talk("When I paste a traceback, just give me the fix.", "Will do.") + filler(1, 2)
    result = extract_conversation(Scope(agent), messages, force=True)
    assert [f.text for f in result.facts] == [
        "When Sam pastes a traceback, Sam wants just the fix."
    ]


def _model_answer(profile: str) -> dict[str, object]:
    return {
        "should_update": True,
        "reason": "kept",
        "daily_entry": f"- {profile.splitlines()[-1][2:]}",
        "memory_update": "",
        "profile_update": profile,
    }


def test_the_model_reads_every_window_with_what_it_found_so_far(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url, Clock(LATE))
    messages = _long()
    stamp(messages, "2026-11-28T09:00:00+00:00", "timestamp")
    profiles = ["# Profile\n\n## Identity\n"]
    for letter in ("alpha", "bravo", "charlie", "delta", "echo"):  # (no number: nobody said one)
        profiles.append(profiles[-1] + f"- Dana Okafor fact {letter}.\n")
    for profile in profiles[1:]:
        fake_openai.queue_json(_model_answer(profile))
    result = extract_conversation(Scope(agent), messages, force=True)
    requests = [r for r in fake_openai.requests if r.path.endswith("/chat/completions")]
    assert len(requests) == result.windows >= 3
    prompts = [r.body["messages"][1]["content"] for r in requests]
    conversation = [p.split("=== Conversation ===")[1] for p in prompts]
    assert "Dana Okafor" in conversation[0] and "staging bot" in conversation[-1]
    # What window one found is known to window two.
    assert "- Dana Okafor fact alpha." in prompts[1].split("=== Conversation ===")[0]
    for request in requests:
        body = json.dumps(request.body)
        assert GH not in body
        assert "As of 2026-11-28" in request.body["messages"][0]["content"]
    assert "The conversation took place on 2026-11-28; today is 2026-12-10." in prompts[0]
    assert agent.read("PROFILE.md") == profiles[result.windows]
    note = agent.read("memory/2026-11-28.md")
    assert note.count("- Dana Okafor fact") == result.windows
    (record,) = read_log(agent, "extract")
    assert (
        record["windows"] == result.windows and "message timestamps" in record["conversation_time"]
    )


@pytest.mark.parametrize("most", [1, 2])
def test_the_number_of_model_calls_is_capped(
    tmp_path: Path, fake_openai: FakeOpenAI, most: int
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url, extract_max_windows=most)
    for _ in range(most):
        fake_openai.queue_json(_model_answer("# Profile\n\n- Dana.\n"))
    result = extract_conversation(Scope(agent), _long(), force=True)
    assert result.windows == most
    requests = [r for r in fake_openai.requests if r.path.endswith("/chat/completions")]
    assert len(requests) == most
    # Capped or not, the start and the end of the conversation are both read.
    seen = " ".join(r.body["messages"][1]["content"] for r in requests)
    assert "Dana Okafor" in seen and "staging bot" in seen
