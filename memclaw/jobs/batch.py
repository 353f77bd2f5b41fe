"""Running a lifecycle job over many agents and owners, in parallel, failure by failure.

One agent failing (a broken file, a model error) never stops the others: its
error is recorded and the caller decides the exit status at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from memclaw.errors import MemclawError

if TYPE_CHECKING:
    from memclaw.workspace.owners import OwnerKey
    from memclaw.workspace.root import Workspace

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Target:
    """One unit of batch work: an agent's TEAM memory, or one owner's PERSONAL memory."""

    agent: str
    owner: OwnerKey | None = None

    @property
    def label(self) -> str:
        return f"{self.agent} ({self.owner})" if self.owner else self.agent


@dataclass(frozen=True)
class Outcome(Generic[T, R]):
    item: T
    result: R | None
    error: str | None

    @property
    def ok(self) -> bool:
        return self.error is None


def select_agents(ws: Workspace, agents: Sequence[str], all_agents: bool) -> list[str]:
    from memclaw.errors import UsageError

    if all_agents and agents:
        raise UsageError("name agents or pass --all, not both")
    if not all_agents and not agents:
        raise UsageError("name at least one agent, or pass --all")
    return ws.agent_ids() if all_agents else list(dict.fromkeys(agents))


def dream_targets(
    ws: Workspace,
    agent_ids: Sequence[str],
    *,
    owner: OwnerKey | None = None,
    all_owners: bool = False,
) -> list[Target]:
    """(agent, owner) pairs to dream: TEAM memory, one owner, or TEAM plus every owner.

    An agent that does not exist still yields a target, so that it fails on its
    own without stopping the others.
    """
    from memclaw.errors import UsageError
    from memclaw.workspace.scope import Scope

    if owner and all_owners:
        raise UsageError("pass --owner KEY or --all-owners, not both")
    targets = []
    for agent_id in agent_ids:
        if owner:
            targets.append(Target(agent_id, owner))
            continue
        targets.append(Target(agent_id))
        if all_owners:
            try:
                agent = ws.agent(agent_id)
            except MemclawError:
                continue
            team = Scope(agent)
            targets.extend(
                Target(agent_id, o) for o in agent.owners() if team.for_owner(o).personal
            )
    return targets


def run_parallel(
    items: Sequence[T],
    job: Callable[[T], R],
    *,
    workers: int = 1,
    on_done: Callable[[Outcome[T, R]], None] | None = None,
) -> list[Outcome[T, R]]:
    """Run ``job`` on every item with up to ``workers`` threads; results in input order.

    MemclawError and OSError are an item's failure; anything else is a bug and
    propagates.
    """

    def guarded(item: T) -> Outcome[T, R]:
        try:
            return Outcome(item, job(item), None)
        except (MemclawError, OSError) as exc:
            return Outcome(item, None, str(exc) or type(exc).__name__)

    outcomes: dict[int, Outcome[T, R]] = {}
    if workers <= 1 or len(items) <= 1:
        for index, item in enumerate(items):
            outcomes[index] = guarded(item)
            if on_done:
                on_done(outcomes[index])
    else:
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="memclaw") as pool:
            futures = {pool.submit(guarded, item): i for i, item in enumerate(items)}
            for future in as_completed(futures):
                outcome = future.result()
                outcomes[futures[future]] = outcome
                if on_done:
                    on_done(outcome)
    return [outcomes[i] for i in range(len(items))]


if TYPE_CHECKING:
    from memclaw.dream.consolidate import ConsolidateResult
    from memclaw.dream.run import DreamResult


def dream_many(
    ws: Workspace,
    targets: Sequence[Target],
    *,
    workers: int = 1,
    days: int | None = None,
    focus: str | None = None,
    dry_run: bool = False,
    trigger: str = "manual",
    on_done: Callable[[Outcome[Target, DreamResult]], None] | None = None,
) -> list[Outcome[Target, DreamResult]]:
    """Dream every target; one model client is shared by all worker threads."""
    from memclaw.dream.run import dream_agent
    from memclaw.llm import open_model_if_configured

    model = open_model_if_configured(ws.settings)

    from memclaw.workspace.scope import Scope

    def job(target: Target) -> DreamResult:
        return dream_agent(
            Scope(ws.agent(target.agent), target.owner),
            days=days,
            focus=focus,
            dry_run=dry_run,
            model=model,
            trigger=trigger,
        )

    return run_parallel(targets, job, workers=workers, on_done=on_done)


def consolidate_many(
    ws: Workspace,
    agent_ids: Sequence[str],
    *,
    workers: int = 1,
    trigger: str = "manual",
    on_done: Callable[[Outcome[str, ConsolidateResult]], None] | None = None,
) -> list[Outcome[str, ConsolidateResult]]:
    from memclaw.dream.consolidate import consolidate_agent
    from memclaw.llm import open_model_if_configured

    model = open_model_if_configured(ws.settings)

    def job(agent_id: str) -> ConsolidateResult:
        return consolidate_agent(ws.agent(agent_id), model=model, trigger=trigger)

    return run_parallel(agent_ids, job, workers=workers, on_done=on_done)
