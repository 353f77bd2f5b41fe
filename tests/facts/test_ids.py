from memclaw.facts import FACT_ID, fact_id, normalise_statement


def test_the_same_statement_has_the_same_id_whatever_its_markup() -> None:
    a = fact_id("- Maya lives in **Oslo**.")
    b = fact_id("* maya lives in Oslo  <!-- src: s1 -->")
    assert a == b
    assert FACT_ID.match(a)


def test_scope_and_wording_change_the_id() -> None:
    assert fact_id("Maya lives in Oslo", "owners/maya") != fact_id("Maya lives in Oslo")
    assert fact_id("Maya lives in Bergen") != fact_id("Maya lives in Oslo")


def test_normalise_strips_numbered_and_checkbox_markers() -> None:
    assert normalise_statement("2. [x] Ship it.") == "ship it"


def test_a_daily_note_category_tag_does_not_change_the_id() -> None:
    # The offline engine writes "- [preference] ..." to the daily note, MEMORY.md the bare line.
    assert fact_id("- [preference] Maya prefers tea.") == fact_id("- Maya prefers tea")
    assert normalise_statement("[work-place] Maya works at Acme") == "maya works at acme"
    # A link is part of the statement, not a tag.
    assert normalise_statement("[Acme](https://acme.test) hired Maya") != "hired maya"


def test_the_projection_gives_a_daily_note_and_memory_md_one_fact() -> None:
    from memclaw.facts.project import project_text

    (note,) = project_text("memory/2026-11-28.md", "- [preference] Maya prefers tea\n")
    (memory,) = project_text("MEMORY.md", "## Preferences\n- Maya prefers tea.\n")
    assert note.fact == memory.fact
    assert (note.statement, note.category) == ("Maya prefers tea", "preference")
