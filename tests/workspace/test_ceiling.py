"""The ceiling moves the oldest model-written entries out, and never a person's text."""

from hypothesis import given, settings
from hypothesis import strategies as st

from memclaw.workspace.safeguards.ceiling import fit, overflow_name, warning
from memclaw.workspace.safeguards.provenance import Author, Provenance, keys, line_key


def _model(*lines: str, age: int = 1) -> dict[str, int]:
    return {line_key(line): age for line in lines}


def _memory(person: list[str], model: list[str], heading: str = "Notes") -> str:
    return f"# Memory\n\n## {heading}\n\n" + "".join(f"{line}\n" for line in person + model)


def test_under_the_ceiling_or_unlimited_nothing_moves() -> None:
    text = _memory(["- mine"], ["- theirs"])
    for ceiling in (len(text), 0):
        result = fit(text, ceiling, _model("- theirs"))
        assert (result.text, result.moved, result.over) == (text, (), False)


def test_only_a_persons_text_is_kept_whole_and_reported() -> None:
    text = _memory([f"- hand-written line {i} " + "x" * 50 for i in range(125)], [])
    result = fit(text, 1000, {})
    assert result.text == text
    assert result.moved == () and result.over
    note = warning("MEMORY.md", result)
    assert note is not None and "over its 1000-character ceiling" in note and "by hand" in note


def test_oldest_model_lines_move_first_and_only_as_many_as_needed() -> None:
    person = [f"- person {i} " + "p" * 40 for i in range(10)]
    old = [f"- old fact {i} " + "o" * 40 for i in range(10)]
    new = [f"- new fact {i} " + "n" * 40 for i in range(10)]
    text = _memory(person[:5], old + new + person[5:])
    model = {**_model(*old, age=1), **_model(*new, age=2)}
    ceiling = len(text) - 3 * len(old[0]) - 1
    result = fit(text, ceiling, model)
    assert len(result.text) <= ceiling
    assert result.moved == tuple(f"{line}\n" for line in old[:3])
    for line in person + old[3:] + new:
        assert line in result.text
    assert result.sections == ("Notes",) * 3
    assert overflow_name("owners/u/MEMORY.md") == "owners/u/MEMORY.overflow.md"


def test_kept_sections_never_move_and_a_section_keeps_its_last_entry_if_it_can() -> None:
    text = (
        "# Memory\n\n## Rules (hand-edited)\n\n- rule a\n- rule b\n\n"
        "## People\n<!-- memclaw:keep -->\n- Maya\n- Tom\n\n"
        "## Facts\n\n- fact a\n- fact b\n- fact c\n\n## More\n\n- more a\n"
    )
    model = _model(
        "- rule a", "- rule b", "- Maya", "- Tom", "- fact a", "- fact b", "- fact c", "- more a"
    )
    thinned = fit(text, len(text) - 18, model)
    assert thinned.moved == ("- fact a\n", "- fact b\n")
    assert not thinned.over and "## More\n\n- more a\n" in thinned.text
    emptied = fit(text, 10, model)
    assert emptied.moved == ("- fact a\n", "- fact b\n", "- fact c\n", "- more a\n")
    assert emptied.over and emptied.text.endswith("## Facts\n\n## More\n\n")
    for line in ("- rule a", "- rule b", "- Maya", "- Tom", "<!-- memclaw:keep -->"):
        assert line in emptied.text


def test_sub_lines_move_with_their_entry_and_code_never_moves() -> None:
    text = (
        "# Memory\n\n## Setup\n\n- editor: helix\n  - with the default theme\n"
        "```\nmake install\n```\n- shell: fish\n"
    )
    lines = ["- editor: helix", "  - with the default theme", "make install", "- shell: fish"]
    result = fit(text, len(text) - 5, _model(*lines))
    assert result.moved == ("- editor: helix\n  - with the default theme\n",)
    assert "```\nmake install\n```\n- shell: fish\n" in result.text


def test_a_paragraph_leaves_one_blank_line_behind() -> None:
    text = "# Memory\n\n## A\n\nold paragraph\n\nnewer paragraph\n\nlast one\n"
    result = fit(text, len(text) - 5, _model("old paragraph"))
    assert result.text == "# Memory\n\n## A\n\nnewer paragraph\n\nlast one\n"


def test_provenance_follows_who_introduced_each_line() -> None:
    first = Provenance().after("", "# M\n- a\n", Author.MODEL)
    assert first.lines == {line_key("- a"): 1, line_key("# M"): 1}
    second = first.after("# M\n- a\n", "# M\n- a\n- b\n", Author.MODEL)
    assert second.lines[line_key("- a")] == 1 and second.lines[line_key("- b")] == 2
    # a person's edit of a model line makes it theirs; untouched lines keep their author
    third = second.after("# M\n- a\n- b\n", "# M\n- a, really\n- b\n", Author.PERSON)
    assert line_key("- a, really") not in third.lines and line_key("- b") in third.lines
    assert set(third.within("- b\n").lines) == {line_key("- b")}


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["## S", "- item", "  - sub", "para", "", "```", "<!-- x -->"]),
            st.integers(0, 40),
            st.booleans(),
        ),
        max_size=60,
    ),
    st.integers(0, 600),
)
def test_every_line_is_kept_or_moved_and_person_lines_always_stay(
    rows: list[tuple[str, int, bool]], ceiling: int
) -> None:
    lines = [f"{kind} {n}" if kind else "" for kind, n, _ in rows]
    text = "".join(f"{line}\n" for line in lines)
    model = {
        line_key(line): n for (_, n, by_model), line in zip(rows, lines, strict=True) if by_model
    }
    result = fit(text, ceiling, model)
    moved = [line for unit in result.moved for line in unit.splitlines()]
    kept = result.text.splitlines()
    non_blank = [line for line in lines if line.strip()]
    assert sorted(moved + [line for line in kept if line.strip()]) == sorted(non_blank)
    for line in moved:
        assert line_key(line) in model
    assert keys(text) - {line_key(m) for m in moved} <= keys(result.text)
    assert result.over == (0 < ceiling < len(result.text))
