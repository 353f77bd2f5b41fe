"""`memclaw cron show|install|remove`: memclaw's nightly lines in the user's crontab."""

from __future__ import annotations

import os
import sys
from typing import Any

import typer

from memclaw.cli.basic import JsonOpt
from memclaw.cli.render import err, print_json
from memclaw.cli.state import state
from memclaw.text.plural import plural

cron_app = typer.Typer(
    help=(
        "Show, install or remove memclaw's nightly lines in your crontab.\n\n"
        "Examples:\n\n    memclaw cron show\n\n    memclaw cron install"
    ),
    no_args_is_help=True,
)


def _cron_setup(ctx: typer.Context) -> tuple[list[Any], list[str], Any]:
    from memclaw.jobs.crontab import crontab_command, wanted_lines

    ws = state(ctx).workspace()
    lines = wanted_lines(ws.root, ws.settings)
    return lines, crontab_command(), ws.root


@cron_app.command("show")
def cron_show(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Print the crontab lines memclaw uses for this root, and whether they are installed.

    Examples:

        memclaw cron show

        memclaw --root ~/agents cron show --json
    """
    from memclaw.jobs.crontab import CronUnavailableError, available, installed

    lines, command, root = _cron_setup(ctx)
    present: list[str] | None = None
    note = ""
    if available(command):
        try:
            present = installed(command, root)
        except CronUnavailableError as exc:
            note = str(exc)
    else:
        note = f"'{command[0]}' is not installed; these lines are not active"
    if as_json:
        print_json(
            {
                "lines": [line.text for line in lines],
                "installed": present,
                "up_to_date": present == [line.text for line in lines],
                "note": note or None,
            }
        )
        return
    for line in lines:
        sys.stdout.write(line.text + "\n")
    if note:
        err().print(f"[yellow]{note}[/]", highlight=False)
    elif present == [line.text for line in lines]:
        err().print("installed and up to date")
    elif present:
        err().print("installed, but different: run `memclaw cron install` to update")
    else:
        err().print("not installed: run `memclaw cron install`")


@cron_app.command("install")
def cron_install(ctx: typer.Context) -> None:
    """Add (or update) the nightly dream and consolidation lines in your crontab.

    Your other crontab lines are left exactly as they are; running it twice
    changes nothing the second time.

    Examples:

        memclaw cron install

        memclaw --set dream_cron="15 2 * * *" cron install
    """
    from rich.markup import escape

    from memclaw.doctor import shell_only_warning
    from memclaw.jobs.crontab import install

    lines, command, root = _cron_setup(ctx)
    result = install(command, root, lines)
    if result["changed"]:
        err().print(f"installed {plural(len(lines), 'crontab line')} for {root}")
    else:
        err().print("crontab already up to date")
    warning = shell_only_warning(state(ctx).workspace().settings, root, os.environ)
    if warning:
        err().print(f"[yellow]warning: {escape(warning)}[/]", highlight=False, soft_wrap=True)


@cron_app.command("remove")
def cron_remove(ctx: typer.Context) -> None:
    """Remove memclaw's lines for this root from your crontab, and nothing else.

    Examples:

        memclaw cron remove

        memclaw --root ~/agents cron remove
    """
    from memclaw.jobs.crontab import remove

    _lines, command, root = _cron_setup(ctx)
    result = remove(command, root)
    removed = result["removed"]
    count = len(removed) if isinstance(removed, list) else 0
    err().print(
        f"removed {plural(count, 'crontab line')}" if count else "no memclaw lines to remove"
    )


def register(app: typer.Typer) -> None:
    app.add_typer(cron_app, name="cron")
