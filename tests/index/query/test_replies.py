"""The turn after a question that matches is recalled with it: it is what answers it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memclaw.index import search
from memclaw.index.keyword import LENT_SHARE
from memclaw.workspace import Workspace

NOW = datetime(2023, 6, 1, 12, 0, tzinfo=UTC)
NOTE = """# 2023-05-06

## 20:00 Hugo and Beth
- Hugo: How was the baby shower?
- Beth: Sweet, my sister loved it.
- Hugo: And who won the guessing game?
- Beth: My dad, somehow, with a piece of string the length of a sofa.
- Hugo: Ha, that sounds like him.
- Beth: Totally.
- Hugo: Shall we play chess next week?
- Hugo: Chess is a long game, mind you.
"""


def _ws(root: Path) -> Workspace:
    (root / "a" / "memory").mkdir(parents=True)
    (root / "a" / "memory" / "2023-05-06.md").write_text(NOTE, encoding="utf-8")
    return Workspace.open(root, clock=lambda: NOW)


def test_the_reply_to_a_matching_question_is_recalled_right_after_it(
    isolated_env: Path,
) -> None:
    hits = search(_ws(isolated_env), "who won the game at the shower", limit=5)
    lines = [h.line for h in hits]
    # "My dad, somehow..." shares no word with the query (nor do its neighbours lend
    # it "won": its context holds other words first); it answers line 6.
    assert 7 in lines
    assert lines.index(7) == lines.index(6) + 1


def test_a_question_answered_by_the_same_speaker_lends_no_reply(isolated_env: Path) -> None:
    hits = search(_ws(isolated_env), "shall we play next week", limit=5)
    # Line 11 is Hugo again, going on: not a reply to his own question. It comes only as
    # a turn of the talk that its neighbour's words match, a share of that turn's score.
    assert [h.line for h in hits] == [10, 11]
    assert hits[1].highlights == () and hits[1].score <= LENT_SHARE * hits[0].score


TALK = """# 2023-03-02

## 15:00 Noor and Sam
- Noor: Zara played her first piece at the school concert on Thursday.
- Sam: I bet she was brilliant.
- Noor: Ode to Joy, with only two mistakes.
- Sam: Tell her I'm very proud.
"""
NOTES = """# Incidents

## Incident 14
- Cause: the import job ran twice on Wednesday
- Fix: a lock around the nightly run
- Owner: Priya
"""


def test_a_turn_of_a_talk_is_found_by_its_neighbours_words(isolated_env: Path) -> None:
    (isolated_env / "a" / "memory").mkdir(parents=True)
    (isolated_env / "a" / "memory" / "2023-03-02.md").write_text(TALK, encoding="utf-8")
    ws = Workspace.open(isolated_env, clock=lambda: NOW)
    hits = search(ws, "what did Zara play at the school concert", limit=5)
    # "Ode to Joy" holds no word of the question: the turn two up, the same person's, does.
    lines = [h.line for h in hits]
    assert lines[0] == 4 and 6 in lines
    answer = hits[lines.index(6)]
    assert answer.highlights == () and answer.score <= LENT_SHARE * hits[0].score


def test_labelled_notes_are_no_talk(isolated_env: Path) -> None:
    (isolated_env / "a").mkdir()
    (isolated_env / "a" / "MEMORY.md").write_text(NOTES, encoding="utf-8")
    ws = Workspace.open(isolated_env, clock=lambda: NOW)
    # "Fix:" and "Owner:" look like speakers but each says one thing once: their
    # neighbour's words do not make them hits.
    assert [h.line for h in search(ws, "import job wednesday", limit=5)] == [4]
