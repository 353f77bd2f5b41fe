"""Combining statements offline: versions absorbed, fragments about one thing joined."""

from memclaw.text.combine import MAX_WORDS, absorb, join, same_thing, updates


def test_fragments_about_one_thing_become_one_sentence() -> None:
    dog = ["User has a dog", "Dog's name is Poppy", "User walks the dog daily"]
    assert join(dog) == "User has a dog named Poppy and walks the dog daily."
    assert join(["The dog is old.", "The dog sleeps a lot."]) == "The dog is old and sleeps a lot."


def test_what_is_not_fragments_of_one_thing_stays_apart() -> None:
    assert join(["User lives in Oslo", "Maya lives in Bergen"]) is None  # a verb, no thing
    assert join(["Maya lives in Majorna", "Maya learns Swedish"]) is None  # a person
    same_kind = ["Maya owns project 1 of the team", "Maya owns project 2 of the team"]
    assert join(same_kind) is None  # other values: two facts, not two halves of one
    long = [f"The garden has {n} tall old apple trees near the north fence" for n in "abcdef"]
    assert join(long) is None  # one sentence never grows past MAX_WORDS
    assert MAX_WORDS == 50


def test_a_version_takes_in_only_what_is_new() -> None:
    older = "User is planning a trip to Paris in September with friend Jack."
    newer = "User booked the Paris trip for 2026-09-12 to 2026-09-19."
    assert absorb(newer, older) == (
        "User booked the Paris trip for 2026-09-12 to 2026-09-19, with friend Jack."
    )
    assert absorb(newer, "User plans a Paris trip.") == newer


def test_facts_sharing_only_names_are_not_versions_of_one() -> None:
    assert not same_thing("Maya's manager is Jonas Ek", "Jonas Ek reviews Maya's pull requests")
    assert same_thing("Maya plans a Paris trip", "Maya booked the Paris trip for May")


def test_a_version_restates_the_older_head_but_for_its_status() -> None:
    older = "User is planning a trip to Paris in September with friend Jack."
    assert updates("User booked the Paris trip for 2026-09-12.", older)
    # Another fact about the same team: "moved to Oslo" is no status, so both stay.
    assert not updates("The Atlas team has 5 engineers.", "The Atlas team moved to Oslo.")
