"""Snapshot tests over Textual's own screenshot: the SVG's text, line by line, against a file.

Comparing the text of the screen (not the SVG's markup, whose class names hash the
styles) keeps a snapshot stable across runs while still catching any change in
what a person would read. ``UPDATE_SNAPSHOTS=1`` rewrites the files (and, with
``keep_svg``, the screen's SVG beside its text: docs/commands/browse.md shows ``facts.svg``).
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent / "snapshots"
_TEXT = re.compile(r'<text class="[^"]*-r\d+" x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', re.S)
CELL = 12.2  # the width of one terminal cell in Rich's SVG, in its units


def screen_text(svg: str) -> str:
    """The screen as a person reads it: each row's text, trailing space trimmed."""
    rows: dict[float, dict[int, str]] = {}
    for x, y, text in _TEXT.findall(svg):
        cells = rows.setdefault(float(y), {})
        for offset, char in enumerate(html.unescape(text).replace("\xa0", " ").rstrip("\n")):
            cells[round(float(x) / CELL) + offset] = char
    lines = [
        "".join(cells.get(i, " ") for i in range(max(cells, default=-1) + 1)).rstrip()
        for _, cells in sorted(rows.items())
    ]
    return "\n".join(lines).strip("\n") + "\n"


def assert_snapshot(name: str, svg: str, *, keep_svg: bool = False) -> None:
    path = HERE / f"{name}.txt"
    seen = screen_text(svg)
    if os.environ.get("UPDATE_SNAPSHOTS") == "1" or not path.exists():
        path.write_text(seen, encoding="utf-8")
        if keep_svg:
            path.with_suffix(".svg").write_text(svg, encoding="utf-8")
        if not os.environ.get("UPDATE_SNAPSHOTS"):
            raise AssertionError(f"{path.name} was missing and has been written: check it in")
        return
    assert seen == path.read_text(encoding="utf-8"), f"the screen differs from {path.name}"
