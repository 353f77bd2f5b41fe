"""Usage errors as one line with a suggestion, and the panels that group ``--help``."""

from __future__ import annotations

from difflib import get_close_matches
from typing import Any

import typer
from typer._click.exceptions import NoSuchOption
from typer._click.exceptions import UsageError as ClickUsageError

from memclaw.cli.render import error_line

# Which panel of `memclaw --help` a top-level command is listed under.
PANELS = {
    "chat": "Talk",
    "prompt": "Talk",
    "mcp": "Talk",
    "search": "Memory",
    "remember": "Memory",
    "memories": "Memory",
    "forget": "Memory",
    "files": "Memory",
    "sessions": "Memory",
    "facts": "Memory",
    "inbox": "Memory",
    "browse": "Memory",
    "extract": "Memory",
    "export": "Memory",
    "import": "Memory",
    "morning": "Memory",
    "why": "Memory",
    "timeline": "Memory",
    "undo": "Memory",
    "mem0": "Memory",
    "dream": "Maintenance",
    "consolidate": "Maintenance",
    "reindex": "Maintenance",
    "watch": "Maintenance",
    "stats": "Maintenance",
    "scan": "Maintenance",
    "cron": "Maintenance",
    "doctor": "Maintenance",
    "init": "Setup",
    "status": "Setup",
    "config": "Setup",
    "completion": "Setup",
}


def group_commands(app: typer.Typer) -> None:
    """Put every registered command and group into its help panel, panels in order."""
    order = list(dict.fromkeys(PANELS.values()))

    def rank(info: Any) -> int:
        name = info.name or (info.callback.__name__ if info.callback else None)
        if name in PANELS:
            info.rich_help_panel = PANELS[name]
            return order.index(PANELS[name])
        return len(order)

    app.registered_commands.sort(key=rank)
    app.registered_groups.sort(key=rank)


# What the help shows for a value, in click's words rather than Python's (typer would
# print ``<str>`` or ``<list[Path]>``).
_TYPE_WORDS = {"str": "TEXT", "int": "INTEGER", "float": "FLOAT", "bool": "", "Path": "PATH"}


def plain_metavar(display: str | None) -> str | None:
    """``<str>`` -> ``TEXT``, ``<list[Path]>`` -> ``PATH...``, ``<int range>`` ->
    ``INTEGER RANGE``; choices (``<a|b>``) and set metavars are shown as they are."""
    if display is None or not (display.startswith("<") and display.endswith(">")):
        return display
    inner = display[1:-1]
    if "|" in inner:
        return display
    many = inner.startswith("list[")
    inner = inner.removeprefix("list[").removesuffix("]")
    word = " ".join(_TYPE_WORDS.get(part, part.upper()) for part in inner.split()).strip()
    return f"{word}..." if word and many else word


def name_types_plainly(command: Any) -> None:
    """Give every parameter of ``command`` and its sub-commands a click-style type label."""
    for param in getattr(command, "params", []):
        if not hasattr(param, "display_type_rich"):
            continue
        _plain(param)
    original_help = command.get_help_option

    def help_option(ctx: Any) -> Any:
        option = original_help(ctx)
        if option is not None:
            _plain(option)
        return option

    setattr(command, "get_help_option", help_option)  # noqa: B010
    for sub in getattr(command, "commands", {}).values():
        name_types_plainly(sub)


def _plain(param: Any) -> None:
    original = param.display_type_rich

    def display(ctx: Any) -> str | None:
        return plain_metavar(original(ctx=ctx))

    setattr(param, "display_type_rich", display)  # noqa: B010 - replaces a bound method


def suggestion(word: str, choices: list[str]) -> str:
    """`` Did you mean 'x'?`` for the closest choice, or nothing."""
    close = get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" Did you mean {close[0]!r}?" if close else ""


def usage_line(exc: ClickUsageError) -> str:
    """Click's usage error as one line: the problem, a suggestion, where help is."""
    if isinstance(exc, NoSuchOption) and exc.possibilities:
        close = get_close_matches(exc.option_name, list(exc.possibilities), n=1, cutoff=0.5)
        shown = close[0] if close else sorted(exc.possibilities)[0]
        message = f"{exc.message.rstrip('.')}. Did you mean {shown}?"
    else:
        message = exc.format_message()
    message = " ".join(message.split())  # one line, whatever click put in it
    where = exc.ctx.command_path if exc.ctx is not None else "memclaw"
    help_flag = "-h"
    return f"{message} (see `{where} {help_flag}`)"


def report_usage(exc: ClickUsageError) -> Any:
    error_line(usage_line(exc))
    raise typer.Exit(2) from None
