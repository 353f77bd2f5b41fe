"""Dreaming commands: dream (run, undo, status) and consolidate; cron lives in cli/setup/cron.py."""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from memclaw.cli.basic import AgentArg, JsonOpt, ModelOpt, OwnerOpt
from memclaw.cli.render import err, out, print_json, print_table
from memclaw.cli.state import owner_key, scope, state
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.dream.candidates import CandidateReport
    from memclaw.dream.consolidate import ConsolidateResult
    from memclaw.dream.run import DreamResult
    from memclaw.jobs.runner import JobOutcome, RunSummary, Work
    from memclaw.workspace import Workspace


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

AgentsArg = Annotated[
    list[str] | None, typer.Argument(help="Agent ids (folders under the workspaces root).")
]
AllOpt = Annotated[bool, typer.Option("--all", help="Every agent under the root.")]


class Trigger(StrEnum):
    MANUAL = "manual"
    CRON = "cron"  # what the installed crontab lines pass: one line per run in the cron log


TriggerOpt = Annotated[
    Trigger,
    typer.Option(
        "--trigger", help="Who started the run: manual, or cron (summary only, logged as cron)."
    ),
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")]


class Executor(StrEnum):
    LOCAL = "local"
    RAY = "ray"


WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        max=1024,
        help="Jobs at once (default: max_concurrent_requests with a model, 1 offline).",
    ),
]
ExecutorOpt = Annotated[
    Executor,
    typer.Option("--executor", help="local (threads), or ray (tasks on a Ray cluster)."),
]
AddressOpt = Annotated[
    str | None,
    typer.Option("--address", help="Ray cluster to join (e.g. auto, or HEAD:6379)."),
]
ShardOpt = Annotated[
    str | None,
    typer.Option("--shard", help="Only shard I of N (I/N, e.g. 1/3) of the agents, by hash."),
]


def _workspace(ctx: typer.Context, model: str | None) -> Workspace:
    extra: dict[str, Any] = {"model": model} if model else {}
    return state(ctx).workspace(**extra)


def _progress(total: int) -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err(),
        transient=True,
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

    ws = _workspace(ctx, model)
    part = Shard.parse(shard) if shard else None
    ids = select_shard(select_agents(ws, agents or [], all_agents), part)
    targets = dream_targets(ws, ids, owner=owner_key(owner), all_owners=all_owners)
    # A cron run (or --quiet) reports only errors per agent; the summary line says the rest.
    terse = quiet or trigger is Trigger.CRON

    def report(outcome: JobOutcome, console: Any) -> None:
        if outcome.error is not None:
            _say_failed(outcome, console)
        elif not terse and not as_json and outcome.result is not None:
            _say_dream(outcome.result, console)

    work = partial(dream_work, days=days, focus=focus, dry_run=dry_run, trigger=str(trigger))
    summary = _run(
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
                    _print_dry_run(outcome.result)
        if not quiet:
            statuses = [str(o.result.status) for o in outcomes if o.result is not None]
            out().print(_summary("dream", len(outcomes), statuses, len(failed)), highlight=False)
    if failed:
        raise typer.Exit(1)


def _say_failed(outcome: JobOutcome, console: Any) -> None:
    from rich.markup import escape

    console.print(
        f"[red]{escape(outcome.target.label)}: failed: {escape(outcome.error or '')}[/]",
        highlight=False,
    )


def _run(
    ws: Workspace,
    job: str,
    targets: list[Any],
    work: Work,
    report: Any,
    *,
    workers: int | None,
    executor: Executor,
    address: str | None,
    shard: Any,
    bar: bool,
    log: bool = True,
) -> RunSummary:
    """Run the jobs, reporting each as it ends, with a progress bar on a terminal."""
    from memclaw.jobs.runner import run_jobs

    options: dict[str, Any] = {
        "workers": workers, "executor": str(executor), "address": address, "shard": shard,
        "log": log,
    }  # fmt: skip
    if len(targets) > 1 and bar and sys.stderr.isatty():
        with _progress(len(targets)) as progress:
            task = progress.add_task(f"{job}: {executor}", total=len(targets))

            def step(outcome: JobOutcome) -> None:
                report(outcome, progress.console)  # printed above the bar, not through it
                progress.advance(task)

            return run_jobs(ws, job, targets, work, on_done=step, **options)
    return run_jobs(ws, job, targets, work, on_done=lambda o: report(o, err()), **options)


def _summary(job: str, total: int, statuses: list[str], failed: int) -> str:
    """One line per run, whatever prints it: `dream: 3 runs: 2 updated, 1 unchanged`."""
    counts = {s: statuses.count(s) for s in dict.fromkeys(statuses)}
    parts = [f"{n} {status}" for status, n in counts.items()]
    if failed:
        parts.append(f"{failed} failed")
    return f"{job}: {plural(total, 'run')}: {', '.join(parts) or 'nothing to do'}"


def _say_dream(result: DreamResult, console: Any) -> None:
    who = f"{result.agent} ({result.owner})" if result.owner else result.agent
    change = f" ({result.change})" if result.status == "updated" else ""
    prefix = "would be " if result.dry_run and result.status == "updated" else ""
    console.print(f"{who}: {prefix}{result.status}{change}: {result.reason}", highlight=False)
    if result.ceiling:
        console.print(f"{who}: {result.ceiling}", style="yellow", highlight=False, markup=False)


def _print_dry_run(result: DreamResult) -> None:
    who = f"{result.agent} ({result.owner})" if result.owner else result.agent
    sys.stdout.write(f"# {who}: {result.status} ({result.engine})\n")
    sys.stdout.write(result.diff or "(no change to MEMORY.md)\n")
    if result.report is not None:
        _candidates_table(result.report, f"candidates of {who}")


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _why(cand: Any) -> str:
    """The reason that decided the status (and the recall count, which can decide it)."""
    parts = [r for r in cand.reasons if r.startswith("recalled")]
    if cand.reasons:
        last = cand.reasons[-1]
        parts.append(last.removeprefix("already in ").removeprefix("promoted: "))
    return _clip("; ".join(dict.fromkeys(parts)), 90)


def _candidates_table(report: CandidateReport, title: str, others: int = 10) -> None:
    """The promoted candidates, the best ``others`` of the rest, and a count of the remainder."""
    from rich.table import Table
    from rich.text import Text

    listed = [c for c in report.candidates if c.status != "off-focus"]
    promoted = [c for c in listed if c.status == "promote"]
    rest = sorted((c for c in listed if c.status != "promote"), key=lambda c: -c.score)
    shown = promoted + rest[:others]
    console = out()
    if not shown:
        console.print(f"no candidates in {len(report.notes)} daily notes", highlight=False)
        return
    table = Table(title=title, title_justify="left")
    for column in ("score", "status", "seen on", "fact", "why"):
        table.add_column(column, overflow="fold")
    for cand in shown:
        table.add_row(
            f"{cand.score:.2f}",
            str(cand.status),
            " ".join(d.strftime("%m-%d") for d in cand.days),
            Text(_clip(cand.to_dict()["text"], 100)),  # Text: a note's "[x]" is not markup
            Text(_why(cand)),
        )
    print_table(table, console)
    counted = {str(c.status): 0 for c in listed}
    for cand in listed:
        counted[str(cand.status)] += 1
    counts = ", ".join(f"{counted[s]} {s}" for s in _STATUS_ORDER if s in counted)
    console.print(
        f"{plural(len(listed), 'candidate')} from "
        f"{plural(len(report.notes), 'daily note')}: {counts}",
        highlight=False,
    )
    if len(rest) > others:
        console.print(
            f"{plural(len(rest) - others, 'more candidate')} below the threshold "
            "(use --json for all)",
            highlight=False,
        )


_STATUS_ORDER = (
    "promote",
    "over-limit",
    "below-threshold",
    "known",
    "one-off",
    "corrected",
    "secret",
)


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
    from memclaw.dream.run import dream_undo

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


def consolidate(
    ctx: typer.Context,
    agents: AgentsArg = None,
    all_agents: AllOpt = False,
    model: ModelOpt = None,
    trigger: TriggerOpt = Trigger.MANUAL,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = Executor.LOCAL,
    address: AddressOpt = None,
    shard: ShardOpt = None,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Merge near-duplicate and stale memory entries, per owner bucket.

    Buckets with fewer than 8 entries are skipped, at most 50 owners are handled
    per agent per run (the rest next time), and the number of entries only ever
    goes down. Prints owners consolidated, buckets updated, entries before and
    after, then a one-line summary (`--quiet`: nothing; `--trigger cron`: the
    summary line only).

    Examples:

        memclaw consolidate demo

        memclaw consolidate --all --json

        memclaw consolidate --all --shard 1/2 --trigger cron
    """
    from functools import partial

    from memclaw.jobs.batch import Target, select_agents
    from memclaw.jobs.runner import Shard, consolidate_work, select_shard

    ws = _workspace(ctx, model)
    part = Shard.parse(shard) if shard else None
    ids = select_shard(select_agents(ws, agents or [], all_agents), part)
    terse = quiet or trigger is Trigger.CRON

    def report(outcome: JobOutcome, console: Any) -> None:
        if outcome.error is not None:
            _say_failed(outcome, console)

    work = partial(consolidate_work, trigger=str(trigger))
    summary = _run(
        ws, "consolidate", [Target(a) for a in ids], work, report, workers=workers,
        executor=executor, address=address, shard=part, bar=not terse,
    )  # fmt: skip
    outcomes, failed = summary.outcomes, summary.failed
    results: list[ConsolidateResult] = [o.result for o in outcomes if o.result is not None]
    if as_json:
        print_json(
            {
                "ok": not failed,
                "results": [r.to_dict() for r in results],
                "errors": [{"agent": o.target.agent, "error": o.error} for o in failed],
            }
        )
    elif not terse and results:
        from rich.table import Table

        table = Table(title="structured consolidation", title_justify="left")
        for column in ("agent", "owners", "buckets updated", "entries", "deferred"):
            table.add_column(column)
        for r in results:
            entries = f"{r.entries_before} → {r.entries_after}"
            table.add_row(
                r.agent + (f" (skipped: {r.reason})" if r.skipped else ""),
                str(r.owners_consolidated),
                str(r.buckets_updated),
                entries,
                str(len(r.deferred)),
            )
        print_table(table)
    if not quiet and not as_json:
        statuses = ["skipped" if r.skipped else "done" for r in results]
        out().print(_summary("consolidate", len(outcomes), statuses, len(failed)), highlight=False)
    if failed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    from memclaw.cli.setup import cron

    app.add_typer(dream_app, name="dream")
    app.command()(consolidate)
    cron.register(app)
