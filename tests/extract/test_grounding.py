"""What a model writes is kept only where the conversation says it: no invented daily
entry, no echoed template, no "nothing to keep" in the prompt's own words."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from extract.extractkit import model_agent, saying
from memclaw.extract.grounding import Said, echoes
from memclaw.extract.pipeline import extract_conversation
from memclaw.extract.prompts import system_prompt
from memclaw.workspace.scope import Scope

LISBON = saying(
    "I live in Lisbon with my cat Miso, she is four years old.",
    "Actually I moved to Porto last month.",
)


@pytest.mark.parametrize(
    ("line", "grounded"),
    [
        ("Sarah moved to Porto last month.", True),
        ("The user mentioned that Miso is 4 years old.", True),  # four is 4
        ("As of 2026-03-30, Sarah lives in Porto.", True),  # a date the model resolved
        ("Sarah works at Cloudflare.", True),  # said in the same conversation
        ("[2019-06-25 18:43:51] @Lisbon. A new series of articles about climate change", False),
        ("Sarah has two cats, Miso and Pixel.", False),
        ("Miso is 7 years old.", False),  # a number nobody said
        ("one new fact", False),
    ],
)
def test_a_line_is_grounded_in_what_was_said(line: str, grounded: bool) -> None:
    said = Said(m["content"] for m in LISBON)
    assert said.grounds(line) is grounded


def test_the_prompts_template_given_back_is_an_echo() -> None:
    prompt = system_prompt("2026-03-30", 2000, 4000)
    assert echoes("One sentence: what was kept, or why nothing was.", prompt)
    assert not echoes("Nothing new was said.", prompt)
    assert not echoes("ok", prompt)  # too short to tell


def test_invented_lines_are_left_out_and_the_receipt_says_so(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    fake_openai.queue_json(
        {
            "should_update": True,
            "reason": "a move",
            "daily_entry": "- Sarah moved to Porto.\n- [2019-06-25 18:43:51] @Lisbon. A new "
            "series of articles about climate change",
            "facts": [
                {"text": "Sarah lives in Porto with her cat Miso.", "category": "identity"},
                {"text": "one new fact", "category": "project"},
            ],
        }
    )
    result = extract_conversation(Scope(agent), LISBON, force=True)
    written = agent.read("PROFILE.md") + agent.read("MEMORY.md")
    note = agent.read("memory/2026-03-30.md")
    assert "Sarah lives in Porto with her cat Miso." in written
    assert "one new fact" not in written
    assert "Sarah moved to Porto." in note and "climate" not in note and "2019" not in note
    assert "left out 2 lines of the model's that the conversation does not say" in result.notes


def test_nothing_to_keep_in_the_prompts_own_words_is_extracted_offline(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    fake_openai.queue_json(
        {
            "should_update": False,
            "reason": "one sentence: what was kept, or why nothing was",
            "daily_entry": "",
        }
    )
    result = extract_conversation(Scope(agent), LISBON, force=True)
    assert str(result.engine) == "offline"
    assert any("offline engine used" in note for note in result.notes)
    assert "Porto" in agent.read("PROFILE.md") + agent.read("MEMORY.md")


def test_an_answer_of_which_nothing_was_said_is_extracted_offline(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    """A readable answer whose every line is invented used to keep nothing and still mark
    the turns read: what was said in them was lost (found by the real-model lane)."""
    agent = model_agent(tmp_path, fake_openai.base_url)
    fake_openai.queue_json(
        {
            "should_update": True,
            "reason": "one new fact",
            "daily_entry": "- [2019-06-25 18:43:51] @Lisbon. A new series of articles",
            "facts": [{"text": "Sarah has two cats, Miso and Pixel.", "category": "identity"}],
        }
    )
    result = extract_conversation(Scope(agent), LISBON, force=True)
    assert str(result.engine) == "offline"
    assert any(
        "every line of the model's answer is something the conversation does not say: "
        "offline engine used" in note
        for note in result.notes
    )
    kept = agent.read("PROFILE.md") + agent.read("MEMORY.md")
    assert "Porto" in kept and "Pixel" not in kept
