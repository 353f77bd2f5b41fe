"""What a batch job runs over: the agents chosen, and their (agent, owner) targets.

``jobs.runner`` runs the jobs; ``dream_many`` and ``consolidate_many`` are
its two most common uses on one machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from memclaw.errors import MemclawError
from memclaw.jobs.local import Target

__all__ = ["Target", "consolidate_many", "dream_many", "dream_targets", "select_agents"]

if TYPE_CHECKING:
    from memclaw.workspace.agent import Workspace
    from memclaw.workspace.owners import OwnerKey


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


if TYPE_CHECKING:
    from memclaw.jobs.runner import JobOutcome


def dream_many(
    ws: Workspace,
    targets: Sequence[Target],
    *,
    workers: int = 1,
    days: int | None = None,
    focus: str | None = None,
    dry_run: bool = False,
    trigger: str = "manual",
    on_done: Callable[[JobOutcome], None] | None = None,
) -> list[JobOutcome]:
    """Dream every target on this machine (``jobs.runner.run_jobs`` adds Ray and a log line)."""
    from memclaw.jobs.runner import dream_work, run_local

    work = partial(dream_work, days=days, focus=focus, dry_run=dry_run, trigger=trigger)
    return run_local(ws, targets, work, workers=workers, on_done=on_done)


def consolidate_many(
    ws: Workspace,
    agent_ids: Sequence[str],
    *,
    workers: int = 1,
    trigger: str = "manual",
    on_done: Callable[[JobOutcome], None] | None = None,
) -> list[JobOutcome]:
    from memclaw.jobs.runner import consolidate_work, run_local

    work = partial(consolidate_work, trigger=trigger)
    targets = [Target(a) for a in agent_ids]
    return run_local(ws, targets, work, workers=workers, on_done=on_done)
