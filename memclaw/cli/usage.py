"""Usage errors as one line with a suggestion, and the panels that group ``--help``."""

from __future__ import annotations

import inspect
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
    "log": "Memory",
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


# What the help shows for a value: a word a person reads, in capitals, as man pages and
# argparse write them (AGENT, N, FILE). Typer would print ``<str>`` or ``<list[Path]>``,
# click ``TEXT`` or ``INTEGER RANGE [x>=1]``: a programmer's types, not the user's words.
_NUMBER_WORDS = {"int": "N", "float": "NUMBER"}
# Options whose own name reads badly as the value's name.
_OPTION_WORDS = {"set": "KEY=VALUE", "root": "DIR", "session": "ID", "shard": "I/N"}


def person_metavar(param: Any, display: str | None) -> str | None:
    """The value's name for ``param`` in help, from typer's ``<type>`` label ``display``.

    Choices (``<bash|zsh|fish>``) are shown as they are: they are the words to type. A
    number is N; anything else is named after the parameter (--owner OWNER, AGENT)."""
    if display is None or not (display.startswith("<") and display.endswith(">")):
        return display
    inner = display[1:-1]
    if "|" in inner:
        return display
    if inner == "bool":
        return ""  # a flag takes no value
    many = inner.startswith("list[")
    inner = inner.removeprefix("list[").removesuffix("]").removesuffix(" range")
    name = str(param.name or "value").rstrip("_")  # set_ (a Python keyword dodge): SET
    word = _NUMBER_WORDS.get(inner) or _OPTION_WORDS.get(name) or name.upper()
    if many and word.endswith("S") and len(word) > 3:
        word = word[:-1]  # --owner repeated: OWNER...; the agents argument: AGENT
    # An argument's "..." comes from typer, after its metavar, on the usage line.
    dots = "..." if many and getattr(param, "param_type_name", "") != "argument" else ""
    return f"{word}{dots}"


def _examples_as_code(command: Any) -> None:
    """Lay out every command's Examples: block the same way, as indented commands.

    Typer dedents the help after its first paragraph as a docstring (the first line
    apart). When that part starts with "Examples:", the examples lose their indent and
    print as plain paragraphs, while a command with a paragraph before its examples
    shows them as code. A blank line before "Examples:" keeps the indent for all."""
    text = getattr(command, "help", None)
    if not text:
        return
    first, _, rest = inspect.cleandoc(text).partition("\n\n")
    if rest.startswith("Examples:"):
        command.help = f"{first}\n\n\n{rest}"


def _range_words(low: Any, high: Any) -> str | None:
    if low is not None and high is not None:
        return f"{low} to {high}"
    if low is not None:
        return f"{low} or more"
    return f"up to {high}" if high is not None else None


def name_types_plainly(command: Any) -> None:
    """Give every parameter of ``command`` and its sub-commands a person's value name."""
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
    _examples_as_code(command)
    for sub in getattr(command, "commands", {}).values():
        name_types_plainly(sub)


def _plain(param: Any) -> None:
    original = param.display_type_rich
    is_argument = getattr(param, "param_type_name", "") == "argument"
    if is_argument and param.metavar is None:
        # The usage line and the name column show the argument's metavar: AGENT, not agent.
        param.metavar = person_metavar(param, original(ctx=None)) or str(param.name).upper()

    def display(ctx: Any) -> str | None:
        shown = original(ctx=ctx)
        if is_argument:  # its name is its metavar already; only choices add to it
            return shown if shown and "|" in shown else None
        return person_metavar(param, shown)

    def range_words() -> str | None:
        return _range_words(getattr(param, "min", None), getattr(param, "max", None))

    setattr(param, "display_type_rich", display)  # noqa: B010 - replaces a bound method
    setattr(param, "_get_number_range_help_str", range_words)  # noqa: B010


def suggestion(word: str, choices: list[str]) -> str:
    """`` Did you mean 'x'?`` for the closest choice, or nothing."""
    close = get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" Did you mean {close[0]!r}?" if close else ""


def usage_line(exc: ClickUsageError) -> str:
    """Click's usage error as one line: the problem, a suggestion, where help is."""
    where = exc.ctx.command_path if exc.ctx is not None else "memclaw"
    if isinstance(exc, NoSuchOption) and exc.option_name.strip() == "-":
        # A pasted list line ("- Tomas raised the HPA maximum") starts like a short option.
        message = (
            'a value that starts with "- " (a pasted list line) reads as an option: '
            f"put -- before it, as in `{where} AGENT -- '- the line'`"
        )
    elif isinstance(exc, NoSuchOption) and exc.possibilities:
        close = get_close_matches(exc.option_name, list(exc.possibilities), n=1, cutoff=0.5)
        shown = close[0] if close else sorted(exc.possibilities)[0]
        message = f"{exc.message.rstrip('.')}. Did you mean {shown}?"
    else:
        message = exc.format_message()
    message = " ".join(message.split())  # one line, whatever click put in it
    help_flag = "-h"
    return f"{message} (see `{where} {help_flag}`)"


def report_usage(exc: ClickUsageError) -> Any:
    error_line(usage_line(exc))
    raise typer.Exit(2) from None
