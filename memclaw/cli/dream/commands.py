"""`memclaw dream`: run, undo and status; consolidate is in consolidate.py, cron in cli/setup/."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from memclaw.cli.basic import AgentArg, JsonOpt, ModelOpt, OwnerOpt
from memclaw.cli.dream.batch import (
    AddressOpt,
    AgentsArg,
    AllOpt,
    Executor,
    ExecutorOpt,
    QuietOpt,
    ShardOpt,
    Trigger,
    TriggerOpt,
    WorkersOpt,
    run_batch,
    say_failed,
    say_summary,
    summary_line,
    workspace_for,
)
from memclaw.cli.dream.candidates import print_dry_run, say_dream
from memclaw.cli.render import err, out, print_json
from memclaw.cli.state import owner_key, scope
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.jobs.runner import JobOutcome


class DefaultRunGroup(TyperGroup):
    """`memclaw dream ARGS` means `memclaw dream run ARGS` unless ARGS names a sub-command."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ctx.help_option_names):
            args = ["run", *args]
        return super().parse_args(ctx, args)


dream_app = typer.Typer(
    cls=DefaultRunGroup,
    help=(
        "Consolidate recent daily notes into MEMORY.md, and look back at past dreams.\n\n"
        "`memclaw dream AGENT` is short for `memclaw dream run AGENT`.\n\n"
        "Examples:\n\n"
        "    memclaw dream demo --dry-run\n\n"
        "    memclaw dream status demo\n\n"
        "    memclaw dream undo demo"
    ),
)


@dream_app.command("run")
def dream_run(
    ctx: typer.Context,
    agents: AgentsArg = None,
    all_agents: AllOpt = False,
    owner: OwnerOpt = None,
    all_owners: Annotated[
        bool, typer.Option("--all-owners", help="Also dream every owner's personal memory.")
    ] = False,
    days: Annotated[
        int | None, typer.Option("--days", min=1, help="Days of daily notes to read (default 7).")
    ] = None,
    focus: Annotated[
        str | None, typer.Option("--focus", help="Consolidate only what concerns this topic.")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the diff and the candidates; write nothing.")
    ] = False,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = Executor.LOCAL,
    address: AddressOpt = None,
    shard: ShardOpt = None,
    model: ModelOpt = None,
    trigger: TriggerOpt = Trigger.MANUAL,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Turn the last days of daily notes into a better MEMORY.md.

    Facts that recur over several days, or that searches keep finding, are
    promoted; one-offs, corrected statements and secrets are left out. With a
    model configured it rewrites MEMORY.md; without one the best facts are
    merged in. Each run writes an entry in DREAMS.md. Sections marked
    hand-edited (a `<!-- memclaw:keep -->` line, or a heading ending in
    "(hand-edited)") are never changed. A one-line summary goes to stdout
    (`--quiet` silences it); `--trigger cron`, which the installed crontab
    lines pass, prints only that line and errors. Exit status: 0 all done,
    1 some agent failed (the others still ran), 2 bad usage.

    Examples:

        memclaw dream demo

        memclaw dream demo --dry-run --focus cutover

        memclaw dream --all --all-owners --workers 4

        memclaw dream --all --all-owners --shard 2/3 --trigger cron

        memclaw dream --all --executor ray --address auto
    """
    from functools import partial

    from memclaw.jobs.batch import dream_targets, select_agents
    from memclaw.jobs.runner import Shard, dream_work, select_shard

    ws = workspace_for(ctx, model)
    part = Shard.parse(shard) if shard else None
    ids = select_shard(select_agents(ws, agents or [], all_agents), part)
    targets = dream_targets(ws, ids, owner=owner_key(owner), all_owners=all_owners)
    # A cron run (or --quiet) reports only errors per agent; the summary line says the rest.
    terse = quiet or trigger is Trigger.CRON

    def report(outcome: JobOutcome, console: Any) -> None:
        if outcome.error is not None:
            say_failed(outcome, console)
        elif not terse and not as_json and outcome.result is not None:
            say_dream(outcome.result, console)

    work = partial(dream_work, days=days, focus=focus, dry_run=dry_run, trigger=str(trigger))
    summary = run_batch(
        ws, "dream", targets, work, report, workers=workers, executor=executor,
        address=address, shard=part, bar=not terse, log=not dry_run,
    )  # fmt: skip
    outcomes = summary.outcomes
    failed = summary.failed
    if as_json:
        print_json(
            {
                "ok": not failed,
                "results": [o.result.to_dict() for o in outcomes if o.result is not None],
                "errors": [
                    {"agent": o.target.agent, "owner": o.target.owner, "error": o.error}
                    for o in failed
                ],
            }
        )
    else:
        if dry_run and not terse:
            for outcome in outcomes:
                if outcome.result is not None:
                    print_dry_run(outcome.result)
        if not quiet:
            statuses = [str(o.result.status) for o in outcomes if o.result is not None]
            line = summary_line("dream", len(outcomes), statuses, len(failed), dry_run=dry_run)
            say_summary(ws, line, trigger)
    if failed:
        raise typer.Exit(1)


@dream_app.command("undo")
def dream_undo_cmd(
    ctx: typer.Context, agent: AgentArg, owner: OwnerOpt = None, as_json: JsonOpt = False
) -> None:
    """Put MEMORY.md back as it was before the last dream that changed it.

    The version the undo replaces is kept in history too, so nothing is lost.

    Examples:

        memclaw dream undo demo

        memclaw dream undo demo --owner user:maya
    """
    from memclaw.dream.runlog import dream_undo

    result = dream_undo(scope(ctx, agent, owner))
    if as_json:
        print_json(result)
        return
    err().print(f"restored MEMORY.md of {agent} from {result['restored_from']}")
    if result["edited_since"]:
        err().print(
            "[yellow]MEMORY.md had changed since that dream; the replaced version is in "
            f"{result['current_saved_as']}[/]"
        )


@dream_app.command("status")
def dream_status_cmd(
    ctx: typer.Context, agent: AgentArg, owner: OwnerOpt = None, as_json: JsonOpt = False
) -> None:
    """Show the last dream, the next scheduled one, the latest diary entry and waiting facts.

    Examples:

        memclaw dream status demo

        memclaw dream status demo --owner user:maya --json
    """
    from rich.markup import escape

    from memclaw.doctor import shell_only_warning
    from memclaw.dream.status import dream_status
    from memclaw.jobs.crontab import crontab_command, scheduled_jobs

    where = scope(ctx, agent, owner)
    ws = where.agent.workspace
    data = dream_status(where, scheduled=scheduled_jobs(crontab_command(), ws.root))
    data["cron_warning"] = shell_only_warning(ws.settings, ws.root, os.environ)
    if as_json:
        print_json(data)
        return
    last = data["last_run"]
    console = out()
    if last:
        console.print(
            f"last run:  {last.get('time')} — {last.get('status')} "
            f"(+{last.get('added', 0)} −{last.get('removed', 0)} lines, {last.get('engine')})",
            highlight=False,
        )
    else:
        console.print("last run:  never")
    if not data["enabled"]:
        console.print("next run:  not scheduled (dream_enabled=false)", highlight=False)
    elif data["next_run"] is None:
        console.print(
            "next run:  none: no crontab line for this root (run `memclaw cron install`)",
            highlight=False,
        )
    else:
        installed = data["scheduled"]["dream"]
        console.print(f"next run:  {data['next_run']}  [dim]({installed})[/]", highlight=False)
    if data["cron_warning"]:
        err().print(
            f"[yellow]warning: {escape(data['cron_warning'])}[/]", highlight=False, soft_wrap=True
        )
    console.print(
        f"notes:     {data['notes']} in {data['window']['start']} … {data['window']['end']}; "
        f"{plural(data['waiting_total'], 'fact')} waiting to be promoted",
        highlight=False,
    )
    for cand in data["waiting"]:
        console.print(f"  {cand['score']:.2f}  {cand['text']}", highlight=False, markup=False)
    if data["latest_entry"]:
        console.print("\nlatest diary entry:\n", highlight=False)
        sys.stdout.write(data["latest_entry"])


def register(app: typer.Typer) -> None:
    from memclaw.cli.dream.consolidate import consolidate
    from memclaw.cli.setup import cron

    app.add_typer(dream_app, name="dream")
    app.command()(consolidate)
    cron.register(app)
