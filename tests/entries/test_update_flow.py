"""The update flow: a newer version of a fact takes in the older one's details; one entry stays."""

from __future__ import annotations

from pathlib import Path

from extract.extractkit import Clock, make_agent

from memclaw.changes.undo import undo_last
from memclaw.entries.lookup import list_memories
from memclaw.entries.memories import Action, remember
from memclaw.text.combine import absorb, same_thing
from memclaw.workspace.scope import Scope

PLANNED = "As of 2026-03-15, user is planning a trip to Paris in September with friend Jack"
BOOKED = "As of 2026-03-30, user booked the Paris trip for 2026-09-12 to 2026-09-19, flying SAS"


def _texts(scope: Scope) -> list[str]:
    return [m.text for m in list_memories(scope)]


def test_the_newer_version_keeps_its_words_and_gains_the_older_details() -> None:
    assert same_thing(BOOKED, PLANNED)
    assert absorb(BOOKED, PLANNED) == f"{BOOKED}, with friend Jack"  # September: now dated
    assert not same_thing("User likes Paris", BOOKED)  # one shared word is not one thing
    assert not same_thing("Maya lives in Gothenburg", "Maya trains for Göteborgsvarvet")


def test_remembering_a_newer_version_leaves_one_entry_and_undo_restores_both(
    tmp_path: Path,
) -> None:
    clock = Clock()
    agent = make_agent(tmp_path, clock)
    scope = Scope(agent)
    remember(scope, PLANNED, category="project")
    before = {p.name: p.read_text() for p in (agent.path / "entries").glob("*.md")}
    clock.advance(days=15)
    result = remember(scope, BOOKED, category="project")
    assert result.action is Action.UPDATED and result.previous is not None
    assert result.previous.text == PLANNED
    assert _texts(scope) == [f"{BOOKED}, with friend Jack"]
    undo_last(scope)  # one change: the old entry is back and the new one gone
    after = {p.name: p.read_text() for p in (agent.path / "entries").glob("*.md")}
    assert after == before


def test_a_models_version_never_takes_over_a_persons_entry(tmp_path: Path) -> None:
    clock = Clock()
    agent = make_agent(tmp_path, clock)
    scope = Scope(agent)
    remember(scope, PLANNED, category="project")  # the person's words
    clock.advance(days=15)
    result = remember(scope, BOOKED, category="project", source="tool", by_person=False)
    assert result.action is Action.ADDED  # more of the person's fact: beside it, unmerged
    assert sorted(_texts(scope)) == sorted([PLANNED, BOOKED])
