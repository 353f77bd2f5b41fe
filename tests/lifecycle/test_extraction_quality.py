"""The offline extractor on the labelled set: precision, recall, and never a secret."""

from lifecycle.extraction_cases import CASES, measure

# Measured on 89 turns: precision 1.000, recall 0.828 (benchmarks/bench_extraction.py).
PRECISION_FLOOR = 0.95
RECALL_FLOOR = 0.80


def test_the_set_is_big_enough_and_covers_every_category() -> None:
    assert len(CASES) >= 60
    labelled = {category for case in CASES for category in case.expected}
    assert labelled == {
        "identity",
        "preference",
        "rule",
        "decision",
        "configuration",
        "technical",
        "relationship",
        "project",
    }
    assert sum(1 for case in CASES if not case.expected) >= 20


def test_precision_and_recall_stay_above_their_floors() -> None:
    result = measure()
    assert result.overall.precision >= PRECISION_FLOOR, result.mistakes
    assert result.overall.recall >= RECALL_FLOOR, result.mistakes


def test_no_secret_is_ever_written() -> None:
    assert measure().secrets_written == 0
