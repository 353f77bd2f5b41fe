"""A fact a later note corrected is on the card as superseded by it, never the reverse."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from memclaw.cli.memory.seeing import card_lines
from memclaw.dream.run import dream_agent
from memclaw.morning.card import latest
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope

NOW = datetime.fromisoformat("2026-12-04T08:00:00+01:00")
STALE = "The billing freeze starts 2026-12-18."
FIX = "Correction: the billing freeze starts 2026-12-21, not 2026-12-18."


def test_the_stale_line_is_listed_as_superseded_by_the_correction(isolated_env: Path) -> None:
    agent, _ = Workspace.open(isolated_env, clock=lambda: NOW).init_agent("pal")
    scope = Scope(agent)
    scope.append_daily(f"- {STALE}", day=date(2026, 12, 2))
    scope.append_daily(f"- {FIX}", day=date(2026, 12, 3))
    dream_agent(scope, model=None)
    card = latest(scope)
    assert card is not None
    [item] = card.items("contradictions")
    assert item["text"] == STALE
    assert item["superseded_by"] == FIX and item["by"] == "memory/2026-12-03.md:3"
    lines = card_lines(card)
    assert "contradictions found:" not in lines
    at = lines.index("  superseded by a later correction:")
    assert STALE in lines[at + 1] and FIX in lines[at + 2]
    # The correction is shown as what replaced the fact, never as a fact to act on.
    assert not any(line.lstrip().startswith("[") and FIX in line for line in lines)
