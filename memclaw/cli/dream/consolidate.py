"""`memclaw consolidate`: merge near-duplicate and stale memory entries, agent by agent."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from memclaw.cli.basic import JsonOpt, ModelOpt
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
from memclaw.cli.render import err, print_json, print_table

if TYPE_CHECKING:
    from memclaw.dream.consolidate import ConsolidateResult
    from memclaw.jobs.runner import JobOutcome


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

    ws = workspace_for(ctx, model)
    part = Shard.parse(shard) if shard else None
    ids = select_shard(select_agents(ws, agents or [], all_agents), part)
    terse = quiet or trigger is Trigger.CRON

    def report(outcome: JobOutcome, console: Any) -> None:
        if outcome.error is not None:
            say_failed(outcome, console)

    work = partial(consolidate_work, trigger=str(trigger))
    summary = run_batch(
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
    if not as_json:
        # A model answer that was refused leaves the entries as they were: say which, and why.
        for r in results:
            for b in r.buckets:
                who = f"{r.agent} ({b.owner})" if b.owner else r.agent
                if b.offline:
                    said = f"{who}: merged offline (the model's answer was not the JSON asked for)"
                    err().print(said, highlight=False, markup=False)
                if b.status in ("failed", "discarded"):
                    err().print(f"{who}: {b.status}: {b.reason}", highlight=False, markup=False)
    if not quiet and not as_json:
        statuses = ["skipped" if r.skipped else "done" for r in results]
        line = summary_line("consolidate", len(outcomes), statuses, len(failed))
        say_summary(ws, line, trigger)
    if failed:
        raise typer.Exit(1)
