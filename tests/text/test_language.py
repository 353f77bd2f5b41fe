"""Language guessing per block: function words and telling letters vote, English by default."""

import pytest

from memclaw.text.language import language_of


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("- Maya: Knut ska vaccineras hos veterinären på torsdag.", "swedish"),
        ("Ingrid har flyttat till Lund och trivs där.", "swedish"),
        ("- Maya: Die Übergabe der Datenbank ist am Samstag.", "german"),
        ("Hoy vamos a la playa con los niños", "spanish"),
        ("Je suis allé chez le médecin avec ma fille", "french"),
        ("Ele mora em São Paulo com a família", "portuguese"),
        ("Oggi sono andato al mercato con mia sorella", "italian"),
        ("Ik ben gisteren naar de markt geweest met mijn zus", "dutch"),
        ("Jeg har ikke været hjemme i dag", "danish"),
        ("Jeg har ikke vært hjemme i dag, det er mye å gjøre", "norwegian"),
        ("Minä olen kotona ja se on hyvä", "finnish"),
        ("- Maya lives in Malmö these days.", "english"),  # a Swedish city, English words
        ("Booked the dentist for May 3 at 08:15.", "english"),
        ("PostGIS cutover window", "english"),  # no vote at all
        ("東京都庁で会議があった", "english"),  # CJK is not stemmed: any answer will do
        ("", "english"),
    ],
)
def test_blocks_are_guessed_by_their_function_words_and_letters(text: str, language: str) -> None:
    assert language_of(text) == language


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Me mudé a Sevilla ayer", "spanish"),
        ("Mi hermana vive en Madrid", "spanish"),
        ("Me gusta el café", "spanish"),
        ("Give me a minute", "english"),
        ("I met José at the café", "english"),
        ("Il a été très gentil", "french"),
        ("Ela é médica", "portuguese"),
    ],
)
def test_short_spanish_is_not_taken_for_english(text: str, language: str) -> None:
    # "a" and "me" are Spanish function words too, and "mudé" is written with an acute.
    assert language_of(text) == language
