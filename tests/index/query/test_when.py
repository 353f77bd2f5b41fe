"""Dates and periods in a query become a range of days, and blocks of those days rank first."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from memclaw.index import search
from memclaw.index.query import when
from memclaw.index.query.when import read_when
from memclaw.workspace import Workspace

TODAY = date(2023, 11, 27)  # a Monday
CONVERSATIONS = Path(__file__).resolve().parents[3] / "benchmarks" / "conversations"


@pytest.mark.parametrize(
    ("query", "since", "until", "rest"),
    [
        (
            "What film did Ravi see on 3 June, 2023?",
            "2023-06-03",
            "2023-06-03",
            "What film did Ravi see ?",
        ),
        ("film on June 3rd", "2023-06-03", "2023-06-03", "film"),
        ("the 18th of August", "2023-08-18", "2023-08-18", ""),
        ("dentist 2023-06-03", "2023-06-03", "2023-06-03", "dentist"),
        ("What did Ravi watch in March 2023?", "2023-03-01", "2023-03-31", "What did Ravi watch ?"),
        ("in January", "2023-01-01", "2023-01-31", ""),
        ("in December", "2022-12-01", "2022-12-31", ""),  # the latest December
        ("trips in 2022", "2022-01-01", "2022-12-31", "trips"),
        ("in the summer of 2023", "2023-06-01", "2023-08-31", ""),
        ("yesterday", "2023-11-26", "2023-11-26", ""),
        ("three days ago", "2023-11-23", "2023-11-25", ""),
        ("what did Grace bake last week", "2023-11-20", "2023-11-27", "what did Grace bake"),
        ("last month", "2023-10-01", "2023-10-31", ""),
        ("on Tuesday", "2023-11-21", "2023-11-21", ""),
        ("vad åt vi igår", "2023-11-26", "2023-11-26", "vad åt vi"),
        ("i tisdags", "2023-11-21", "2023-11-21", ""),
        ("förra veckan", "2023-11-20", "2023-11-27", ""),
        ("i mars", "2023-03-01", "2023-03-31", ""),
        ("am 3. Juni 2023", "2023-06-03", "2023-06-03", ""),
        ("gestern", "2023-11-26", "2023-11-26", ""),
        ("letzte Woche", "2023-11-20", "2023-11-27", ""),
        ("el 3 de junio de 2023", "2023-06-03", "2023-06-03", ""),
        ("ayer", "2023-11-26", "2023-11-26", ""),
    ],
)
def test_dates_and_periods_are_read(query: str, since: str, until: str, rest: str) -> None:
    when = read_when(query, TODAY)
    assert when is not None
    assert (when.since.isoformat(), when.until.isoformat(), when.rest) == (since, until, rest)


@pytest.mark.parametrize(
    "query", ["I may go", "we march on", "hot spring water", "When is the Swedish class?", "7 days"]
)
def test_words_that_only_look_like_dates_are_not(query: str) -> None:
    assert read_when(query, TODAY) is None


def test_a_future_date_is_not_a_range_of_notes() -> None:
    assert read_when("what is planned on 3 December 2023", TODAY) is None


def _ws(root: Path, **overrides: object) -> Workspace:
    notes = {
        "2023-03-16": "- Ravi: I watched Everything Everywhere at the Cameo, wild film.\n",
        "2023-06-04": "- Ravi: I finally saw Past Lives yesterday.\n",
        "2023-09-01": "- Ravi: Which film should I see next? I saw the trailer for Oppenheimer.\n",
    }
    folder = root / "a" / "memory"
    folder.mkdir(parents=True)
    for day, text in notes.items():
        (folder / f"{day}.md").write_text(f"# {day}\n\n{text}", encoding="utf-8")
    now = datetime(2023, 11, 27, 12, tzinfo=UTC)
    return Workspace.open(root, overrides=overrides, clock=lambda: now)


def test_the_note_of_the_named_day_ranks_first(isolated_env: Path) -> None:
    ws = _ws(isolated_env)
    hits = search(ws, "What film did Ravi see on 3 June, 2023?")
    assert hits[0].file == "memory/2023-06-04.md"  # told the day after: "yesterday"
    assert {"memory/2023-03-16.md", "memory/2023-09-01.md"} <= {h.file for h in hits[1:]}
    assert search(ws, "Which film did Ravi watch in March 2023?")[0].file == "memory/2023-03-16.md"


def test_a_block_of_the_named_days_does_not_outrank_one_holding_more_of_the_question(
    isolated_env: Path,
) -> None:
    folder = isolated_env / "a" / "memory"
    folder.mkdir(parents=True)
    notes = {
        "2023-04-29": "- Olu: How is the park?\n"
        "- Hannah: My boss wants me to lead the bear safety talks this summer.\n",
        "2023-07-02": "- Olu: Funmi says hello.\n- Hannah: Smart woman.\n",
    }
    for day, text in notes.items():
        (folder / f"{day}.md").write_text(f"# {day}\n\n{text}", encoding="utf-8")
    now = datetime(2023, 11, 27, 12, tzinfo=UTC)
    ws = Workspace.open(isolated_env, clock=lambda: now)
    hits = search(ws, "What extra duty did Hannah get this summer?")
    assert "bear safety" in hits[0].text  # said in April, about the summer
    assert "Smart woman" in hits[1].text  # a summer turn holding only the name: after it


def test_explicit_since_until_stay_a_filter_and_dates_can_be_turned_off(isolated_env: Path) -> None:
    ws = _ws(isolated_env)
    hits = search(ws, "film Ravi saw on 3 June 2023", since="2023-08-01")
    assert {h.file for h in hits} == {"memory/2023-09-01.md"}
    off = _ws_again(isolated_env, search_dates=False)
    assert search(off, "What film did Ravi see on 3 June, 2023?")[0].file != "memory/2023-06-04.md"


def _ws_again(root: Path, **overrides: object) -> Workspace:
    now = datetime(2023, 11, 27, 12, tzinfo=UTC)
    return Workspace.open(root, overrides=overrides, clock=lambda: now)


@pytest.mark.parametrize(
    ("query", "since", "until"),
    [
        ("dentist ２０２３-０６-０３", "2023-06-03", "2023-06-03"),  # full-width digits
        ("film on June ３rd", "2023-06-03", "2023-06-03"),
        ("the ١٨th of August", "2023-08-18", "2023-08-18"),  # Arabic-Indic digits
        ("trips in ٢٠٢٢", "2022-01-01", "2022-12-31"),
    ],
)
def test_any_decimal_digit_counts_as_one(query: str, since: str, until: str) -> None:
    # The day, ISO date and year patterns are skipped for a query with no digit; what
    # counts as one must be what their \d matches, not only 0-9.
    when = read_when(query, TODAY)
    assert when is not None
    assert (when.since.isoformat(), when.until.isoformat()) == (since, until)


def test_a_query_naming_no_day_compiles_none_of_the_date_patterns() -> None:
    # Compiling them was 5 ms of every cold search; a fresh process shows what one compiles.
    probe = (
        "import sys; from datetime import date; from memclaw.index.query import when; "
        "when.read_when(sys.argv[1], date(2023, 11, 27)); "
        "print(' '.join(k for k, p in when._PATTERNS if p._compiled is not None))"
    )
    for query, compiled in (("kayak permit near the harbour", ""), ("kayak last week", "period")):
        done = subprocess.run(
            [sys.executable, "-c", probe, query], capture_output=True, text=True, check=True
        )
        assert done.stdout.strip() == compiled


def test_skipping_patterns_by_their_words_changes_no_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The conversation benchmark's questions (both halves), and dates written every way.
    questions = [
        line.partition(" | ")[0]
        for path in sorted(CONVERSATIONS.glob("*/*.txt"))
        for line in path.read_text(encoding="utf-8").split("# questions\n", 1)[1].splitlines()
    ]
    queries = questions + [
        f"{a} {b}"
        for a in ("Saw it", "I Går", "MÄRZ", "la semana pasada", "den 3 juni", "TUESDAY", "hoy")
        for b in ("", "in Spring 2022", "three weeks ago", "i fredags", "this weekend")
    ]
    assert len(questions) > 100
    read = [read_when(q, TODAY) for q in queries]
    monkeypatch.setattr(when, "_CUES", {})
    assert [read_when(q, TODAY) for q in queries] == read
    assert sum(r is not None for r in read) > 30
