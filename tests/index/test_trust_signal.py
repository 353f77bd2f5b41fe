"""Trust as a ranking signal: rejected facts sink, confirmed ones rise, weight 0 changes nothing."""

from pathlib import Path

import pytest
from extract.extractkit import NOW, make_agent

from memclaw.facts.feedback import give
from memclaw.facts.model import Event, EventKind, Kind, Place
from memclaw.index import search
from memclaw.index.facts.signal import factor, relative_trust
from memclaw.workspace import Agent, Workspace
from memclaw.workspace.scope import Scope

# Two facts that match the query equally: same words, same length, same file, each alone
# in its section (so neither has the other's words as neighbour context); then prose.
MEMORY = (
    "# Memory\n"
    "## Atlas\n"
    "- Atlas ships the billing export in December\n"
    "## Boreal\n"
    "- Boreal ships the billing export in December\n"
    "## Wiki\n"
    "The billing export notes are in the wiki.\n"
)
ATLAS, BOREAL, PROSE = 3, 5, 7


def _ranked(agent: Agent, weight: float, query: str = "billing export") -> list[tuple[int, float]]:
    old = agent.workspace
    ws = Workspace.open(old.root, env={}, overrides={"trust_weight": weight}, clock=old.clock)
    return [(h.line, h.score) for h in search(ws, query, agents=[agent.id], log=False)]


@pytest.fixture
def agent(tmp_path: Path) -> Agent:
    agent = make_agent(tmp_path)
    agent.write("MEMORY.md", MEMORY)
    return agent


def test_a_rejected_fact_drops_below_an_otherwise_equal_one(agent: Agent) -> None:
    before = _ranked(agent, 0.5)
    assert [line for line, _ in before][:2] == [ATLAS, BOREAL]  # equal scores: file order decides
    assert before[0][1] == pytest.approx(before[1][1])
    give(Scope(agent), "Atlas ships", good=False)
    after = _ranked(agent, 0.5)
    lines = [line for line, _ in after]
    assert lines[0] == BOREAL and lines.index(ATLAS) > 0
    assert dict(after)[ATLAS] < before[0][1]


def test_a_confirmed_fact_rises_above_an_otherwise_equal_one(agent: Agent) -> None:
    give(Scope(agent), "Boreal ships", good=True)
    assert [line for line, _ in _ranked(agent, 0.2)][:2] == [BOREAL, ATLAS]


def test_weight_zero_ranks_exactly_as_without_the_signal(agent: Agent) -> None:
    untouched = _ranked(agent, 0.0)
    give(Scope(agent), "Atlas ships", good=False)
    give(Scope(agent), "Boreal ships", good=True)
    assert _ranked(agent, 0.0) == untouched


def test_blocks_without_facts_keep_their_score(agent: Agent) -> None:
    give(Scope(agent), "Atlas ships", good=False)
    # The wiki line is prose, not a list item: the fact layer holds nothing about it.
    plain = dict(_ranked(agent, 0.0))[PROSE]
    assert dict(_ranked(agent, 0.5))[PROSE] == pytest.approx(plain)


def test_trust_never_lifts_a_block_matching_fewer_query_words(agent: Agent) -> None:
    agent.write("MEMORY.md", MEMORY + "## Cirrus\n- Cirrus exports billing data\n")
    give(Scope(agent), "Atlas ships", good=False)
    give(Scope(agent), "Boreal ships", good=False)
    lines = [line for line, _ in _ranked(agent, 1.0, "billing export december")]
    # Atlas and Boreal hold every word: trust only reorders them, Cirrus (no "December") and
    # the prose stay below although they state nothing rejected.
    assert set(lines[:2]) == {ATLAS, BOREAL}
    assert lines.index(9) > 1 and lines.index(PROSE) > 1


def test_the_factor_is_neutral_at_half_trust_and_bounded_by_the_weight() -> None:
    assert factor(None, 0.5) == 1.0 and factor(0.5, 0.5) == 1.0
    assert factor(0.0, 0.5) == pytest.approx(0.5) and factor(1.0, 0.5) == pytest.approx(1.5)
    assert factor(0.0, 0.0) == 1.0


def test_age_and_repetition_alone_do_not_move_a_fact(tmp_path: Path) -> None:
    # Trust decays with age and grows with restatement; neither is feedback, so neither ranks
    # (recency has its own setting, and BM25 already sees every restated line).
    agent = make_agent(tmp_path)
    agent.write("memory/2025-06-02.md", "# 2025-06-02\n- Atlas ships the billing export\n")
    for day in ("2026-03-25", "2026-03-26", "2026-03-27"):
        agent.write(f"memory/{day}.md", f"# {day}\n- Boreal ships the billing export\n")
    assert _ranked(agent, 0.5) == _ranked(agent, 0.0)


def test_relative_trust_is_half_without_feedback_and_zero_when_superseded() -> None:
    day = NOW.date()
    places = [Place("f1", "Atlas ships", "MEMORY.md", 2, Kind.MEMORY, "memory", day, "person")]
    stated = Event(EventKind.STATED, NOW.isoformat(), "remember")
    assert relative_trust(places, [stated], NOW, 60) == 0.5
    rejected = Event(EventKind.REJECTED, NOW.isoformat(), "cli")
    assert relative_trust(places, [stated, rejected], NOW, 60) == pytest.approx(0.125)
    confirmed = Event(EventKind.CONFIRMED, NOW.isoformat(), "cli")
    assert 0.5 < relative_trust(places, [stated, confirmed], NOW, 60) <= 1
    gone = Event(EventKind.SUPERSEDED, NOW.isoformat(), "remember")
    assert relative_trust(places, [stated, gone], NOW, 60) == 0
