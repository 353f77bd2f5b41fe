"""The offline engine makes short facts about one subject into one self-contained sentence."""

from pathlib import Path

from extract.extractkit import make_agent
from memclaw.extract.offline.engine import extract_facts
from memclaw.extract.offline.fragments import combine_facts
from memclaw.extract.offline.people import Fact
from memclaw.extract.pipeline import extract_conversation
from memclaw.extract.result import Status
from memclaw.judgement import judge
from memclaw.text.combine import MAX_WORDS, join
from memclaw.text.likeness import known_lines
from memclaw.workspace.scope import Scope

SUNDAY = "2026-11-29"
DOG = "User has a dog named Poppy and walks the dog every day."


def _chat(*said: str) -> list[dict[str, str]]:
    """One user turn per message, each answered."""
    chat = []
    for text in said:
        chat += [{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]
    return chat


def _facts(*said: str, known: tuple[str, ...] = ()) -> list[Fact]:
    return extract_facts(_chat(*said), SUNDAY, known_lines(*known)).facts


def test_a_dog_told_in_three_turns_is_one_fact() -> None:
    facts = _facts("I have a dog.", "Her name is Poppy.", "I walk her every day.")
    assert [(f.category, f.text) for f in facts] == [("relationship", DOG)]


def test_a_dog_told_in_one_message_is_one_fact_too() -> None:
    facts = _facts("I have a dog. The dog's name is Poppy. I walk the dog every day.")
    assert [f.text for f in facts] == [DOG]


def test_once_the_name_is_known_the_joined_fact_uses_it() -> None:
    chat = _chat("I'm Sarah. I have a dog.", "Her name is Poppy.", "I walk her every day.")
    texts = [f.text for f in extract_facts(chat, SUNDAY).facts]
    assert texts == ["User is Sarah.", "Sarah has a dog named Poppy and walks the dog every day."]
    chat = _chat("I have a dog.", "Her name is Poppy.", "I walk her every day.")
    texts = [f.text for f in extract_facts(chat, SUNDAY, person="Sarah").facts]
    assert texts == ["Sarah has a dog named Poppy and walks the dog every day."]


def test_a_pronoun_is_the_pet_only_while_the_talk_is_about_it() -> None:
    facts = _facts("I have a cat. I also keep a sourdough starter. I feed it every day.")
    assert [f.text for f in facts] == ["User has a cat."]


def test_a_pronoun_does_not_reach_back_past_a_message_about_something_else() -> None:
    facts = _facts(
        "I have a dog.",
        "What should I cook tonight?",
        "My sister visited yesterday. Her name is Alice.",
        "Her name is Maria.",
    )
    assert [f.text for f in facts] == ["User has a dog."]


def test_a_joined_fact_is_checked_again_as_a_whole() -> None:
    forgotten = {"User has a dog named Poppy and walks the dog every day."}.__contains__
    said = _chat("I have a dog.", "Her name is Poppy.", "I walk her every day.")
    found = extract_facts(said, SUNDAY, forgotten=forgotten)
    assert found.facts == [] and found.forgotten == 1  # each piece alone was not forgotten


def test_spanish_fragments_join_in_spanish() -> None:
    facts = _facts("Tengo un perro. Se llama Poppy. Lo paseo todos los días.")
    joined = "El usuario tiene un perro que se llama Poppy y pasea al perro todos los días."
    assert [f.text for f in facts] == [joined]
    # "cada mañana" is every morning, never tomorrow's date.
    facts = _facts("Tengo una perra. Mi perra se llama Luna. La paseo cada mañana.")
    joined = "El usuario tiene una perra que se llama Luna y pasea a la perra cada mañana."
    assert [f.text for f in facts] == [joined]


def test_facts_that_disagree_are_never_joined() -> None:
    facts = _facts(
        "I have a dog.", "Her name is Poppy.", "I love the dog park.", "I hate the dog park."
    )
    texts = [f.text for f in facts]
    love, hate = "User loves the dog park.", "User hates the dog park."
    # Words alone would make one sentence of the two; the fact layer's judge says they clash.
    assert join([love, hate]) is not None and judge(love, hate).disagrees
    assert texts == ["User has a dog named Poppy.", love, hate]


def test_a_joined_sentence_stops_at_max_words() -> None:
    said = [
        "I have a dog.",
        "I walk the dog every morning along the river before work.",
        "I feed the dog twice a day with food from the vet.",
        "I brush the dog every Sunday after a long walk outside.",
        "I train the dog every evening in the garden behind the house.",
        "I bathe the dog once a month in the tub downstairs.",
    ]
    facts = _facts(*said)
    assert len(facts) == 2 and facts[0].text.startswith("User has a dog and walks the dog")
    assert all(len(f.text.split()) <= MAX_WORDS for f in facts)
    assert sum(len(s.split()) for s in said) > MAX_WORDS  # all of it would not fit
    for verb in ("walks", "feeds", "brushes", "trains", "bathes"):
        assert any(verb in f.text for f in facts)


def test_a_long_fact_stays_on_its_own() -> None:
    long = "I walk the dog every single morning along the river path before breakfast and work."
    facts = _facts("I have a dog. Her name is Poppy.", long)
    assert [f.text for f in facts] == [
        "User has a dog named Poppy.",
        "User walks the dog every single morning along the river path before breakfast and work.",
    ]


def test_facts_bound_for_different_sections_stay_apart() -> None:
    facts = _facts("I have a dog. Her name is Poppy.", "I always walk the dog before work.")
    assert [(f.category, f.text) for f in facts] == [
        ("relationship", "User has a dog named Poppy."),
        ("preference", "User always walks the dog before work."),
    ]


def test_a_newer_version_absorbs_the_older_in_one_run() -> None:
    older = Fact("project", "User is planning a trip to Paris in September with friend Jack.")
    newer = Fact("project", "User booked the Paris trip for 2026-09-12 to 2026-09-19.")
    other = Fact("rule", "User rule: never book flights before 07:00.")
    combined = combine_facts([older, other, newer], lambda f: f.category)
    assert [f.text for f in combined.facts] == [
        other.text,
        "User booked the Paris trip for 2026-09-12 to 2026-09-19, with friend Jack.",
    ]
    assert (combined.pieces, combined.wholes) == (2, 1)


def test_dry_run_report_and_daily_note_show_one_fact(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    chat = _chat("I have a dog.", "Her name is Poppy.", "I walk her every day.")
    result = extract_conversation(Scope(agent), chat, dry_run=True, force=True)
    assert result.status is Status.WOULD_WRITE
    assert [f.text for f in result.facts] == [DOG]
    assert result.reason == "1 new fact: relationship; 3 facts joined into 1"
    added = [line for line in result.diffs["MEMORY.md"].splitlines() if line.startswith("+- ")]
    assert added == [f"+- {DOG}"]
    (note,) = [rel for rel in result.diffs if rel.startswith("memory/")]
    bullets = [line for line in result.diffs[note].splitlines() if line.startswith("+- ")]
    assert bullets == [f"+- [relationship] {DOG}"]


def test_a_line_a_person_wrote_is_never_reworded(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    mine = "- User has a dog named Poppy (a rescue)."
    memory = agent.path / "MEMORY.md"
    memory.write_text(memory.read_text() + f"\n## People\n\n{mine}\n")  # typed in an editor
    chat = _chat("I have a dog named Poppy.", "I walk her every day.", "I brush her every Sunday.")
    result = extract_conversation(Scope(agent), chat, force=True)
    assert result.status is Status.WRITTEN
    lines = agent.read("MEMORY.md").splitlines()
    assert mine in lines  # byte for byte: a person's line is no fragment to join
    joined = "- User walks the dog every day and brushes the dog every Sunday."
    assert lines.index(joined) == lines.index(mine) + 1


def test_labelled_and_dated_facts_keep_their_own_lines() -> None:
    facts = _facts("Never push to the main branch.", "Always rebase the main branch first.")
    texts = [f.text for f in facts]
    assert len(texts) == 2 and all(t.startswith("User rule: ") for t in texts)
    assert join(texts) is not None  # words alone would put "rule:" mid-sentence
    dated = [
        Fact("decision", "As of 2026-11-29, user decided to sell the car."),
        Fact("decision", "As of 2026-11-29, user decided to buy the car insurance."),
    ]
    assert combine_facts(dated, lambda f: f.category).facts == dated
