"""A dream never lets an old note's change undo a correction memory learnt after it.

"I moved to Lisbon" is a change cue (a move replaces where someone lived), so every
daily note that says "User moved to Lisbon on <date>" reads as a correction. A dream
replays the notes of its window: an older note must not win over what was said later.
"""

from __future__ import annotations

from pathlib import Path

from dream.dreamkit import Clock, day, note, workspace
from memclaw.dream.run import dream_agent
from memclaw.entries.memories import remember
from memclaw.extract.pipeline import extract_conversation
from memclaw.facts import inbox
from memclaw.facts.ledger import facts_of
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

FIRST = "User moved to Lisbon on 2026-11-25."
LATER = "User moved to Lisbon on 2026-11-23, not 2026-11-25."


def test_a_persons_later_correction_outlives_the_note_it_corrected(tmp_path: Path) -> None:
    clock = Clock()
    clock.advance(days=-2)
    agent, _ = workspace(tmp_path, clock).init_agent("pal")
    agent.write("PROFILE.md", f"# Profile\n\n## Identity\n\n- {FIRST}\n", author=Author.MODEL)
    note(agent, day(2), FIRST)
    clock.advance(days=1)
    remember(Scope(agent), f"Correction: {LATER}", category="identity")
    assert LATER in agent.read("PROFILE.md")
    clock.advance(days=1)
    dream_agent(Scope(agent))
    assert f"- {LATER}" in agent.read("PROFILE.md").splitlines()
    assert FIRST not in agent.read("PROFILE.md")
    said = next(f for f in facts_of(Scope(agent)) if f.statement == LATER)
    assert not said.superseded  # the person's correction, word for word, where the fact lived
    assert [p.path for p in said.places if p.kind.durable] == ["PROFILE.md"]


def test_a_note_correction_newer_than_the_fact_still_applies(tmp_path: Path) -> None:
    clock = Clock()
    clock.advance(days=-2)
    agent, _ = workspace(tmp_path, clock).init_agent("pal")
    remember(Scope(agent), FIRST, category="identity")
    clock.advance(days=1)
    note(agent, day(1), f"Correction: {LATER}")
    clock.advance(days=1)
    dream_agent(Scope(agent))
    assert LATER in agent.read("entries/identity.md")
    assert FIRST not in agent.read("entries/identity.md")


def test_an_extracted_correction_is_not_replayed_backwards_by_the_older_note(
    tmp_path: Path,
) -> None:
    clock = Clock()
    clock.advance(days=-2)
    agent, _ = workspace(tmp_path, clock).init_agent("pal")
    extract_conversation(Scope(agent), [_said("I moved to Lisbon yesterday.")], force=True)
    profile = agent.read("PROFILE.md")
    assert "- User moved to Lisbon on 2026-11-25." in profile.splitlines()
    clock.advance(days=1)
    fix = "Correction: I moved to Lisbon on 2026-11-23, not 2026-11-25."
    extract_conversation(Scope(agent), [_said(fix)], force=True)
    corrected = agent.read("PROFILE.md")
    assert "2026-11-23" in corrected and "2026-11-25" not in corrected
    clock.advance(days=1)
    dream_agent(Scope(agent))
    assert agent.read("PROFILE.md") == corrected
    now = [f for f in facts_of(Scope(agent)) if "PROFILE.md" in {p.path for p in f.places}]
    assert [f.superseded for f in now] == [False], now  # what PROFILE.md says is in force


def _said(text: str) -> dict[str, str]:
    return {"role": "user", "content": text}


def test_a_line_the_person_fixed_by_hand_is_not_turned_back_by_the_note(tmp_path: Path) -> None:
    clock = Clock()
    clock.advance(days=-1)
    agent, _ = workspace(tmp_path, clock).init_agent("pal")
    extract_conversation(Scope(agent), [_said("I moved to Lisbon yesterday.")], force=True)
    profile = agent.path / "PROFILE.md"
    assert "- User moved to Lisbon on 2026-11-26." in profile.read_text().splitlines()
    profile.write_text(profile.read_text().replace("2026-11-26", "2026-11-24"))  # by hand
    fixed = profile.read_text()
    clock.advance(days=1)
    result = dream_agent(Scope(agent))
    assert profile.read_text() == fixed  # the person's word stands
    assert len(result.facts.held) == 1  # the note's older date is asked about, once
    dream_agent(Scope(agent))
    assert profile.read_text() == fixed and len(inbox.load(agent)) == 1


def test_a_correction_the_file_says_already_in_other_words_leaves_no_twin(tmp_path: Path) -> None:
    agent, _ = workspace(tmp_path).init_agent("pal")
    profile = "# Profile\n\n- Sam lives in Lisbon.\n- Sam lives in Porto.\n"
    agent.write("PROFILE.md", profile, author=Author.MODEL)
    note(agent, day(1), "Actually Sam moved to Porto.")
    dream_agent(Scope(agent))
    # The outdated line goes; the line saying the correction already is not written twice.
    assert agent.read("PROFILE.md") == "# Profile\n\n- Sam lives in Porto.\n"
