"""Printing search hits: JSON lines, plain lines when piped, a rich table on a terminal.

Kept free of typer so that the fast entry point can use it too.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memclaw.index import Hit


def is_terminal() -> bool:
    return sys.stdout.isatty()


def where(hit: Hit) -> str:
    return f"{hit.agent}/{hit.file}:{hit.line}"


def print_hits(hits: list[Hit], query: str, *, as_json: bool) -> None:
    if as_json:
        for hit in hits:
            sys.stdout.write(json.dumps(hit.to_dict(), ensure_ascii=False) + "\n")
        return
    if not hits:
        sys.stderr.write(f"no matches for {query!r}\n")
        return
    if is_terminal():
        hits_table(hits)
    else:
        for hit in hits:
            sys.stdout.write(f"{where(hit)}: {hit.marked()}\n")


def hits_table(hits: list[Hit]) -> None:
    from rich.table import Table
    from rich.text import Text

    from memclaw.cli.render import out

    table = Table(title_justify="left")
    table.add_column("score", justify="right")
    table.add_column("where", no_wrap=True)
    table.add_column("date", no_wrap=True)
    table.add_column("snippet", overflow="fold")
    for hit in hits:
        snippet = Text(hit.snippet)
        for start, end in hit.highlights:
            snippet.stylize("bold yellow", start, end)
        place = where(hit) + ("" if hit.scope == "team" else f" ({hit.scope})")
        table.add_row(f"{hit.score:.2f}", place, hit.date or "", snippet)
    out().print(table)
