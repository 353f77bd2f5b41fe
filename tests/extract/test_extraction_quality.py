"""The offline extractor on the labelled sets: precision, recall, and never a secret."""

from extract.extraction_cases import CASES, measure
from extract.extraction_heldout import HELDOUT, HELDOUT_CASES

CATEGORIES = {
    "identity",
    "preference",
    "rule",
    "decision",
    "configuration",
    "technical",
    "relationship",
    "project",
}

# The turns the rules were written and tuned against (extraction_cases.py): 1.000 / 1.000
# on 89 turns (benchmarks/bench_extraction.py). The floor is kept where it was.
PRECISION_FLOOR = 0.95
RECALL_FLOOR = 0.80
# The odd half of extraction_heldout.py, written before the rules were generalised and
# never tuned against: 0.967 / 0.879 on 44 turns when first measured. Floors just below.
HELDOUT_PRECISION_FLOOR = 0.95
HELDOUT_RECALL_FLOOR = 0.85


def test_the_sets_are_big_enough_and_cover_every_category() -> None:
    for cases, negatives in ((CASES, 20), (HELDOUT_CASES, 20)):
        assert len(cases) >= 60
        assert {category for case in cases for category in case.expected} == CATEGORIES
        assert sum(1 for case in cases if not case.expected) >= negatives
    assert {category for case in HELDOUT for category in case.expected} == CATEGORIES


def test_precision_and_recall_stay_above_their_floors() -> None:
    result = measure()
    assert result.overall.precision >= PRECISION_FLOOR, result.mistakes
    assert result.overall.recall >= RECALL_FLOOR, result.mistakes


def test_held_out_precision_and_recall_stay_above_their_floors() -> None:
    result = measure(HELDOUT)
    assert result.overall.precision >= HELDOUT_PRECISION_FLOOR, result.mistakes
    assert result.overall.recall >= HELDOUT_RECALL_FLOOR, result.mistakes


def test_no_secret_is_ever_written() -> None:
    assert measure().secrets_written == 0
    assert measure(HELDOUT_CASES).secrets_written == 0
