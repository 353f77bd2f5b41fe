"""Property: every name an import would write is a safe markdown path inside the agent."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from memclaw.snapshot.rules import classify, is_daily_note, unsafe_reason
from memclaw.workspace.paths import resolve_inside

PIECES = st.sampled_from(
    ["MEMORY.md", "memory", "entries", "owners", "user%3Aalice", "..", ".", "", "a\\b", "/", "C:"]
)
NAMES = st.one_of(
    st.text(max_size=40),
    st.lists(st.one_of(PIECES, st.text(max_size=8)), max_size=5).map("/".join),
)


@given(NAMES)
def test_carried_names_are_safe(name: str) -> None:
    if unsafe_reason(name) is None and classify(name) is None:
        assert name.endswith(".md")
        base = Path("/agent")
        assert resolve_inside(base, name).is_relative_to(base)


def test_daily_notes_have_ascii_digits_only() -> None:
    assert is_daily_note("memory/2026-12-01.md")
    assert not is_daily_note("memory/２０２６-１２-０１.md")
    assert not is_daily_note("memory/٢٠٢٦-١٢-٠١.md")
    assert unsafe_reason("memory/２０２６-１２-０１.md") is not None


def test_calendar_dates_only() -> None:
    assert is_daily_note("memory/2024-02-29.md")
    assert not is_daily_note("memory/2023-02-29.md")
    assert not is_daily_note("memory/2024-13-01.md")
