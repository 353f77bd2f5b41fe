"""Markdown surgery: replace a ``## `` section, upsert a ``- key: value`` line."""

from memclaw.workspace.sections import replace_section, upsert_kv

DOC = "# Memory\n\n## Projects\n\n- memclaw\n\n## Decisions\n\n- use uv\n"


def test_replace_section_swaps_only_that_body() -> None:
    result = replace_section(DOC, "Projects", "- memclaw\n- garden shed")
    assert result == (
        "# Memory\n\n## Projects\n\n- memclaw\n- garden shed\n\n## Decisions\n\n- use uv\n"
    )


def test_replace_section_is_stable_when_repeated() -> None:
    once = replace_section(DOC, "Projects", "- a")
    assert replace_section(once, "Projects", "- a") == once
    twice = replace_section(replace_section(once, "Projects", "- b"), "Projects", "- a")
    assert twice == once


def test_replace_section_matches_heading_case_insensitively_and_with_hashes() -> None:
    result = replace_section(DOC, "## decisions", "- use pip")
    assert result.endswith("## Decisions\n\n- use pip\n")
    assert result.count("## Decisions") == 1


def test_replace_section_appends_a_missing_section() -> None:
    assert replace_section(DOC, "Open threads", "- ask about CI") == (
        DOC + "\n## Open threads\n\n- ask about CI\n"
    )
    assert replace_section("", "Rules", "- be brief") == "## Rules\n\n- be brief\n"
    assert replace_section("# T", "Rules", "x") == "# T\n\n## Rules\n\nx\n"


def test_replace_section_takes_subsections_along() -> None:
    text = "## A\n\nold\n\n### detail\n\nmore\n\n## B\n\nkeep\n"
    assert replace_section(text, "A", "new") == "## A\n\nnew\n\n## B\n\nkeep\n"


def test_replace_section_stops_at_a_top_level_heading() -> None:
    text = "## A\n\nold\n# Part two\n\nkeep\n"
    assert replace_section(text, "A", "new") == "## A\n\nnew\n\n# Part two\n\nkeep\n"


def test_replace_section_heading_on_the_last_line() -> None:
    assert replace_section("# M\n\n## Facts", "Facts", "- b") == "# M\n\n## Facts\n\n- b\n"


def test_replace_section_only_touches_the_first_of_two_equal_headings() -> None:
    text = "## A\n\none\n\n## A\n\ntwo\n"
    assert replace_section(text, "A", "new") == "## A\n\nnew\n\n## A\n\ntwo\n"


def test_upsert_kv_replaces_an_existing_key() -> None:
    text = "## Identity\n\n- name: Maya\n- city: Lyon\n"
    assert upsert_kv(text, "city", "Porto") == "## Identity\n\n- name: Maya\n- city: Porto\n"


def test_upsert_kv_matches_bold_keys_and_any_case() -> None:
    text = "## Identity\n\n* **City**: Lyon\n"
    assert upsert_kv(text, "city", "Porto") == "## Identity\n\n- city: Porto\n"


def test_upsert_kv_inside_a_section_leaves_other_sections_alone() -> None:
    text = "## Work\n\n- city: Paris office\n\n## Home\n\n- city: Lyon\n"
    result = upsert_kv(text, "city", "Porto", "Home")
    assert result == "## Work\n\n- city: Paris office\n\n## Home\n\n- city: Porto\n"


def test_upsert_kv_adds_to_the_end_of_the_section() -> None:
    text = "## Identity\n\n- name: Maya\n\n## Work\n\n- role: dev\n"
    result = upsert_kv(text, "city", "Lyon", "Identity")
    assert result == "## Identity\n\n- name: Maya\n- city: Lyon\n\n## Work\n\n- role: dev\n"


def test_upsert_kv_into_an_empty_section_keeps_the_spacing() -> None:
    text = "# Profile\n\n## Identity\n\n## Work\n"
    result = upsert_kv(text, "name", "Maya", "Identity")
    assert result == "# Profile\n\n## Identity\n\n- name: Maya\n\n## Work\n"


def test_upsert_kv_creates_a_missing_section() -> None:
    assert upsert_kv("# Profile\n", "name", "Maya", "Identity") == (
        "# Profile\n\n## Identity\n\n- name: Maya\n"
    )


def test_upsert_kv_without_section_on_empty_text() -> None:
    assert upsert_kv("", "name", "Maya") == "- name: Maya\n"


def test_upsert_kv_does_not_treat_regex_characters_in_keys_specially() -> None:
    text = "- a.b: 1\n- axb: 2\n"
    assert upsert_kv(text, "a.b", "3") == "- a.b: 3\n- axb: 2\n"


def test_upsert_kv_is_idempotent() -> None:
    once = upsert_kv("# P\n\n## Identity\n\n## Work\n", "name", "Maya", "Identity")
    assert upsert_kv(once, "name", "Maya", "Identity") == once
