"""Daily notes: ``memory/YYYY-MM-DD.md``, created with a date heading, only ever appended to."""

from datetime import date

from memclaw.workspace import Agent


def test_first_append_creates_the_note_with_its_heading(agent: Agent) -> None:
    result = agent.append_daily("- Maya ran 12 km along the river.")
    assert result.name == "memory/2026-11-29.md"  # from the fixed clock
    assert result.created
    assert result.path.read_text(encoding="utf-8") == (
        "# 2026-11-29\n\n- Maya ran 12 km along the river.\n"
    )
    assert result.chars == result.path.stat().st_size


def test_later_appends_keep_everything_before(agent: Agent) -> None:
    agent.append_daily("- one")
    path = agent.path / "memory" / "2026-11-29.md"
    before = path.read_bytes()
    second = agent.append_daily("- two\n\n")
    assert not second.created
    after = path.read_bytes()
    assert after.startswith(before)
    assert path.read_text(encoding="utf-8") == "# 2026-11-29\n\n- one\n\n- two\n"


def test_heading_and_explicit_day(agent: Agent) -> None:
    agent.append_daily("- walked Knut", heading="09:30", day=date(2026, 11, 2))
    agent.append_daily("- knee fine", heading="18:05", day=date(2026, 11, 2))
    assert agent.read("memory/2026-11-02.md") == (
        "# 2026-11-02\n\n## 09:30\n- walked Knut\n\n## 18:05\n- knee fine\n"
    )


def test_a_hand_edited_note_without_final_newline_is_not_glued(agent: Agent) -> None:
    path = agent.path / "memory" / "2026-11-29.md"
    path.parent.mkdir()
    path.write_text("# 2026-11-29\n\n- typed by hand", encoding="utf-8")
    result = agent.append_daily("- added later")
    assert not result.created
    assert path.read_text(encoding="utf-8") == "# 2026-11-29\n\n- typed by hand\n\n- added later\n"


def test_daily_notes_are_listed_but_not_enabled(agent: Agent) -> None:
    agent.append_daily("- note")
    [note] = agent.list_files(prefix="memory/")
    assert note.name == "memory/2026-11-29.md"
    assert note.enabled is False
