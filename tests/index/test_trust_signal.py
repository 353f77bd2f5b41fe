"""Trust as a ranking signal: rejected facts sink, confirmed ones rise, weight 0 changes nothing."""

from pathlib import Path

import pytest
from extract.extractkit import make_agent

from memclaw.facts.feedback import give
from memclaw.index import search
from memclaw.index.facts.signal import factor
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
