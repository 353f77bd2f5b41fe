"""A dream's report names the facts whose trust fell, and the morning card offers them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from dream.dreamkit import Clock, day, note, workspace
from memclaw.dream import report
from memclaw.dream.run import dream_agent
from memclaw.facts.feedback import give
from memclaw.facts.ledger import facts_of
from memclaw.facts.model import EventKind
from memclaw.morning.card import latest, review
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent

KENJI = "Kenji likes the blue theme"
DEPLOYS = "Deploys go out on Thursdays"


def _report(agent: Agent) -> dict[str, Any]:
    """The newest report, reviewed or not."""
    return report.recent(Scope(agent))[0][1]


def test_a_fact_under_the_floor_is_on_the_card_once(tmp_path: Path) -> None:
    clock = Clock()
    agent, _ = workspace(tmp_path, clock).init_agent("demo")
    agent.write("MEMORY.md", f"# Memory\n\n## Notes\n- {KENJI}\n- {DEPLOYS}\n")
    scope = Scope(agent)
    give(scope, KENJI, good=False)  # 0.7 * 0.25: under the default floor of 0.2
    note(agent, day(1), "Lunch was good")
    dream_agent(scope)
    data = _report(agent)
    (item,) = data["trust_fell"]
    kenji = next(f for f in facts_of(scope) if f.statement == KENJI)
    assert item["fact"] == kenji.id and item["text"] == KENJI and item["was"] is None
    assert item["trust"] == round(kenji.trust, 3) and "under the floor 0.20" in item["why"]
    assert set(data["trust"]) == {f.id for f in facts_of(scope, durable_only=True)}
    # The card offers it: Confirm is evidence that lifts it again.
    card = latest(scope)
    assert card is not None and kenji.id in {i["fact"] for i in card.facts}
    review(scope, card, confirm=[kenji.id])
    events = next(f for f in facts_of(scope) if f.id == kenji.id).events
    assert events[-1].kind is EventKind.CONFIRMED
    # Still low tomorrow, but already shown: the next report does not list it again.
    give(scope, KENJI, good=False)
    clock.advance(days=1)
    note(agent, day(0), "Tea was good")
    dream_agent(scope)
    assert _report(agent)["trust_fell"] == []


def test_a_sharp_fall_above_the_floor_is_news_too(tmp_path: Path) -> None:
    clock = Clock()
    agent, _ = workspace(tmp_path, clock, trust_half_life_days=30).init_agent("demo")
    agent.write("MEMORY.md", f"# Memory\n\n## Notes\n- {DEPLOYS}\n")
    scope = Scope(agent)
    note(agent, day(1), "Lunch was good")
    dream_agent(scope)
    first = next(iter(_report(agent)["trust"].values()))
    assert first >= 0.6
    # A month without restating it halves its trust: above the floor, but a fall of 0.2+.
    clock.advance(days=31)
    note(agent, clock.now.date(), "Tea was good")
    dream_agent(scope)
    (item,) = _report(agent)["trust_fell"]
    assert item["was"] == first and 0.2 <= item["trust"] <= first - 0.2
    assert item["why"].startswith("trust fell from")


def test_the_cli_card_shows_a_fallen_fact_with_its_choices(tmp_path: Path) -> None:
    from memclaw.cli.memory.seeing import card_lines

    agent, _ = workspace(tmp_path, Clock()).init_agent("demo")
    agent.write("MEMORY.md", f"# Memory\n\n## Notes\n- {KENJI}\n")
    scope = Scope(agent)
    give(scope, KENJI, good=False)
    note(agent, day(1), "Lunch was good")
    dream_agent(scope)
    card = latest(scope)
    assert card is not None
    lines = card_lines(card)
    at = lines.index("  trust fell:")
    assert (
        KENJI in lines[at + 1]
        and "under the floor 0.20)  confirm it, or forget it" in lines[at + 1]
    )
