"""A capitalised word of the query is a name: its exact form ranks above words that
merely share its stem ("Porto" above "port", "Fig" the guinea pig above "fig")."""

from pathlib import Path

from extract.extractkit import make_agent

from memclaw.index import search
from memclaw.workspace import Agent


def _agent(tmp_path: Path, *lines: str) -> Agent:
    agent = make_agent(tmp_path)
    agent.write("memory/2026-05-02.md", "# 2026-05-02\n\n" + "\n\n".join(lines) + "\n")
    return agent


def _found(agent: Agent, query: str) -> list[str]:
    return [h.text for h in search(agent.workspace, query, agents=[agent.id], log=False)]


def test_a_name_ranks_its_exact_form_above_a_word_of_its_stem(tmp_path: Path) -> None:
    # "Porto" stemmed as Portuguese is "port": the one rarer line of "port" wins on BM25
    agent = _agent(
        tmp_path,
        "The port was busy.",
        "We spent the whole long weekend in Porto with my cousins and their dog.",
        "Flights to Porto are cheap in May.",
        "Ana grew up in Porto.",
    )
    found = _found(agent, "Porto")
    assert all("Porto" in line for line in found[:3]) and "port was" in found[3]
    assert "port was" in _found(agent, "port")[0]  # a lower-case word is no name


def test_a_name_in_capitals_is_still_the_name(tmp_path: Path) -> None:
    agent = _agent(tmp_path, "Figs are ripe.", "FIG escaped from his cage again last night.")
    assert "FIG" in _found(agent, "What did Fig do?")[0]
