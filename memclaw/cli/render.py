"""Output helpers: data to stdout, status to stderr, rich only when needed; piped input."""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table


def out() -> Console:
    # rich is imported on first use so that fast commands (search --json) never pay for it.
    from rich.console import Console

    return Console(soft_wrap=True, highlight=False)


def err() -> Console:
    from rich.console import Console

    console = Console(stderr=True, highlight=False)
    # A log file or a pipe gets whole lines: wrapping there splits an error in two.
    console.soft_wrap = not console.is_terminal
    return console


def error_line(message: str) -> None:
    """One red ``error:`` line on stderr, never wrapped (names may hold '[...]')."""
    from rich.markup import escape

    err().print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True, highlight=False)


# 128 + SIGPIPE: the status a shell reports for grep or cat when the reader of their output
# (`head -1`) quits early; `set -o pipefail` scripts see memclaw exactly as they see grep.
PIPE_CLOSED = 141


def leave_closed_pipe() -> NoReturn:
    """Stop quietly because whoever read stdout has gone: no traceback, exit 141.

    stdout is pointed at /dev/null first, so that the rows still buffered, and the flush
    Python makes on the way out, go nowhere instead of raising again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)
    raise SystemExit(PIPE_CLOSED)


def print_json(data: Any) -> None:
    """One JSON document on stdout, UTF-8, no colour, for scripts."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


def write_lines(lines: list[str], *, hang: int = 0) -> None:
    """Lines on stdout: on a terminal wrapped at words (never folded mid-word), with
    continuation rows ``hang`` columns in; elsewhere whole, one per line, for grep."""
    if sys.stdout.isatty():
        from memclaw.cli.talk.answer import terminal_width, wrap_words

        width = terminal_width(sys.stdout)
        lines = [wrap_words(line, width, hang) for line in lines]
    sys.stdout.write("".join(line + "\n" for line in lines))


def status(message: str) -> None:
    err().print(message)


def human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


def _plain(cell: object, markup: bool) -> str:
    from rich.errors import MarkupError
    from rich.text import Text

    if isinstance(cell, Text):
        return cell.plain
    if not markup:
        return str(cell)
    try:
        return Text.from_markup(str(cell)).plain
    except MarkupError:  # a value such as "[/x]" that only looks like markup
        return str(cell)


def print_table(table: Table, console: Console | None = None, *, markup: bool = True) -> None:
    """A table on a terminal; elsewhere (a pipe, a file) plain tab-separated rows with
    full values, never wrapped or cropped, so that ``cut`` and ``grep`` see whole cells.

    The rows follow one header row of the column names in capitals, as ``ps`` and
    ``kubectl`` print: a reader knows what each field is, ``tail -n +2`` drops it."""
    console = console or out()
    if console.is_terminal:
        console.print(table, markup=markup)
        return
    columns = [list(column.cells) for column in table.columns]
    stream = sys.stderr if console.stderr else sys.stdout
    headers = [_plain(column.header, markup).upper() for column in table.columns]
    if table.show_header and any(headers):
        stream.write(_tab_row(headers))
    for cells in zip(*columns, strict=True):
        stream.write(_tab_row([_plain(cell, markup) for cell in cells]))


def _tab_row(cells: list[str]) -> str:
    return "\t".join(" ".join(c.split("\n")).replace("\t", " ") for c in cells) + "\n"


def piped_text() -> str:
    """All of stdin as text; a UsageError when it is not UTF-8."""
    from memclaw.errors import UsageError

    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"stdin is not UTF-8 text (byte {exc.start}); convert it first") from exc
