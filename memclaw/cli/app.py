"""The memclaw command line: a thin layer over the library.

Each command parses its options, calls one library function, and renders the
result. Library errors become one red line on stderr and a non-zero exit.
"""

from __future__ import annotations

import os
import sqlite3
from typing import Annotated, Any

import typer
from typer._click.exceptions import UsageError as ClickUsageError
from typer.core import TyperGroup

from memclaw import __version__
from memclaw.cli.state import CliState, state
from memclaw.cli.usage import (
    group_commands,
    name_types_plainly,
    report_usage,
)
from memclaw.errors import MemclawError, storage_refusal


class MemclawGroup(TyperGroup):
    """Turns MemclawError and usage errors into one clear line, unless --debug asks for
    the traceback."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        name_types_plainly(self)

    def _main_shell_completion(
        self, ctx_args: Any, prog_name: str, complete_var: Any = None
    ) -> None:
        if os.environ.get(complete_var or "_MEMCLAW_COMPLETE"):
            # add_completion=False leaves typer's shell classes unregistered; the scripts
            # `memclaw completion SHELL` prints need them to answer.
            from typer._completion_classes import completion_init

            completion_init()
        super()._main_shell_completion(ctx_args, prog_name, complete_var)

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().make_context(*args, **kwargs)
        except ClickUsageError as exc:
            report_usage(exc)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except ClickUsageError as exc:
            report_usage(exc)
        except BrokenPipeError:
            # Click would answer a closed pipe with exit 1; the entry point's answer is used.
            from memclaw.cli.render import leave_closed_pipe

            leave_closed_pipe()
        except (MemclawError, OSError, sqlite3.Error) as exc:
            # The machine refusing a write (a full disk, a read-only root) is one line too.
            refusal = exc if isinstance(exc, MemclawError) else storage_refusal(exc)
            if refusal is None or (isinstance(ctx.obj, CliState) and ctx.obj.debug):
                raise
            from memclaw.cli.render import error_line

            error_line(str(refusal))
            raise typer.Exit(refusal.exit_code) from None


APP_HELP = """Long-term memory for AI agents, kept in plain markdown files.

Examples:

    memclaw init assistant

    memclaw prompt assistant

    memclaw --root ~/agents status --json
"""

app = typer.Typer(
    cls=MemclawGroup,
    name="memclaw",
    help=APP_HELP,
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    rich_markup_mode="markdown",
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"memclaw {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    ctx: typer.Context,
    root: Annotated[
        str | None,
        typer.Option(
            "--root",
            help="Workspaces folder (default: $MEMCLAW_ROOT, a workspaces/memclaw.yaml here or "
            "above, else your data folder; `memclaw status` says which).",
        ),
    ] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help="Override a setting for this run: KEY=VALUE (repeatable)."),
    ] = None,
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks on errors.")] = False,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """memclaw: long-term memory for AI agents, kept in plain markdown files."""
    from memclaw.config import parse_assignment

    current = state(ctx)
    current.root, current.debug = root, debug
    current.overrides = dict(parse_assignment(item) for item in set_ or [])


def _register() -> None:
    from memclaw.cli import basic
    from memclaw.cli.connect import mcp, mem0
    from memclaw.cli.dream import commands as dream
    from memclaw.cli.memory import (
        browse,
        extract,
        facts,
        files,
        files_meta,
        memories,
        seeing,
        sessions,
        snapshot,
    )
    from memclaw.cli.recall import search
    from memclaw.cli.setup import completion, doctor, settings
    from memclaw.cli.talk import chat

    for module in (
        basic,
        files,
        snapshot,
        search,
        dream,
        extract,
        memories,
        facts,
        seeing,
        sessions,
        browse,
        chat,
        mcp,
        completion,
        settings,
        files_meta,
        doctor,
        mem0,
    ):
        module.register(app)
    group_commands(app)


_register()


def main() -> None:
    app()
