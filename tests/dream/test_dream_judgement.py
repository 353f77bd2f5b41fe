"""A dream judges what its notes say as every other path does (one judgement).

A fact said on two days is promoted; when later notes give it a new value, the dream
corrects the line in place (keeping what the new value does not contradict), says that
MEMORY.md changed, and neither adds the new statement beside it nor asks about it too.
A look-alike that names another thing is another fact.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dream.dreamkit import day, note, workspace
from memclaw.dream.run import DreamStatus, dream_agent
from memclaw.facts import inbox
from memclaw.workspace import Agent
from memclaw.workspace.scope import Scope


def _told_twice(tmp_path: Path, old: str, new: str) -> tuple[Agent, str]:
    agent, _ = workspace(tmp_path).init_agent("a")
    note(agent, day(4), old)
    note(agent, day(3), old)
    dream_agent(Scope(agent))
    assert old in agent.read("MEMORY.md")
    note(agent, day(1), new)
    note(agent, day(0), new)
    result = dream_agent(Scope(agent))
    assert result.status is DreamStatus.UPDATED, result.reason
    assert "MEMORY.md:** nothing" not in agent.read("DREAMS.md").split("## ")[-1]
    return agent, agent.read("MEMORY.md")


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        (
            "Sam lives in Lisbon with his cat Miso",
            "Sam moved to Porto",
            "Sam lives in Porto with his cat Miso",
        ),
        (
            "Tom works at Acme as a data engineer",
            "Tom now works at Globex",
            "Tom works at Globex as a data engineer",
        ),
        ("Maya's favourite editor is Vim", "Maya's favourite editor is now Helix", "Helix"),
        (
            "The project deadline is 2026-03-01",
            "The project deadline moved to 2026-04-15",
            "2026-04-15",
        ),
    ],
)
def test_a_new_value_in_the_notes_corrects_the_line_once(
    tmp_path: Path, old: str, new: str, line: str
) -> None:
    agent, memory = _told_twice(tmp_path, old, new)
    facts = [row for row in memory.splitlines() if row.startswith("- ")]
    assert [row for row in facts if line in row] == facts[-1:], memory
    assert len([row for row in facts if row.split()[1] == old.split()[0]]) == 1, memory
    assert not inbox.load(agent), "a correction the dream applied is not asked about too"


def test_near_twins_in_the_notes_are_two_facts(tmp_path: Path) -> None:
    alpha = "The nightly backup of the orders database runs at 02:00 on server alpha"
    beta = "The nightly backup of the orders database runs at 02:00 on server beta"
    _agent, memory = _told_twice(tmp_path, alpha, beta)
    assert alpha in memory and beta in memory
