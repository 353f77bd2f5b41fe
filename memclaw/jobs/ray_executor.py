"""The same jobs as Ray tasks on a cluster whose nodes share the workspaces root.

Only ``--executor ray`` imports this module, and only it imports ``ray`` (the
optional extra ``memclaw[ray]``). The driver resolves the settings (its
environment plus the root's memclaw.yaml) and ships them with every task, so
workers need no memclaw environment of their own; each task runs a chunk of
jobs with the local runner (threads and a model client of its own, so each
worker process keeps up to ``max_concurrent_requests`` calls in flight).
Outcomes come back to the driver, which reports them as they arrive and
writes the summary. Writes on the shared root are safe across nodes with
``lock_mode: lease``.
"""

from __future__ import annotations

import logging
import math
import os
import socket
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.errors import UsageError
from memclaw.jobs.local import JobOutcome, Target, Work, run_local

if TYPE_CHECKING:
    from memclaw.clock import Clock
    from memclaw.workspace.agent import Workspace

CHUNKS_PER_CPU = 4  # enough tasks to balance uneven agents, few enough to amortise start-up


def settings_values(ws: Workspace) -> dict[str, Any]:
    from memclaw.config import setting_fields

    return {f.name: getattr(ws.settings, f.name) for f in setting_fields()}


def run_chunk(
    root: str,
    values: dict[str, Any],
    clock: Clock,
    chunk: list[tuple[int, Target]],
    work: Work,
    workers: int,
) -> tuple[str, list[tuple[int, JobOutcome]]]:
    """A Ray task: run ``chunk`` on this node against the shared root."""
    from memclaw.config import Settings
    from memclaw.workspace.agent import Workspace

    ws = Workspace(Path(root), Settings(**values), clock)
    outcomes = run_local(ws, [t for _, t in chunk], work, workers=workers)
    where = f"{socket.gethostname()}:{os.getpid()}"
    return where, [(i, o) for (i, _), o in zip(chunk, outcomes, strict=True)]


def run_on_ray(
    ws: Workspace,
    targets: Sequence[Target],
    work: Work,
    *,
    workers: int,
    address: str | None = None,
    on_done: Callable[[JobOutcome], None] | None = None,
) -> list[JobOutcome]:
    try:
        import ray
    except ImportError as exc:
        raise UsageError(
            "--executor ray needs Ray: pip install 'memclaw[ray]' (on every node)"
        ) from exc
    started_here = not ray.is_initialized()
    if started_here:
        # address None starts a local cluster (or joins RAY_ADDRESS); "auto" joins this node's.
        ray.init(address=address, include_dashboard=False, logging_level=logging.WARNING)
    try:
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        cpus = max(1, int(resources.get("CPU", 1)))
        size = max(1, math.ceil(len(targets) / (cpus * CHUNKS_PER_CPU)))
        indexed = list(enumerate(targets))
        chunks = [indexed[i : i + size] for i in range(0, len(indexed), size)]
        task = ray.remote(num_cpus=1)(run_chunk)
        values = settings_values(ws)
        root = str(ws.root.absolute())
        pending = {
            task.remote(root, values, ws.clock, chunk, work, workers): chunk for chunk in chunks
        }
        outcomes: dict[int, JobOutcome] = {}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            ref = done[0]
            chunk = pending.pop(ref)
            try:
                _where, results = ray.get(ref)
            except ray.exceptions.RayError as exc:  # the task itself died (node lost ...)
                reason = f"ray task failed: {type(exc).__name__}: {str(exc).splitlines()[0]}"
                results = [(i, JobOutcome(t, None, reason)) for i, t in chunk]
            for index, outcome in results:
                outcomes[index] = outcome
                if on_done:
                    on_done(outcome)
        return [outcomes[i] for i in range(len(targets))]
    finally:
        if started_here:
            ray.shutdown()
