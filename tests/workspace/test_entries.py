"""Memory entries: parsing, formatting, and the injection budget (trim at injection only)."""

from dataclasses import replace
from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from memclaw.workspace.entries import (
    Entry,
    budget_entries,
    format_entries,
    parse_entries,
    splice_entries,
)

SAMPLE = """\
# Preferences

Some text a person wrote above the entries; it is ignored.

## m-1
Maya prefers terse answers.

- category: preference
- created: 2026-11-20
- updated: 2026-11-28
- source: chat

## m-2
Uses uv, not Poetry.
Since November.

- category: preference
- created: not-a-date
"""


def test_parse_entries_reads_text_and_metadata() -> None:
    first, second = parse_entries(SAMPLE, "other")
    assert first == Entry(
        "m-1",
        "Maya prefers terse answers.",
        "preference",
        date(2026, 11, 20),
        date(2026, 11, 28),
        {"source": "chat"},
    )
    assert second.text == "Uses uv, not Poetry.\nSince November."
    assert second.created is None  # a bad date is dropped, not fatal
    assert second.sort_date == date.min


def test_blocks_without_text_are_skipped() -> None:
    assert parse_entries("## m-1\n\n- category: rule\n\n## m-2\nkept\n") == [Entry("m-2", "kept")]


def test_default_category_comes_from_the_file() -> None:
    assert parse_entries("## m-1\nfact\n", "rule")[0].category == "rule"


def _entry(i: int, category: str = "preference", text: str | None = None) -> Entry:
    day = date(2026, 1, 1) + timedelta(days=i)
    return Entry(f"m-{i}", text or f"fact number {i}", category, day, day)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.builds(
            Entry,
            st.from_regex(r"m-[a-z0-9]{1,8}", fullmatch=True),
            st.text(alphabet="abc xyz.,:\n", min_size=1, max_size=60).filter(str.strip),
            st.sampled_from(["rule", "preference"]),
            st.none() | st.dates(),
            st.none() | st.dates(),
        ),
        max_size=6,
        unique_by=lambda e: e.id,
    )
)
def test_format_then_parse_round_trips(entries: list[Entry]) -> None:
    parsed = parse_entries(format_entries(entries, "Entries"))
    assert [(e.id, e.text.strip(), e.category, e.created, e.updated) for e in parsed] == [
        (e.id, e.text.strip(), e.category, e.created, e.updated) for e in entries
    ]


def test_budget_keeps_newest_first() -> None:
    entries = [_entry(i) for i in range(5)]
    result = budget_entries(entries, 0, 0)
    assert result.shown == 5 and result.omitted == 0
    assert [line.split("number ")[1][0] for line in result.text.splitlines()] == list("43210")
    assert "(updated 2026-01-05)" in result.text.splitlines()[0]


def test_budget_caps_each_category() -> None:
    entries = [_entry(i, "rule") for i in range(50)] + [_entry(i, "project") for i in range(3)]
    result = budget_entries(entries, 0, 40)
    lines = result.text.splitlines()
    assert sum(line.startswith("- [rule]") for line in lines) == 40
    assert sum(line.startswith("- [project]") for line in lines) == 3
    assert result.omitted == 10
    assert "fact number 9 " not in result.text  # the ten oldest rules were left out
    assert lines[-1] == "(10 older entries not shown; search memory to find them)"


def test_budget_caps_total_characters() -> None:
    entries = [_entry(i, text="y" * 90) for i in range(100)]
    result = budget_entries(entries, 4000, 0)
    shown = result.text.splitlines()[:-1]
    assert sum(len(line) + 1 for line in shown) <= 4000
    assert result.shown == len(shown) and result.shown + result.omitted == 100
    assert 0 < result.shown < 100


def test_zero_means_unlimited() -> None:
    entries = [_entry(i, "rule", "z" * 200) for i in range(200)]
    result = budget_entries(entries, 0, 0)
    assert (result.shown, result.omitted) == (200, 0)
    assert "not shown" not in result.text


def test_nothing_to_inject() -> None:
    result = budget_entries([], 4000, 40)
    assert (result.text, result.shown, result.omitted) == ("", 0, 0)


def test_notes_after_an_entrys_metadata_stay_outside_it() -> None:
    text = (
        "## m-1\nfact one\n\n- category: rule\n- created: 2026-01-02\n\n"
        "A person's note.\n\n## m-2\nfact two\n"
    )
    first, second = parse_entries(text)
    assert (first.text, first.category, first.created) == ("fact one", "rule", date(2026, 1, 2))
    assert second.text == "fact two"


def test_splice_keeps_everything_outside_the_changed_blocks() -> None:
    a = Entry("m-a", "alpha", "rule", date(2026, 1, 1))
    b = Entry("m-b", "beta", "rule", date(2026, 1, 1))
    old = "# Rules\n\nmy notes\n\n## m-a\nalpha\n\n- category: rule\n- created: 2026-01-01\n\n"
    old += "between\n\n## m-b\nbeta\n\n- category: rule\n- created: 2026-01-01\n\ntail\n"
    assert splice_entries(old, [a, b], "x") == old
    c = Entry("m-c", "gamma", "rule")
    assert splice_entries(old, [a, b, c], "x") == old + "\n## m-c\ngamma\n\n- category: rule\n"
    cut = splice_entries(old, [b], "x")
    assert cut == old.replace("## m-a\nalpha\n\n- category: rule\n- created: 2026-01-01\n\n", "")
    changed = splice_entries(old, [a, replace(b, text="beta two")], "x")
    assert changed == old.replace("\nbeta\n", "\nbeta two\n")
    assert parse_entries(changed)[1].text == "beta two"
    assert splice_entries("", [a], "Rules") == format_entries([a], "Rules")
