"""Compounds written together or apart find each other, only as the index holds them."""

from pathlib import Path

from extract.extractkit import make_agent

from memclaw.index import search
from memclaw.index.query.compounds import with_compounds
from memclaw.text.tokenize import parse_query
from memclaw.workspace import Agent


def _agent(tmp_path: Path, *lines: str) -> Agent:
    agent = make_agent(tmp_path)
    agent.write("memory/2026-05-02.md", "# 2026-05-02\n" + "\n".join(lines) + "\n")
    return agent


def _found(agent: Agent, query: str) -> list[str]:
    return [h.text for h in search(agent.workspace, query, agents=[agent.id], log=False)]


def test_a_compound_finds_its_words_written_apart(tmp_path: Path) -> None:
    agent = _agent(tmp_path, "- Hugo: I work out at the gym before breakfast.", "- Beth: Nice.")
    assert _found(agent, "workout routine") == ["- Hugo: I work out at the gym before breakfast."]


def test_words_written_apart_find_the_compound(tmp_path: Path) -> None:
    agent = _agent(tmp_path, "- Beth: We had icecream by the harbour.", "- Hugo: Lovely.")
    assert _found(agent, "ice cream") == ["- Beth: We had icecream by the harbour."]


def test_a_split_must_stand_as_a_phrase_and_only_known_words_are_tried(tmp_path: Path) -> None:
    agent = _agent(tmp_path, "- Ana: The out-of-office work starts soon.")
    # "work" and "out" are both here, but not side by side in that order.
    assert _found(agent, "workout") == []
    query = with_compounds(parse_query("workout"), {"work", "out"}.__contains__)
    assert ("work", "out") in query.terms[0].forms
    # Halves the index does not hold add nothing; nor does a word too short to split.
    assert with_compounds(parse_query("workout"), {"work"}.__contains__) == parse_query("workout")
    assert with_compounds(parse_query("gig"), lambda _: True) == parse_query("gig")
