"""Extraction and facts: a contradiction waits, a correction replaces, lines are evidence."""

from pathlib import Path

from fake_openai import FakeOpenAI

from extract.extractkit import CHAT, model_agent, saying
from memclaw.entries.memories import remember
from memclaw.extract.pipeline import extract_conversation
from memclaw.facts import inbox
from memclaw.facts.ids import fact_id
from memclaw.facts.store import load_events
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope


def _answer(memory: str) -> dict[str, object]:
    return {
        "should_update": True,
        "reason": "the person said where Maya lives",
        "daily_entry": "",
        "memory_update": memory,
        "profile_update": "",
    }


def test_a_contradicting_line_waits_in_the_inbox(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    scope = Scope(agent)
    remember(scope, "Maya lives in Oslo")
    fake_openai.queue_json(_answer("# Memory\n\n- Maya lives in Bergen\n- Maya plays chess\n"))
    said = saying("I live in Bergen these days, and I play chess.")
    result = extract_conversation(scope, said, session_id="s-7", force=True)
    memory = agent.read("MEMORY.md")
    assert "Maya plays chess" in memory and "Bergen" not in memory
    (item,) = inbox.open_items(agent)
    assert (item.old, item.new, item.session) == (
        "Maya lives in Oslo",
        "Maya lives in Bergen",
        "s-7",
    )
    assert any(item.id in note for note in result.notes)
    events = load_events(agent)[fact_id("Maya plays chess")]
    assert [(e.kind, e.source, e.session) for e in events] == [("inferred", "extract", "s-7")]


def test_an_explicit_correction_replaces_the_old_fact_everywhere(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    scope = Scope(agent)
    # Lines a model wrote (an earlier extraction, a tool): a newer value replaces them.
    remember(scope, "The cutover is on 2026-12-12", source="tool", by_person=False)
    agent.write("MEMORY.md", "# Memory\n\n- The cutover is on 2026-12-12\n", author=Author.MODEL)
    fake_openai.queue_json(
        _answer("# Memory\n\n- The cutover is on 2026-12-12\n- The cutover moved to 2026-12-19\n")
    )
    extract_conversation(scope, CHAT, force=True)
    memory, entries = agent.read("MEMORY.md"), agent.read("entries/project.md")
    assert "2026-12-12" not in memory + entries
    assert "- The cutover is on 2026-12-19" in memory and "2026-12-19" in entries
    assert inbox.open_items(agent) == []


def test_a_correction_of_a_persons_line_waits_in_the_inbox(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    scope = Scope(agent)
    agent.write("MEMORY.md", "# Memory\n\n- The cutover is on 2026-12-12\n")  # by hand
    fake_openai.queue_json(
        _answer("# Memory\n\n- The cutover is on 2026-12-12\n- The cutover moved to 2026-12-19\n")
    )
    done = extract_conversation(scope, CHAT, force=True)
    assert agent.read("MEMORY.md") == "# Memory\n\n- The cutover is on 2026-12-12\n"
    (item,) = inbox.open_items(agent)
    assert item.new == "The cutover moved to 2026-12-19"
    assert any(f"held in the inbox as {item.id}" in note for note in done.notes)


def test_a_dry_run_says_what_would_be_held_and_holds_nothing(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    agent.write("MEMORY.md", "# Memory\n\n- The cutover is on 2026-12-12\n")  # by hand
    fake_openai.queue_json(
        _answer("# Memory\n\n- The cutover is on 2026-12-12\n- The cutover moved to 2026-12-19\n")
    )
    done = extract_conversation(Scope(agent), CHAT, force=True, dry_run=True)
    assert inbox.open_items(agent) == []
    assert any(note.startswith("would be held in the inbox as ") for note in done.notes)
