"""English irregular forms meet their base word in the index: "went" is "go"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memclaw.index import search
from memclaw.text.irregular import base_form
from memclaw.text.tokenize import STOPWORD_WORDS, parse_query, tokens
from memclaw.workspace import Workspace


@pytest.mark.parametrize(
    ("form", "base"),
    [
        ("went", "go"),
        ("gone", "go"),
        ("bought", "buy"),
        ("met", "meet"),
        ("taught", "teach"),
        ("swam", "swim"),
        ("written", "write"),
        ("children", "child"),
        ("knives", "knife"),
        ("found", "find"),
    ],
)
def test_irregular_forms_fold_to_their_base(form: str, base: str) -> None:
    assert base_form(form) == base
    assert tokens(f"I {form}", "english") == tokens(f"I {base}", "english")


@pytest.mark.parametrize("word", ["left", "lives", "leaves", "bit", "rose", "ground", "better"])
def test_words_that_are_words_of_their_own_stay(word: str) -> None:
    assert base_form(word) == word


def test_no_stopword_is_folded() -> None:
    # A stopword folded in the index but dropped from the query would match nothing.
    assert all(base_form(word) == word for word in STOPWORD_WORDS)


def test_only_english_blocks_are_folded() -> None:
    # "went" is not a Swedish or German word; a word of another language keeps its stem.
    assert tokens("went", "swedish") == ["went"]
    assert ("go",) in parse_query("went").terms[0].forms


def test_a_question_finds_the_answer_told_in_the_past(
    note_workspace: Callable[[str], Workspace],
) -> None:
    ws = note_workspace(
        "- Maya: I went to Porto on Friday and bought a kayak there.\n"
        "- Tom: The children taught me a card game last night.\n"
        "- Maya: We go swimming on Sundays.\n"
        "- Tom: I buy bread at the market.\n",
    )
    assert search(ws, "When did Maya go to Porto?")[0].line == 1
    assert search(ws, "What did Maya buy in Porto?")[0].line == 1
    assert search(ws, "What did the child teach Tom?")[0].line == 2
