"""An extracted correction supersedes the fact whose line it replaced, even its only line."""

from __future__ import annotations

from pathlib import Path

from dream.dreamkit import Clock, workspace

from memclaw.extract.pipeline import extract_conversation
from memclaw.facts.ledger import facts_of
from memclaw.workspace.scope import Scope


def _said(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


def test_the_replaced_profile_line_is_superseded_not_a_second_fact_in_force(
    tmp_path: Path,
) -> None:
    clock = Clock()
    agent, _ = workspace(tmp_path, clock).init_agent("pal")
    extract_conversation(Scope(agent), _said("I moved to Lisbon yesterday."), force=True)
    clock.advance(days=1)
    fix = "Correction: I moved to Lisbon on 2026-11-25, not 2026-11-27."
    extract_conversation(Scope(agent), _said(fix), force=True)
    profile = agent.read("PROFILE.md")
    assert "2026-11-25" in profile and "2026-11-27" not in profile
    in_force = [f.statement for f in facts_of(Scope(agent)) if not f.superseded]
    assert [s for s in in_force if "Lisbon" in s] == ["User moved to Lisbon on 2026-11-25."]
