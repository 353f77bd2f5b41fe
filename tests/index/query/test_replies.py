"""The turn after a question that matches is recalled with it: it is what answers it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memclaw.index import search
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
    # Line 11 is Hugo again, going on: not a reply to his own question.
    assert [h.line for h in hits] == [10]
