"""What `dream` and `consolidate` share: the batch options, and running the jobs with a bar."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer

from memclaw.cli.render import err
from memclaw.cli.state import complete_agent, refuse_model_without_endpoint, state
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.jobs.runner import JobOutcome, RunSummary, Work
    from memclaw.workspace import Workspace

AgentsArg = Annotated[
    list[str] | None,
    typer.Argument(
        help="Agent ids (folders under the workspaces root).", autocompletion=complete_agent
    ),
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


def workspace_for(ctx: typer.Context, model: str | None) -> Workspace:
    extra: dict[str, Any] = {"model": model} if model else {}
    ws = state(ctx).workspace(**extra)
    refuse_model_without_endpoint(model, ws.settings)
    return ws


def progress_bar(total: int) -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err(),
        transient=True,
    )


def say_failed(outcome: JobOutcome, console: Any) -> None:
    from rich.markup import escape

    console.print(
        f"[red]{escape(outcome.target.label)}: failed: {escape(outcome.error or '')}[/]",
        highlight=False,
    )


def run_batch(
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
        with progress_bar(len(targets)) as progress:
            task = progress.add_task(f"{job}: {executor}", total=len(targets))

            def step(outcome: JobOutcome) -> None:
                report(outcome, progress.console)  # printed above the bar, not through it
                progress.advance(task)

            return run_jobs(ws, job, targets, work, on_done=step, **options)
    return run_jobs(ws, job, targets, work, on_done=lambda o: report(o, err()), **options)


# What a dry run would have done, said as such: "1 would update", never "1 updated".
_WOULD = {"updated": "would update", "done": "would be done"}


def summary_line(
    job: str, total: int, statuses: list[str], failed: int, *, dry_run: bool = False
) -> str:
    """One line per run, whatever prints it: `dream: 3 runs: 2 updated, 1 unchanged`."""
    counts = {s: statuses.count(s) for s in dict.fromkeys(statuses)}
    parts = [f"{n} {_WOULD.get(s, s) if dry_run else s}" for s, n in counts.items()]
    if failed:
        parts.append(f"{failed} failed")
    return f"{job}: {plural(total, 'run')}: {', '.join(parts) or 'nothing to do'}"


def say_summary(ws: Workspace, line: str, trigger: Trigger) -> None:
    """The summary on stdout; a cron run's starts with the time, for the cron log."""
    from memclaw.cli.render import out

    if trigger is Trigger.CRON:
        from memclaw.jobs.cronlog import stamped

        line = stamped(line, ws.clock())
    out().print(line, highlight=False, markup=False, soft_wrap=True)
