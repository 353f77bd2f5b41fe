"""Markdown blocks: kinds, exact line numbers, section paths and dates."""

from hypothesis import given
from hypothesis import strategies as st

from memclaw.index.blocks import file_date, split_blocks, text_date

DOC = """# Profile

## Work

- Backend engineer at Fernhill
  since March 2025.
- Owns lotsen.

A paragraph that
spans two lines.

| day | time |
|-----|------|
| Tue | 18:00 |

```sh
# not a heading
uv sync
```

---
### Running
1. Intervals on Tuesday
2) Long run on Sunday
"""


def test_kinds_lines_and_text() -> None:
    got = [(b.kind, b.line, b.end_line, b.text.splitlines()[0]) for b in split_blocks(DOC)]
    assert got == [
        ("heading", 1, 1, "# Profile"),
        ("heading", 3, 3, "## Work"),
        ("item", 5, 6, "- Backend engineer at Fernhill"),
        ("item", 7, 7, "- Owns lotsen."),
        ("paragraph", 9, 10, "A paragraph that"),
        ("row", 12, 12, "| day | time |"),
        ("row", 14, 14, "| Tue | 18:00 |"),
        ("code", 16, 19, "```sh"),
        ("heading", 22, 22, "### Running"),
        ("item", 23, 23, "1. Intervals on Tuesday"),
        ("item", 24, 24, "2) Long run on Sunday"),
    ]


def test_section_paths_and_table_header_context() -> None:
    blocks = split_blocks(DOC)
    item = blocks[2]
    assert item.section == ("Profile", "Work")
    assert blocks[8].section == ("Profile", "Work")  # ### Running sits under ## Work
    assert blocks[9].section == ("Profile", "Work", "Running")
    assert blocks[6].context == "| day | time |"


def test_line_numbers_point_at_the_file() -> None:
    lines = DOC.split("\n")
    for block in split_blocks(DOC):
        assert lines[block.line - 1].strip() == block.text.splitlines()[0].strip()
        assert lines[block.end_line - 1].strip() == block.text.splitlines()[-1].strip()


def test_crlf_files_keep_line_numbers() -> None:
    blocks = split_blocks("# T\r\n\r\n- a\r\n- b\r\n")
    assert [(b.line, b.text) for b in blocks] == [(1, "# T"), (3, "- a"), (4, "- b")]


def test_daily_note_blocks_take_the_file_date() -> None:
    blocks = split_blocks("# 2026-11-28\n\n- As of 2026-11-01 knee fine\n", "memory/2026-11-28.md")
    assert {b.date for b in blocks} == {"2026-11-28"}
    assert file_date("owners/user%3Aa/memory/2026-02-30.md") is None  # not a real day


def test_as_of_dates_then_leading_dates_then_section_dates() -> None:
    text = (
        "## Decisions\n\n"
        "- 2026-11-16 — geography for metres\n"
        "- Standup at 09:30. As of 2026-11-23.\n"
        "- undated\n\n"
        "## 2026-12-01\n\n"
        "- under a dated heading\n"
    )
    dates = [(b.text, b.date) for b in split_blocks(text, "MEMORY.md")]
    assert dates == [
        ("## Decisions", None),
        ("- 2026-11-16 — geography for metres", "2026-11-16"),
        ("- Standup at 09:30. As of 2026-11-23.", "2026-11-23"),
        ("- undated", None),
        ("## 2026-12-01", "2026-12-01"),
        ("- under a dated heading", "2026-12-01"),
    ]
    assert text_date("as of 2026-13-40") is None


def test_hash_depends_on_text_only() -> None:
    a = split_blocks("# A\n- same line\n")[1]
    b = split_blocks("# B\n\n\n- same line\n")[1]
    assert a.hash == b.hash and a.line != b.line


@given(st.lists(st.sampled_from(["# H", "## S", "- item", "  more", "text", "", "| a |", "```"])))
def test_blocks_never_overlap_and_stay_in_the_file(lines: list[str]) -> None:
    text = "\n".join(lines)
    last = 0
    for block in split_blocks(text):
        assert last < block.line <= block.end_line <= max(len(lines), 1)
        last = block.end_line
