"""British and American spellings, and hyphenated words, meet in the index."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memclaw.index import search
from memclaw.text.spelling import american
from memclaw.text.tokenize import parse_query, tokens
from memclaw.workspace import Workspace


@pytest.mark.parametrize(
    ("british", "us"),
    [
        ("colour", "color"),
        ("colourful", "colorful"),
        ("neighbours", "neighbors"),
        ("organising", "organizing"),
        ("organisation", "organization"),
        ("analysed", "analyzed"),
        ("centres", "centers"),
        ("theatre", "theater"),
        ("defence", "defense"),
        ("grey", "gray"),
        ("travelled", "traveled"),
        ("cancelling", "canceling"),
        ("programme", "program"),
        ("practised", "practiced"),
        ("tyres", "tires"),
    ],
)
def test_british_spellings_fold_to_american(british: str, us: str) -> None:
    assert american(british) == us
    assert tokens(british) == tokens(us)


@pytest.mark.parametrize("word", ["four", "promise", "analysis", "exercise", "hour", "emphasis"])
def test_words_that_only_look_british_stay(word: str) -> None:
    assert american(word) == word


def test_a_hyphenated_word_is_also_one_word() -> None:
    assert tokens("to de-stress") == ["to", "destress", "de", "stress"]
    assert "destress" in parse_query("de-stress").match()
    assert tokens("2026-12-12") == ["2026", "12", "12", "20261212"]  # dates stay dates


def test_searches_meet_across_spellings_and_hyphens(
    note_workspace: Callable[[str], Workspace],
) -> None:
    ws = note_workspace(
        "- Hugo: I've started rock climbing to de-stress after work.\n"
        "- Beth: We painted the kitchen a pale grey colour.\n"
        "- Beth: I signed up for a half-marathon.\n",
    )
    assert search(ws, "destress")[0].line == 1
    assert search(ws, "gray color")[0].line == 2
    assert search(ws, "half marathon")[0].line == 3
    assert search(ws, "halfmarathon")[0].line == 3
