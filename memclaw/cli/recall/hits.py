"""Printing search hits: JSON lines, plain lines when piped, a rich table on a terminal.

Kept free of typer so that the fast entry point can use it too.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memclaw.index import Hit
    from memclaw.index.query.context import Around


def is_terminal() -> bool:
    return sys.stdout.isatty()


def where(hit: Hit) -> str:
    return f"{hit.agent}/{hit.file}:{hit.line}"


def print_hits(
    hits: list[Hit], query: str, *, as_json: bool, context: list[Around] | None = None
) -> None:
    """``context`` (one per hit, from ``--context N``) adds the lines around each hit."""
    if as_json:
        for i, hit in enumerate(hits):
            data = hit.to_dict()
            if context is not None:
                data["context"] = context[i].to_dict()
            sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        return
    if not hits:
        sys.stderr.write(f"no matches for {query!r}\n")
        return
    if is_terminal():
        hits_table(hits, context)
    elif context is None:
        for hit in hits:
            sys.stdout.write(f"{where(hit)}: {hit.marked()}{_fact(hit)}\n")
    else:
        # Like grep -C: "file-N-" for a context line, "file:N:" for the hit, "--" between.
        for i, (hit, near) in enumerate(zip(hits, context, strict=True)):
            name = f"{hit.agent}/{hit.file}"
            if i:
                sys.stdout.write("--\n")
            for n, line in near.before:
                sys.stdout.write(f"{name}-{n}- {line}\n")
            sys.stdout.write(f"{where(hit)}: {hit.marked()}{_fact(hit)}\n")
            for n, line in near.after:
                sys.stdout.write(f"{name}-{n}- {line}\n")


def _fact(hit: Hit) -> str:
    # Last on the line, so a grep-like reader still splits "file:line: text" the same way.
    return f"  [{hit.fact}]" if hit.fact else ""


def hits_table(hits: list[Hit], context: list[Around] | None = None) -> None:
    from rich.table import Table
    from rich.text import Text

    from memclaw.cli.render import out

    table = Table(title_justify="left")
    table.add_column("score", justify="right")
    table.add_column("where", no_wrap=True)
    table.add_column("date", no_wrap=True)
    table.add_column("snippet", overflow="fold")
    table.add_column("fact", no_wrap=True)
    for i, hit in enumerate(hits):
        snippet = Text(hit.snippet)
        for start, end in hit.highlights:
            snippet.stylize("bold yellow", start, end)
        if context is not None:
            before = "".join(f"{line}\n" for _, line in context[i].before)
            after = "".join(f"\n{line}" for _, line in context[i].after)
            snippet = Text(before, style="dim") + snippet + Text(after, style="dim")
        place = where(hit) + ("" if hit.scope == "team" else f" ({hit.scope})")
        table.add_row(f"{hit.score:.2f}", place, hit.date or "", snippet, hit.fact or "")
    out().print(table)
