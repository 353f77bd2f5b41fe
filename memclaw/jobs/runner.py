"""The one runner of nightly work: (agent, scope) jobs, bounded, timed, retried, summarised.

A job is one unit of work on one agent (its TEAM memory or one owner's): a
dream, a consolidation, a reindex, or any ``Work`` function (a provider
back-fill plugs in here). The runner

- keeps ``workers`` jobs going at once, threads sharing one model client whose
  gate keeps at most ``max_concurrent_requests`` calls in flight and pauses
  them all after a 429;
- gives each job ``job_timeout_seconds``: past it the job starts no further model
  call and fails as timed out (a call already sent ends within request_timeout);
- retries a job that failed on a transient model error ``job_retries`` times
  with exponential backoff;
- never lets one failure stop the others, and records one summary line per
  run in the root's ledger (``<root>/.memclaw/ledger.sqlite``).

``executor="ray"`` hands the same jobs to a Ray cluster (``jobs.ray_executor``);
``shard`` keeps only this host's share of the agents, for cron hosts without Ray.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memclaw.errors import UsageError
from memclaw.jobs.local import JobOutcome, Target, Work, run_local, run_one
from memclaw.workspace.paths import META_DIR

if TYPE_CHECKING:
    from memclaw.llm import ChatModel
    from memclaw.workspace.agent import Workspace

__all__ = [
    "JobOutcome",
    "RunSummary",
    "Shard",
    "Target",
    "Work",
    "consolidate_work",
    "dream_work",
    "reindex_work",
    "run_jobs",
    "run_local",
    "run_one",
]


JOBS_LOG = "jobs"  # the stream of the root's ledger


@dataclass(frozen=True)
class Shard:
    """This host's share of the agents: those whose stable hash mod ``count`` is ``index - 1``."""

    index: int  # 1-based, as people say it: shard 1 of 3
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        index, slash, count = text.partition("/")
        if not slash or not index.strip().isdigit() or not count.strip().isdigit():
            raise UsageError(f"--shard {text!r}: write I/N, e.g. 1/3 (shard 1 of 3)")
        shard = cls(int(index), int(count))
        if not 1 <= shard.index <= shard.count:
            raise UsageError(f"--shard {text!r}: I must be between 1 and N")
        return shard

    def holds(self, agent_id: str) -> bool:
        # sha256, not hash(): the same split on every host and every Python run.
        digest = hashlib.sha256(agent_id.encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


@dataclass
class RunSummary:
    job: str
    executor: str
    outcomes: list[JobOutcome] = field(default_factory=list)
    seconds: float = 0.0
    shard: str | None = None

    @property
    def failed(self) -> list[JobOutcome]:
        return [o for o in self.outcomes if o.error is not None]

    def record(self) -> dict[str, Any]:
        done = len(self.outcomes)
        return {
            "job": self.job,
            "executor": self.executor,
            "shard": self.shard,
            "jobs": done,
            "ok": done - len(self.failed),
            "failed": len(self.failed),
            "timed_out": sum(o.timed_out for o in self.outcomes),
            "retried": sum(o.attempts > 1 for o in self.outcomes),
            "seconds": round(self.seconds, 3),
            "per_second": round(done / self.seconds, 2) if self.seconds else None,
        }


def run_jobs(
    ws: Workspace,
    job: str,
    targets: Sequence[Target],
    work: Work,
    *,
    workers: int | None = None,
    executor: str = "local",
    address: str | None = None,
    shard: Shard | None = None,
    on_done: Callable[[JobOutcome], None] | None = None,
    log: bool = True,
) -> RunSummary:
    """Run ``work`` over ``targets`` (already sharded); ``log``: one record in the root's ledger.

    ``workers`` defaults to ``max_concurrent_requests`` with a model configured
    (the calls wait on the model), and to 1 offline (the work is all CPU).
    """
    if workers is None:
        workers = ws.settings.max_concurrent_requests if ws.settings.model_configured else 1
    summary = RunSummary(job, executor, shard=str(shard) if shard else None)
    started = time.monotonic()
    if executor == "ray":
        from memclaw.jobs.ray_executor import run_on_ray

        summary.outcomes = run_on_ray(
            ws, targets, work, workers=workers, address=address, on_done=on_done
        )
    elif executor == "local":
        summary.outcomes = run_local(ws, targets, work, workers=workers, on_done=on_done)
    else:
        raise UsageError(f"unknown executor {executor!r}: use local or ray")
    summary.seconds = time.monotonic() - started
    if log:
        log_summary(ws, summary)
    return summary


def log_summary(ws: Workspace, summary: RunSummary) -> None:
    """One record per run in the root's ledger, ``<root>/.memclaw/ledger.sqlite`` (history,
    not memory): ``memclaw log --fleet jobs`` prints them."""
    from memclaw.workspace import ledger

    if not ws.root.is_dir():
        return
    record = {"time": ws.clock().isoformat(timespec="seconds"), **summary.record()}
    ledger.append(ws.root / META_DIR, JOBS_LOG, record)


def select_shard(agent_ids: Sequence[str], shard: Shard | None) -> list[str]:
    return list(agent_ids) if shard is None else [a for a in agent_ids if shard.holds(a)]


# --- the built-in kinds of work ---------------------------------------------------------
# Module-level functions (with partial for options) so Ray can ship them by reference.


def dream_work(
    ws: Workspace,
    target: Target,
    model: ChatModel | None,
    *,
    days: int | None = None,
    focus: str | None = None,
    dry_run: bool = False,
    trigger: str = "manual",
) -> Any:
    from memclaw.dream.run import dream_agent
    from memclaw.workspace.scope import Scope

    scope = Scope(ws.agent(target.agent), target.owner)
    return dream_agent(scope, days=days, focus=focus, dry_run=dry_run, model=model, trigger=trigger)


def consolidate_work(
    ws: Workspace, target: Target, model: ChatModel | None, *, trigger: str = "manual"
) -> Any:
    from memclaw.dream.consolidate import consolidate_agent

    return consolidate_agent(ws.agent(target.agent), model=model, trigger=trigger)


def reindex_work(ws: Workspace, target: Target, model: ChatModel | None) -> Any:
    from memclaw.index import embed_index, reindex, reindex_global

    if target.agent == "_global":
        return reindex_global(ws)
    agent = ws.agent(target.agent)
    result = reindex(agent)
    result.embedded = embed_index(agent)
    return result
