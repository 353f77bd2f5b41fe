"""Issue 27: an event told with a relative day keeps the event and its absolute date.

"I moved to Lisbon yesterday", said on 2026-10-05, is kept as "User moved to Lisbon on
2026-10-04": the day is counted from the message's own time (its timestamp, else the
session's date), offline and in what the model is told.
"""

import json
from pathlib import Path

from fake_openai import FakeOpenAI

from extract.extractkit import Clock, make_agent, model_agent
from memclaw.extract.offline.engine import extract_facts
from memclaw.extract.pipeline import extract_conversation
from memclaw.extract.result import Status
from memclaw.extract.transcripts import parse_transcript
from memclaw.workspace.scope import Scope

# Said over a week; extracted long after, on 2026-11-20.
TRANSCRIPT = "\n".join(
    json.dumps(m)
    for m in [
        {
            "role": "user",
            "content": "I moved to Lisbon yesterday.",
            "timestamp": "2026-10-05T09:30:00+01:00",
        },
        {"role": "assistant", "content": "Welcome to Lisbon!", "timestamp": "2026-10-05T09:31"},
        {
            "role": "user",
            "content": "I started at Cloudflare last Friday.",
            "timestamp": "2026-10-12T08:00:00+01:00",
        },
        {"role": "assistant", "content": "Congratulations!"},
        {
            "role": "user",
            "content": "We switched the billing service to Postgres two weeks ago.",
            "timestamp": "2026-10-12T08:05:00+01:00",
        },
    ]
)


def _later() -> Clock:
    from datetime import UTC, datetime

    return Clock(datetime(2026, 11, 20, 12, 0, tzinfo=UTC))


def test_offline_extraction_dates_each_event_from_its_own_turn(tmp_path: Path) -> None:
    agent = make_agent(tmp_path, _later())
    result = extract_conversation(Scope(agent), parse_transcript(TRANSCRIPT))
    assert result.status is Status.WRITTEN
    profile, memory = agent.read("PROFILE.md"), agent.read("MEMORY.md")
    assert "- User moved to Lisbon on 2026-10-04." in profile
    assert "based in Lisbon" not in profile
    # Said on Monday 2026-10-12: last Friday is 2026-10-09, not a Friday before 2026-11-20.
    assert "- User joined Cloudflare on 2026-10-09." in profile
    assert "switched the billing service to Postgres on 2026-09-28" in memory


def test_without_timestamps_the_session_date_counts(tmp_path: Path) -> None:
    agent = make_agent(tmp_path, _later())
    chat = [
        {"role": "user", "content": "Hi, some news first."},
        {"role": "assistant", "content": "Go ahead."},
        {"role": "user", "content": "I moved to Lisbon yesterday."},
        {"role": "assistant", "content": "Welcome to Lisbon!"},
    ]
    result = extract_conversation(Scope(agent), chat, session_id="20261005-093000-ab12")
    assert result.status is Status.WRITTEN, result.reason
    assert "- User moved to Lisbon on 2026-10-04." in agent.read("PROFILE.md")


def test_relative_days_in_an_event_become_absolute() -> None:
    said = "2026-10-05"  # a Monday

    def fact(text: str) -> list[str]:
        return [f.text for f in extract_facts([{"role": "user", "content": text}], said).facts]

    assert fact("Yesterday I moved to Lisbon!") == ["User moved to Lisbon on 2026-10-04."]
    assert fact("I got promoted to staff engineer two weeks ago.") == [
        "User was promoted to staff engineer on 2026-09-21."
    ]
    assert fact("I moved to Berlin last week.") == [
        "User moved to Berlin in the week of 2026-09-28."
    ]
    # Two events, two days: each takes the day said in its own clause.
    assert fact("I moved to Lisbon yesterday and I joined Cloudflare today.") == [
        "User joined Cloudflare on 2026-10-05 and moved to Lisbon on 2026-10-04."
    ]
    # Without a day the move is where the user lives now.
    assert fact("I moved to Lisbon.") == ["User is based in Lisbon."]


def test_the_model_is_told_each_turns_time_and_to_write_absolute_dates(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url, _later())
    fake_openai.queue_json(
        {
            "should_update": False,
            "reason": "nothing new",
            "daily_entry": "",
            "memory_update": "",
            "profile_update": "",
        }
    )
    extract_conversation(Scope(agent), parse_transcript(TRANSCRIPT))
    system, user = (m["content"] for m in fake_openai.last_request().body["messages"])
    assert "absolute date" in system and "that message's own day, never from today" in system
    assert "moved to Lisbon on 2026-10-04" in system
    assert "USER [2026-10-05 Mon 09:30]: I moved to Lisbon yesterday." in user
    assert "USER [2026-10-12 Mon 08:00]: I started at Cloudflare last Friday." in user
    # A turn without its own time shows its day (taken from the turn before it).
    assert "ASSISTANT [2026-10-12 Mon]: Congratulations!" in user


def test_a_move_told_in_swedish_or_german_keeps_its_day() -> None:
    said = "2026-10-05"

    def fact(text: str) -> list[str]:
        return [f.text for f in extract_facts([{"role": "user", "content": text}], said).facts]

    assert fact("Jag flyttade till Umeå igår.") == ["Användaren flyttade till Umeå den 2026-10-04."]
    assert fact("Ich bin gestern nach Berlin gezogen.") == [
        "Der Nutzer ist am 2026-10-04 nach Berlin gezogen."
    ]


def test_week_and_weekend_spans_read_as_english() -> None:
    def fact(text: str) -> list[str]:
        said = [{"role": "user", "content": text}]
        return [f.text for f in extract_facts(said, "2026-10-05").facts]

    assert fact("We decided to ship the release this weekend.") == [
        "As of 2026-10-05, the team decided to ship the release on the weekend of 2026-10-10."
    ]
    assert fact("We decided to move the launch to next week.") == [
        "As of 2026-10-05, the team decided to move the launch to the week of 2026-10-12."
    ]
