"""A dream's retention drops are the person's rule, not a loss the guard budgets.

With a short MEMORY.md, one expired line is more than the loss budget (25%): the
guard refused the whole dream, every night, and the expired line stayed injected.
"""

from __future__ import annotations

from pathlib import Path

from dream.dreamkit import Clock, day, note, workspace
from memclaw.dream.run import DreamStatus, dream_agent
from memclaw.facts.settle import record_written
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

STALE = "The Grafana migration is due in January 2027"
FRESH = "The Lisbon office lease starts on 2026-12-21"


def test_an_expired_machine_line_goes_even_from_a_short_memory(tmp_path: Path) -> None:
    clock = Clock()
    clock.advance(days=-5)
    retention = {"project": {"ttl_days": 2}}
    agent, _ = workspace(tmp_path, clock, retention=retention).init_agent("pal")
    memory = f"# Memory\n\n## Active projects\n- {STALE}\n- {FRESH}\n"
    agent.write("MEMORY.md", memory, author=Author.MODEL)
    record_written(Scope(agent), STALE, source="extract", by_person=False)
    clock.advance(days=4)
    record_written(Scope(agent), FRESH, source="extract", by_person=False)
    clock.advance(days=1)
    note(agent, day(0), "Lunch was good")
    result = dream_agent(Scope(agent))
    assert result.status is DreamStatus.UPDATED, result.reason
    assert STALE not in agent.read("MEMORY.md") and f"- {FRESH}" in agent.read("MEMORY.md")
    assert result.facts.dropped == [STALE]
    clock.advance(days=1)  # the guard's baseline let it go too: the next dream is not refused
    note(agent, day(0), "Dinner was good")
    assert dream_agent(Scope(agent)).status is not DreamStatus.REFUSED
