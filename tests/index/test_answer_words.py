"""What a question asks for raises the blocks holding it, inside their coverage level only."""

from pathlib import Path

from extract.extractkit import make_agent

from memclaw.index import search
from memclaw.index.query.answer import answer_pattern
from memclaw.workspace import Agent, Workspace


def _lines(agent: Agent, query: str, answers: bool = True) -> list[str]:
    old = agent.workspace
    ws = Workspace.open(old.root, env={}, overrides={"search_answers": answers}, clock=old.clock)
    return [h.text for h in search(ws, query, agents=[agent.id], log=False)]


def _agent(tmp_path: Path, *lines: str) -> Agent:
    agent = make_agent(tmp_path)
    agent.write(
        "memory/2026-05-02.md", "# 2026-05-02\n\n## 19:05 Ana, Ben\n" + "\n".join(lines) + "\n"
    )
    return agent


def test_a_when_question_ranks_the_line_naming_a_day_above_one_that_does_not(
    tmp_path: Path,
) -> None:
    agent = _agent(
        tmp_path, "- Ana: Reunion gig, finally!", "- Ben: The reunion gig moved to Saturday."
    )
    plain = _lines(agent, "When is the reunion gig?", answers=False)
    assert plain[0].startswith("- Ana")  # the shorter line wins on BM25 alone
    assert _lines(agent, "When is the reunion gig?")[0].startswith("- Ben")


def test_a_kind_of_thing_ranks_the_line_naming_such_a_thing_first(tmp_path: Path) -> None:
    agent = _agent(
        tmp_path, "- Jamal: I play most evenings.", "- Jamal: I play bass most evenings now."
    )
    assert _lines(agent, "What instrument does Jamal play?", answers=False)[0].endswith("evenings.")
    assert "bass" in _lines(agent, "What instrument does Jamal play?")[0]


def test_the_answer_never_lifts_a_line_above_one_holding_more_of_the_question(
    tmp_path: Path,
) -> None:
    agent = _agent(tmp_path, "- Ana: Maya booked the kayak permit for the lake.")
    # (another day: a neighbouring turn would lend it the permit)
    agent.write(
        "memory/2026-05-09.md", "# 2026-05-09\n- Ben: Maya went out in the kayak on Saturday.\n"
    )
    found = _lines(agent, "When did Maya book the kayak permit?")
    assert "permit" in found[0] and "Saturday" in found[1]


def test_answer_patterns_of_questions() -> None:
    assert answer_pattern("kayak permit") is None
    where = answer_pattern("Where does Noor live now?")
    assert where is not None and where.search("She moved to Umeå in May")
    assert not where.search("Noor lives near the station")  # a place word alone: no name
    how_many = answer_pattern("How many kids does Noor have?")
    assert how_many is not None
    assert how_many.search("Zara is 8") and how_many.search("two of them")
    when = answer_pattern("När ska Knut vaccineras?")
    assert when is not None and when.search("på lördag") and when.search("on the 20th")
    assert not when.search("Knut ska vaccineras hos veterinären")
    pets = answer_pattern("What pets does Maya have?")
    assert pets is not None and pets.search("a dog called Knut")


def test_a_who_question_ranks_the_line_naming_a_person_first(tmp_path: Path) -> None:
    agent = _agent(
        tmp_path,
        "- Bram: The bees arrived on Saturday, two hives of them.",
        "- Bram: A retired beekeeper called Henk sold me the bees.",
        "- Bram: My neighbour feeds the bees when I travel.",
    )
    assert "Henk" in _lines(agent, "Who sold Bram his bees?")[0]
    assert "neighbour" in _lines(agent, "Who feeds the bees?")[0]
    who = answer_pattern("Who looks after the cat?")
    assert who is not None and who.search("my flatmate Jo") and who.search("a man named Ivo")
    assert not who.search("a cat named after nobody")  # "named" needs a name after it


def test_a_colour_or_a_kind_of_place_is_asked_for_like_a_kind_of_thing() -> None:
    colour = answer_pattern("What colour did Sam's first mug come out?")
    assert colour is not None and colour.search("It came out a muddy green")
    assert not colour.search("It came out wonky")
    city = answer_pattern("Which city did Jonas move to?")
    assert city is not None and city.search("he moved to Umeå last spring")
    when = answer_pattern("When does the course take place?")  # a when, not a place
    assert when is not None and not when.search("held in Leeds")
