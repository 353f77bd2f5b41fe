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
