"""Tests for the noise gate: message-level noise, generic acks, fragments and the pipeline."""

from __future__ import annotations

import pytest

from memclaw.gates import (
    AUTOMATED_TRIGGERS,
    TRUNCATION_MARKER,
    content_text,
    filter_messages,
    is_automated_session,
    is_generic_assistant_ack,
    is_noise_message,
    strip_noise_fragments,
)


def user(content: object) -> dict[str, object]:
    return {"role": "user", "content": content}


def assistant(content: object) -> dict[str, object]:
    return {"role": "assistant", "content": content}


# ---------------------------------------------------------------------------------------------
# content_text
# ---------------------------------------------------------------------------------------------


def test_content_text_plain_string_and_none() -> None:
    assert content_text(user("hello")) == "hello"
    assert content_text(user(None)) == ""
    assert content_text({"role": "user"}) == ""


def test_content_text_flattens_part_lists() -> None:
    msg = user(
        [
            {"type": "text", "text": "first"},
            {"type": "image_url", "image_url": {"url": "https://example.com/x.png"}},
            {"type": "input_text", "text": "second"},
            "third",
            {"type": "text", "text": ""},
            {"type": "text"},
            42,
        ]
    )
    assert content_text(msg) == "first\nsecond\nthird"


def test_content_text_ignores_unexpected_types() -> None:
    assert content_text(user(123)) == ""
    assert content_text(user({"type": "text", "text": "x"})) == ""


# ---------------------------------------------------------------------------------------------
# is_noise_message: one test per category
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    ["HEARTBEAT_OK", "NO_REPLY", "HEARTBEAT", "heartbeat_ok", "[heartbeat] 2026-11-29 10:00 ok"],
)
def test_heartbeat_markers_are_noise(content: str) -> None:
    assert is_noise_message(user(content))
    assert is_noise_message(assistant(content))


@pytest.mark.parametrize(
    "content",
    [
        "2026-11-29",
        "2026-11-29T10:00:00Z",
        "2026-11-29 10:00:00 UTC",
        "12:34",
        "12:34:56",
        "[2026-11-29 10:00]",
        "Sat 2026-11-29 10:00 CET",
        "1764410400",
        "10:30 pm",
    ],
)
def test_bare_timestamps_are_noise(content: str) -> None:
    assert is_noise_message(user(content))


@pytest.mark.parametrize(
    "content",
    [
        "ok", "OK.", "okay", "k", "sure", "done", "thanks", "Thanks!", "thx", "ty", "yes",
        "no", "yep", "nope", "cool", "great", "nice", "👍", "🙏🙏", "!!", "ok thanks",
        "thank you!", "got it", "sounds good", "tack", "tack så mycket", "ja", "nej", "okej",
        "toppen", "好的", "好的谢谢", "了解", "收到", "谢谢！", "はい", "danke", "merci",
        "gracias", "okthanks",
    ],
)  # fmt: skip
def test_one_word_acknowledgements_are_noise(content: str) -> None:
    assert is_noise_message(user(content))


@pytest.mark.parametrize(
    "content",
    [
        "[from: telegram:123]",
        "[from: telegram:123] [channel: #ops]",
        "channel: #ops\nfrom: telegram:123",
        "[message_id: 991]\n[thread_id: 5]",
        "chat_id: -100123456",
    ],
)
def test_routing_metadata_alone_is_noise(content: str) -> None:
    assert is_noise_message(user(content))


@pytest.mark.parametrize(
    "content",
    [
        "[compaction] Summary of earlier conversation was compacted (42 messages).",
        "Summary of earlier conversation was compacted to save context.",
        "[auto-compaction] compacted 40 messages into 1 summary\nkept: 12 messages",
        "The conversation was compacted.",
        "<compaction>\n40 messages summarised\n</compaction>",
    ],
)
def test_compaction_audit_logs_are_noise(content: str) -> None:
    assert is_noise_message({"role": "system", "content": content})
    assert is_noise_message(user(content))


def test_tool_messages_are_noise() -> None:
    assert is_noise_message({"role": "tool", "content": '{"ok": true}', "tool_call_id": "1"})
    assert is_noise_message({"role": "tool", "content": None})
    assert is_noise_message({"role": "function", "content": "result"})


def test_system_messages_without_user_facing_content_are_noise() -> None:
    assert is_noise_message({"role": "system", "content": ""})
    assert is_noise_message({"role": "system", "content": "[from: webchat:1]\nHEARTBEAT_OK"})
    assert is_noise_message({"role": "system", "content": "2026-11-29 10:00"})
    assert not is_noise_message({"role": "system", "content": "User timezone is Europe/Stockholm"})


def test_media_only_and_empty_messages_are_noise() -> None:
    assert is_noise_message(user("<media:image>"))
    assert is_noise_message(user("[image attached]"))
    assert is_noise_message(user([{"type": "image_url", "image_url": {"url": "x"}}]))
    assert is_noise_message(user("   \n  "))
    assert is_noise_message(user(None))


@pytest.mark.parametrize(
    "content",
    [
        "I moved to Stockholm last week",
        "Stockholm",
        "no, use Postgres",
        "ok so the deploy target is Fly.io now",
        "12:34 is when the standup starts",
        "Source: the docs say the limit is 4096",
        "Tack, jag föredrar svenska svar.",
        "好的，我们用 PostgreSQL。",
        "My heartbeat interval is 10 minutes",
        "<media:image> this is my new desk setup",
        "thanks, and remember that Anna owns the frontend",
    ],
)
def test_useful_messages_are_not_noise(content: str) -> None:
    assert not is_noise_message(user(content))


# ---------------------------------------------------------------------------------------------
# is_generic_assistant_ack
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        "I see you've shared an update. How can I help?",
        "Got it! Let me know if there's anything else.",
        "Sure, happy to help!",
        "Thanks for sharing! 😊",
        "You're welcome! Anything else I can help with?",
        "Understood. I'll keep that in mind.",
        "Of course! Feel free to ask if you have more questions.",
        "Noted, thanks!",
        "Okej! Säg till om det är något mer.",
        "好的，还有什么可以帮您的吗？",
    ],
)
def test_generic_assistant_acks(content: str) -> None:
    assert is_generic_assistant_ack(assistant(content))


@pytest.mark.parametrize(
    "content",
    [
        "Got it, the demo moved to Friday.",
        "Noted — you prefer dark mode.",
        "Sure! I've set the cron job to run at 02:00 UTC every night.",
        "Happy to help! Your Fly.io app is called memclaw-prod.",
        "Got it. " + "Let me know if there's anything else. " * 5,  # too long to be boilerplate
    ],
)
def test_assistant_messages_with_facts_are_kept(content: str) -> None:
    assert not is_generic_assistant_ack(assistant(content))


def test_generic_ack_only_applies_to_assistant() -> None:
    assert not is_generic_assistant_ack(user("Sure, happy to help!"))


# ---------------------------------------------------------------------------------------------
# strip_noise_fragments
# ---------------------------------------------------------------------------------------------


def test_strip_media_boilerplate() -> None:
    assert strip_noise_fragments("Look at this <media:image> chart") == "Look at this chart"
    assert strip_noise_fragments("[image attached] my new desk") == "my new desk"
    assert strip_noise_fragments("Report below\n[Attachment: q3.png]\nThoughts?") == (
        "Report below\nThoughts?"
    )
    assert strip_noise_fragments("voice: [voice message] call me") == "voice: call me"
    assert strip_noise_fragments("<image omitted>\nnice view") == "nice view"


def test_strip_routing_metadata() -> None:
    text = "[from: telegram:123]\nchannel: #ops\n\nDeploy is on Friday [message_id: 9]"
    assert strip_noise_fragments(text) == "Deploy is on Friday"
    envelope = "[Telegram Anna (@anna) id:42 2026-11-29 10:00 UTC] I switched to uv"
    assert strip_noise_fragments(envelope) == "I switched to uv"


def test_bare_routing_words_inside_the_body_are_kept() -> None:
    text = "Use the staging DB.\nfrom: the runbook, step 3\nSource: the wiki"
    assert strip_noise_fragments(text) == text


def test_strip_compaction_block_and_heartbeat_markers() -> None:
    text = (
        "Before\n"
        "[compaction] compacted 40 messages\n"
        "summary: user likes tea\n"
        "\n"
        "After HEARTBEAT_OK\n"
        "NO_REPLY\n"
        "End."
    )
    assert strip_noise_fragments(text) == "Before\n\nAfter\nEnd."


def test_strip_collapses_blank_lines_and_keeps_indentation() -> None:
    text = "Intro\n\n\n\n\n[image]\n\n\n    code_block()  # indented\nOutro"
    assert strip_noise_fragments(text) == "Intro\n\n    code_block()  # indented\nOutro"


def test_strip_is_identity_on_clean_text() -> None:
    text = "User prefers terse answers.\n\nAs of 2026-11-29 the stack is Django + Postgres."
    assert strip_noise_fragments(text) == text


# ---------------------------------------------------------------------------------------------
# filter_messages
# ---------------------------------------------------------------------------------------------


def test_filter_pipeline_end_to_end() -> None:
    messages = [
        {"role": "system", "content": "You are a helpful agent."},
        user("HEARTBEAT_OK"),
        user([{"type": "text", "text": "[from: telegram:1]\nI moved to Malmö <media:image>"}]),
        assistant("Got it! Let me know if there's anything else."),
        {"role": "tool", "content": '{"weather": "rain"}', "tool_call_id": "t1"},
        user("ok"),
        assistant("Noted: you live in Malmö now."),
        user("[Attachment: receipt.pdf]"),
        {"role": "user", "content": "2026-11-29 10:00:00 UTC"},
    ]
    assert filter_messages(messages) == [
        {"role": "user", "content": "I moved to Malmö"},
        {"role": "assistant", "content": "Noted: you live in Malmö now."},
    ]


def test_filter_truncates_with_marker() -> None:
    long_text = "x" * 5000
    (out,) = filter_messages([user(long_text)])
    assert len(out["content"]) == 2000
    assert out["content"].endswith(TRUNCATION_MARKER)
    (short,) = filter_messages([user("y" * 2000)])
    assert short["content"] == "y" * 2000  # exactly at the limit: untouched
    (custom,) = filter_messages([user("word " * 100)], max_chars=50)
    assert len(custom["content"]) <= 50 and custom["content"].endswith(TRUNCATION_MARKER)


def test_filter_truncates_after_stripping() -> None:
    text = "[from: telegram:1]\n" + "a" * 1999
    (out,) = filter_messages([user(text)])
    assert out["content"] == "a" * 1999


def test_filter_keeps_last_30_useful_messages() -> None:
    messages: list[dict[str, object]] = []
    for i in range(40):
        messages.append(user(f"fact number {i}"))
        messages.append(user("HEARTBEAT_OK"))  # noise must not eat into the window
    out = filter_messages(messages)
    assert len(out) == 30
    assert out[0]["content"] == "fact number 10"
    assert out[-1]["content"] == "fact number 39"
    assert [m["content"] for m in filter_messages(messages, max_messages=3)] == [
        "fact number 37",
        "fact number 38",
        "fact number 39",
    ]
    assert filter_messages(messages, max_messages=0) == []


def test_filter_drops_messages_empty_after_stripping() -> None:
    messages = [user("<media:image> [Attachment: a.png]"), user("[from: x:1]\n\n[image]")]
    assert filter_messages(messages) == []


def test_filter_returns_only_user_and_assistant_with_plain_dicts() -> None:
    messages = [
        {"role": "developer", "content": "rules"},
        {"role": "user", "content": "I use Neovim", "name": "anna", "extra": 1},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "1"}]},
        {"content": "no role"},
    ]
    assert filter_messages(messages) == [{"role": "user", "content": "I use Neovim"}]


def test_filter_does_not_redact_secrets() -> None:
    # Redaction is the caller's job (memclaw.gates.secrets.redact) — documented contract.
    (out,) = filter_messages([user("my password=hunter2 for the router")])
    assert "hunter2" in out["content"]


def test_filter_validates_limits() -> None:
    with pytest.raises(ValueError):
        filter_messages([], max_chars=1)
    with pytest.raises(ValueError):
        filter_messages([], max_messages=-1)


# ---------------------------------------------------------------------------------------------
# Automated sessions
# ---------------------------------------------------------------------------------------------


def test_automated_triggers_constant() -> None:
    assert frozenset({"cron", "heartbeat", "automation", "schedule"}) == AUTOMATED_TRIGGERS


@pytest.mark.parametrize(
    ("trigger", "session_id", "expected"),
    [
        ("cron", None, True),
        ("Heartbeat", None, True),
        ("schedule", "agent:main:abc", True),
        ("automation", "", True),
        (None, "agent:main:cron:nightly", True),
        (None, "agent:ops:heartbeat:1", True),
        (None, "cron:backup", True),
        (None, "schedule:weekly-report", True),
        (None, "agent:main:automation", True),
        ("user", "agent:main:5f3c2b7a", False),
        (None, None, False),
        ("", "", False),
        (None, "agent:main:cronjob-review", False),
        (None, "agent:main:5f3c-cron", False),
        ("message", "telegram:12345", False),
    ],
)
def test_is_automated_session(trigger: str | None, session_id: str | None, expected: bool) -> None:
    assert is_automated_session(trigger, session_id) is expected
