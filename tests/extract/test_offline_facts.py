"""What the offline extractor writes: self-contained facts, dated, never a restatement."""

from datetime import UTC, datetime
from pathlib import Path

import pytest

from extract.extractkit import Clock
from memclaw.extract.offline.dates import resolve_relative
from memclaw.extract.offline.engine import extract_facts
from memclaw.extract.pipeline import extract_conversation
from memclaw.extract.result import Status
from memclaw.text.likeness import known_lines
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope

SUNDAY = "2026-11-29"


def _texts(*messages: str, day: str = SUNDAY, known: tuple[str, ...] = ()) -> list[str]:
    chat = [{"role": "user", "content": text} for text in messages]
    return [fact.text for fact in extract_facts(chat, day, known_lines(*known)).facts]


@pytest.mark.parametrize(
    ("text", "resolved"),
    [
        ("Hanna starts Monday", "Hanna starts on 2026-11-30"),
        ("the beta ships next Thursday", "the beta ships on 2026-12-03"),
        ("we launched it yesterday", "we launched it on 2026-11-28"),
        ("I sprained my wrist on Saturday", "I sprained my wrist on 2026-11-28"),
        ("standup moves to 09:45 starting next week", "starting the week of 2026-11-30"),
        ("we migrated last week", "we migrated in the week of 2026-11-16"),
        ("the audit is in two weeks", "the audit is on 2026-12-13"),
        ("we meet every Monday", "we meet every Monday"),
        ("on Mondays I swim", "on Mondays I swim"),
        # Where a change goes is a day to come, and a weekday the date follows is a label.
        ("the review moved to Thursday", "the review moved to 2026-12-03"),
        ("the deadline moved to Friday 2026-12-11", "the deadline moved to Friday 2026-12-11"),
        ("the deadline moved to Friday December 11th", "moved to Friday December 11th"),
        ("it moved to Friday the 11th", "it moved to Friday the 11th"),
        ("the demo is on Friday 10 am", "the demo is on 2026-12-04 10 am"),
    ],
)
def test_relative_days_become_iso_dates(text: str, resolved: str) -> None:
    assert resolved in resolve_relative(text, SUNDAY)


def test_a_weekday_the_date_follows_stays_in_every_language() -> None:
    said = "mötet flyttades till fredag den 11 december"
    assert resolve_relative(said, SUNDAY, "sv") == said
    assert "am 2026-12-04" in resolve_relative("das Treffen ist am Freitag", SUNDAY, "de")


def test_a_weekday_in_a_fact_is_resolved_from_the_conversation_date() -> None:
    (fact,) = _texts("Other news: Hanna Virtanen starts Monday.")
    assert "2026-11-30" in fact and "Monday" not in fact


def test_a_pronoun_takes_its_noun_from_the_sentence_before() -> None:
    (fact,) = _texts(
        "Tomas is sending me the new staging DB credentials tonight. "
        "Don't keep those anywhere, even if I paste them here by mistake."
    )
    assert "the new staging DB credentials" in fact and "those" not in fact


def test_a_pronoun_without_an_antecedent_drops_the_fact() -> None:
    assert _texts("Don't keep those anywhere.") == []
    assert _texts("We had a long retro. Never schedule those on Fridays again.") == []


def test_a_paraphrase_of_a_known_rule_is_not_news() -> None:
    known = ("- Never keep credentials, even when she pastes them by accident.",)
    message = "Tomas sends the staging DB credentials tonight. Don't store those anywhere."
    assert _texts(message, known=known) == []
    assert _texts("reminder: nobody pushes straight to main", known=("Never push to main",)) == []
    # A different rule about the same thing is still new.
    assert _texts("Never deploy on Fridays", known=("Never push directly to main",))


def test_two_facts_in_one_sentence_are_both_kept() -> None:
    facts = extract_facts(
        [{"role": "user", "content": "I'm a backend dev at Kivra and we write everything in Go"}],
        SUNDAY,
    ).facts
    assert {fact.category for fact in facts} == {"identity", "technical"}


def test_a_credential_drops_only_its_own_sentence() -> None:
    token = "ghp_" + "T3vb9Qw2Lk8Nx5Rz1Hc7Ym4Pd6Js0Fa2Ge9Ku"
    texts = _texts(f"I'm Dana, devops at Kestrel. My GitHub token is {token}")
    assert texts == ["Dana is a devops at Kestrel."]


@pytest.mark.parametrize(
    "message",
    [
        "Sure! Here's a quick summary of the main points:\n1. The API is stable\n"
        "Let me know if you need anything else!",
        "As an AI language model, I cannot browse the internet.",
        "I'm on it",
        "we're on the same page then",
        "I don't know what you mean",
        "From now on I'll try to be more careful",
        "Our stack is a mess honestly",
        "The API is returning 500s",
        "can u check if the backups run every night?",
    ],
)
def test_chatter_that_looks_like_a_frame_is_not_kept(message: str) -> None:
    assert _texts(message) == []


def test_casual_typing_is_read_like_careful_typing() -> None:
    assert _texts("im based in lisbon btw") == ["User is based in Lisbon."]
    assert _texts("fyi we're on Python 3.12 now 🚀") == ["The team is on Python 3.12 now."]


def test_demo_dry_run_says_what_it_would_write(demo_agent: Path) -> None:
    clock = Clock(datetime(2026, 11, 29, 12, 0, tzinfo=UTC))
    agent = Workspace.open(demo_agent.parent, env={}, clock=clock).agent("demo")
    from memclaw.extract.transcripts import load_session

    messages = load_session(Scope(agent), "2026-11-28-demo")
    result = extract_conversation(Scope(agent), messages, force=True, dry_run=True)
    assert result.status is Status.WOULD_WRITE
    written = "".join(result.diffs.values())
    added = [line for line in written.splitlines() if line.startswith("+- ")]
    assert added, written
    assert not any(" those " in line or "Monday" in line for line in added), added
    assert any("Hanna Virtanen starts on 2026-11-30" in line for line in added), added


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "On Tuesdays I play the cello in a small orchestra.",
            "User plays the cello in a small orchestra on Tuesdays.",
        ),
        ("Every Sunday I go running with Lina.", "User goes running with Lina every Sunday."),
        ("I play chess.", "User plays chess."),  # what one plays needs no time
        # what follows the name is the sister's to do, in a sentence of its own grammar
        ("My sister Lina lives in Utrecht.", "Lina is the user's sister and lives in Utrecht."),
    ],
)
def test_a_habit_and_a_relative_are_kept_as_said(said: str, kept: str) -> None:
    assert _texts(said) == [kept]


def test_something_done_once_is_no_habit() -> None:
    assert _texts("I go to the store.") == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I got a second cat, Luna.", "Luna is the user's second cat."),
        ("Also we got a rabbit, her name is Snöboll.", "Snöboll is the user's rabbit."),
        ("My second cat is called Mochi.", "Mochi is the user's cat."),
        ("Every Tuesday I have a 1:1 with Olga.", "User has a 1:1 with Olga every Tuesday."),
        ("I work from home on Fridays.", "User works from home on Fridays."),
    ],
)
def test_a_pet_told_with_its_name_and_a_standing_meeting_are_kept(said: str, kept: str) -> None:
    assert _texts(said) == [kept]


def test_a_german_and_a_spanish_chat_keep_what_each_sentence_says() -> None:
    """Each person of a tie named, a pet named, where one lives since when, one's trade;
    a message too short to tell its language is read in the conversation's."""
    german = _texts(
        "Ich wohne seit März in Leipzig.",
        "Meine Schwester Jana studiert Medizin in Heidelberg.",
        "Wir haben einen Hund, er heißt Bello.",
    )
    assert german == [
        "Der Nutzer wohnt seit März in Leipzig.",
        "Die Schwester des Nutzers, Jana, studiert Medizin in Heidelberg.",
        "Bello ist Hund des Nutzers.",
    ]
    spanish = _texts(
        "Mi hermano Pablo trabaja en Madrid.",
        "Soy profesora de matemáticas.",
        "Tengo un gato que se llama Nube.",
    )
    assert spanish == [
        "Pablo, hermano del usuario, trabaja en Madrid.",
        "El usuario es profesora de matemáticas.",
        "El gato del usuario se llama Nube.",
    ]
    assert _texts("Soy feliz hoy.") == []  # a mood, no trade
    # A short message in another language than the rest is read in its own.
    assert _texts("I work as a nurse in Leeds.", "Me mudé a Valencia.") == [
        "User is a nurse at Leeds.",
        "El usuario se mudó a Valencia.",
    ]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # What is the speaker's is the user's once the sentence is about the user.
        ("Vivo en Sevilla con mi perro Toby.", "El usuario vive en Sevilla con su perro Toby."),
        ("Jag bor i Malmö med min hund Bamse.", "Användaren bor i Malmö med sin hund Bamse."),
        (
            "Ich wohne in München mit meiner Katze Luna.",
            "Der Nutzer wohnt in München mit seiner Katze Luna.",
        ),
        # A new employer said with "now".
        ("I now work at Globex.", "User works at Globex."),
    ],
)
def test_the_speakers_own_words_are_said_of_the_user(said: str, kept: str) -> None:
    assert _texts(said) == [kept]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # Where a person the user speaks of lives, who employs them, what they are.
        ("Sam lives in Lisbon with his cat Miso.", "Sam lives in Lisbon with his cat Miso."),
        ("Priya works at Spotify.", "Priya works at Spotify."),
        ("Anna works as a nurse at Karolinska.", "Anna works as a nurse at Karolinska."),
    ],
)
def test_what_a_named_person_lives_by_is_kept(said: str, kept: str) -> None:
    assert _texts(said) == [f"As of {SUNDAY}, {kept}"]


def test_a_place_or_a_mood_is_no_persons_attribute() -> None:
    assert _texts("Lisbon is lovely in May.") == []
    assert _texts("Sam is tired today.") == []


def test_an_opener_that_only_points_at_a_fact_is_left_out() -> None:
    said = _texts("Note that the project deadline is 2026-03-01.")
    assert said == [f"As of {SUNDAY}, the project deadline is 2026-03-01."]
