"""``join`` reads the ways the offline engine words a name, in English and Spanish."""

from memclaw.extract.offline.dates import resolve_relative
from memclaw.text.combine import join


def test_a_pet_named_as_the_engine_words_it_joins_its_owner() -> None:
    facts = ["User has a dog.", "Poppy is the user's dog.", "User walks the dog every day."]
    assert join(facts) == "User has a dog named Poppy and walks the dog every day."


def test_spanish_facts_join_with_spanish_words() -> None:
    facts = [
        "El usuario tiene un perro.",
        "El perro del usuario se llama Poppy.",
        "El usuario pasea al perro todos los días.",
    ]
    joined = "El usuario tiene un perro que se llama Poppy y pasea al perro todos los días."
    assert join(facts) == joined


def test_the_user_is_no_thing_to_join_on() -> None:
    # Two facts about the person share only "el usuario": unrelated, as in English.
    assert join(["El usuario vive en Madrid.", "El usuario trabaja en Acme."]) is None


def test_spanish_mornings_are_no_dates() -> None:
    day = "2026-11-29"
    assert resolve_relative("Paseo al perro cada mañana.", day, "es").endswith("cada mañana.")
    assert resolve_relative("Corro por la mañana.", day, "es").endswith("la mañana.")
    assert "2026-11-30" in resolve_relative("La reunión es mañana.", day, "es")
