"""One likeness module: the shared word core and each purpose's folding."""

from __future__ import annotations

from memclaw.text.likeness import (
    Fingerprint,
    containment,
    jaccard,
    known_in,
    known_lines,
    supersedes,
    tokens,
    words,
)


def test_jaccard_and_containment() -> None:
    assert jaccard({"a", "b"}, {"b", "c"}) == 1 / 3
    assert jaccard(set(), set()) == 1.0 and jaccard({"a"}, set()) == 0.0
    assert containment({"a", "b"}, {"a", "b", "c"}) == 1.0 and containment(set(), {"a"}) == 0.0


def test_both_purposes_read_a_number_and_its_unit_as_one_value() -> None:
    assert tokens("Runs 12 km on Sundays") == tokens("Runs 12km on Sundays")
    assert known_in("Runs 12 km on Sundays", known_lines("- Runs 12km on Sundays"))
    assert tokens("The table has 18,940 rows") == tokens("The table has 18940 rows")
    assert "12km" in words("Runs 12 km on Sundays")


def test_a_time_is_one_token_so_swapped_digits_are_news() -> None:
    assert "10:00" in tokens("Standup moved to 10:00")
    assert not known_in("Standup moved to 10:00", known_lines("- Standup at 00:10"))


def test_extraction_keeps_order_words_dreaming_drops_them() -> None:
    assert tokens("Run the tests before merging") != tokens("Run the tests after merging")
    assert words("Run the tests before merging") == words("Run the tests after merging")


def test_function_words_and_whom_a_fact_is_about_are_dropped() -> None:
    assert tokens("The user must always use uv") == tokens("uv, always use")
    assert "may" not in tokens("She may prefer tea")
    # To dreaming "May" is also a month: leave in May is not leave in June.
    may, june = Fingerprint.of("Parental leave in May"), Fingerprint.of("Parental leave in June")
    assert may.tokens != june.tokens


def test_dreaming_keeps_values_whole_and_sees_a_newer_measure() -> None:
    assert {"3.12", "2026-12-12"} <= set(words("Bumped Python to 3.12 on 2026-12-12"))
    newer = Fingerprint.of("The nightly backup takes 6h")
    older = Fingerprint.of("The nightly backup takes 4h")
    assert supersedes(newer, older)
