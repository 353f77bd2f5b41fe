"""`memclaw doctor`: check the set-up end to end, say what to fix, and fix what is safe."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated

import typer

from memclaw.cli.basic import JsonOpt
from memclaw.cli.render import err, out, print_json
from memclaw.cli.state import state

if TYPE_CHECKING:
    from memclaw.doctor import Diagnosis

_COLOUR = {"ok": "green", "warn": "yellow", "fail": "red"}


def _show(diagnosis: Diagnosis) -> None:
    from rich.markup import escape

    console = out()
    if console.is_terminal:
        _show_wrapped(diagnosis)
        return
    width = max(len(c.name) for c in diagnosis.checks)
    for check in diagnosis.checks:  # a pipe or a log: one whole line per check
        status = str(check.status)
        name = escape(check.name)
        line = f"[{_COLOUR[status]}]{status:<4}[/]  {name:<{width}}  {escape(check.found)}"
        if check.todo:
            line += f" [dim]→[/] {escape(check.todo)}"
        console.print(line, highlight=False, soft_wrap=True)
    console.print(diagnosis.summary(), highlight=False)


def _show_wrapped(diagnosis: Diagnosis) -> None:
    """On a terminal: the same columns, what was found wrapped at words under itself."""
    from rich.table import Table
    from rich.text import Text

    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")  # wrapped at words; only a word wider than it folds
    for check in diagnosis.checks:
        status = str(check.status)
        said = Text(check.found)
        if check.todo:
            said.append(" → ", style="dim").append(check.todo)
        grid.add_row(Text(f"{status:<4}", style=_COLOUR[status]), Text(check.name), said)
    console = out()
    console.print(grid)
    console.print(diagnosis.summary(), highlight=False)


def doctor(
    ctx: typer.Context,
    fix: Annotated[
        bool, typer.Option("--fix", help="Offer the safe fixes: settings for cron, crontab, index.")
    ] = False,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Apply the fixes without asking.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Check the set-up end to end and say what to fix, one line per check.

    Looks at the workspaces root, the config files, the model and embeddings
    endpoints (one tiny request each), the tokenizer, the crontab and the cron
    daemon, every search index and the secrets on disk. Each line is ok, warn
    or fail, with what was found and what to do. Exit status 1 when a check
    fails. `--fix` writes base_url/model to your config so cron sees them
    (never the API key), installs the crontab and rebuilds damaged indexes,
    each after asking (unless --yes).

    Examples:

        memclaw doctor

        memclaw doctor --json

        memclaw doctor --fix --yes
    """
    from memclaw.doctor import apply_fix, diagnose
    from memclaw.workspace import Workspace

    current = state(ctx)
    diagnosis = diagnose(current.root, os.environ, current.overrides)
    fixed: list[str] = []
    if fix and diagnosis.fixable:
        if not as_json:
            _show(diagnosis)
        ws = Workspace.open(current.root, os.environ, current.overrides)
        for check in diagnosis.fixable:
            question = f"fix {check.name}: {check.todo}?"
            if not yes and not typer.confirm(question, default=True, err=True):
                continue
            fixed.append(apply_fix(check, ws, os.environ))
            if not as_json:
                err().print(f"fixed: {fixed[-1]}", highlight=False, markup=False)
        diagnosis = diagnose(current.root, os.environ, current.overrides)
        if not as_json:
            err().print("after the fixes:")
    if as_json:
        print_json({**diagnosis.to_dict(), **({"fixed": fixed} if fix else {})})
    else:
        _show(diagnosis)
        if not fix and diagnosis.fixable:
            err().print("`memclaw doctor --fix` can fix the lines above that say how.")
    if diagnosis.failed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command()(doctor)
