"""A fact's time to live counts from when it was last stated or confirmed, in consolidation too.

The card and `facts` (the ledger) call a project fact confirmed yesterday alive; consolidation
must not drop its entry because the entry itself was written long ago.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from dream.dreamkit import Clock, workspace
from memclaw.dream.consolidate import consolidate_agent
from memclaw.facts.feedback import give
from memclaw.facts.ledger import facts_of, retention
from memclaw.workspace.entries import Entry, format_entries, load_entries
from memclaw.workspace.scope import Scope

FILLER = [f"Maya keeps plant number {n} on the office window sill." for n in range(7)]
CONFIRMED = "The lotsen pilot runs in Malmö."
IDLE = "The garden project has raised beds."


def test_consolidation_keeps_a_project_fact_confirmed_within_its_ttl(tmp_path: Path) -> None:
    clock = Clock()  # 2026-11-28
    retention_setting = {"project": {"ttl_days": 30}}
    agent, _ = workspace(tmp_path, clock, retention=retention_setting).init_agent("demo")
    scope = Scope(agent)
    written = date(2026, 9, 1)
    projects = [
        Entry("m-conf", CONFIRMED, "project", written, written),
        Entry("m-idle", IDLE, "project", written, written),
    ]
    scope.write("entries/project.md", format_entries(projects, "Projects"))
    other = [Entry(f"m-p{n}", t, "preference") for n, t in enumerate(FILLER)]
    scope.write("entries/preference.md", format_entries(other, "Preferences"))
    give(scope, CONFIRMED.rstrip("."), good=True)  # confirmed today, on the card
    alive = {f.statement: not retention(scope, f)[0] for f in facts_of(scope)}
    assert alive[CONFIRMED] and not alive[IDLE]
    consolidate_agent(agent)
    kept = {e.text for e in load_entries(scope)}
    assert CONFIRMED in kept and IDLE not in kept
