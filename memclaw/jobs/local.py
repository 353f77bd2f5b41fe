"""One job on this machine: its deadline and retries, and many jobs on threads.

``jobs.runner`` builds on this (summary, shards, executors); ``jobs.ray_executor``
runs these same functions inside Ray tasks.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from memclaw.errors import (
    ContextTooLargeError,
    MemclawError,
    ModelAuthError,
    ModelError,
    ModelNotConfiguredError,
    ModelNotFoundError,
    storage_refusal,
)
from memclaw.llm.gate import JobTimeoutError, job_deadline

if TYPE_CHECKING:
    from memclaw.llm import ChatModel
    from memclaw.workspace.agent import Workspace
    from memclaw.workspace.owners import OwnerKey


@dataclass(frozen=True)
class Target:
    """One unit of batch work: an agent's TEAM memory, or one owner's PERSONAL memory."""

    agent: str
    owner: OwnerKey | None = None

    @property
    def label(self) -> str:
        return f"{self.agent} ({self.owner})" if self.owner else self.agent


Work = Callable[["Workspace", Target, "ChatModel | None"], Any]
# Model errors that another attempt will not fix.
PERMANENT = (
    ModelAuthError,
    ModelNotFoundError,
    ModelNotConfiguredError,
    ContextTooLargeError,
    JobTimeoutError,
)
BACKOFF_SECONDS = 0.5
MAX_BACKOFF_SECONDS = 8.0


@dataclass(frozen=True)
class JobOutcome:
    target: Target
    result: Any
    error: str | None
    attempts: int = 1
    seconds: float = 0.0
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None


def run_one(
    ws: Workspace,
    target: Target,
    work: Work,
    model: ChatModel | None,
    *,
    timeout: float,
    retries: int,
) -> JobOutcome:
    """One job with its deadline and retries; failures come back as an outcome, bugs raise."""
    started = time.monotonic()
    attempt = 0
    while True:
        attempt += 1
        left = timeout - (time.monotonic() - started) if timeout else None
        try:
            with job_deadline(left if left is None else max(left, 1e-6)):
                result = work(ws, target, model)
            return JobOutcome(target, result, None, attempt, time.monotonic() - started)
        except ModelError as exc:
            permanent = isinstance(exc, PERMANENT)
            wait = min(BACKOFF_SECONDS * 2 ** (attempt - 1), MAX_BACKOFF_SECONDS)
            wait *= random.uniform(0.5, 1.0)  # spread the retries of many jobs
            out_of_time = timeout and time.monotonic() - started + wait >= timeout
            if permanent or attempt > retries or out_of_time:
                return _failed(target, exc, attempt, started)
            time.sleep(wait)
        except MemclawError as exc:
            return _failed(target, exc, attempt, started)
        except (OSError, sqlite3.Error) as exc:
            # A full disk or a read-only root is said as the CLI says it; other errors of
            # the system keep their words, and SQLite's others are bugs.
            refusal = storage_refusal(exc)
            if refusal is None and not isinstance(exc, OSError):
                raise
            return _failed(target, refusal or exc, attempt, started)


def _failed(target: Target, exc: BaseException, attempt: int, started: float) -> JobOutcome:
    timed_out = isinstance(exc, JobTimeoutError)
    message = str(exc) or type(exc).__name__
    if timed_out:
        message = f"timed out after {time.monotonic() - started:.0f} s: {message}"
    return JobOutcome(target, None, message, attempt, time.monotonic() - started, timed_out)


def run_local(
    ws: Workspace,
    targets: Sequence[Target],
    work: Work,
    *,
    workers: int,
    on_done: Callable[[JobOutcome], None] | None = None,
) -> list[JobOutcome]:
    """Every job on this machine, ``workers`` threads sharing one model client; input order."""
    from memclaw.llm import open_model_if_configured

    settings = ws.settings
    model = open_model_if_configured(settings)
    job = partial(
        run_one,
        work=work,
        model=model,
        timeout=settings.job_timeout_seconds,
        retries=settings.job_retries,
    )
    outcomes: dict[int, JobOutcome] = {}
    if workers <= 1 or len(targets) <= 1:
        for index, target in enumerate(targets):
            outcomes[index] = job(ws, target)
            if on_done:
                on_done(outcomes[index])
    else:
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="memclaw-job") as pool:
            futures = {pool.submit(job, ws, t): i for i, t in enumerate(targets)}
            for future in as_completed(futures):
                outcomes[futures[future]] = future.result()
                if on_done:
                    on_done(outcomes[futures[future]])
    return [outcomes[i] for i in range(len(targets))]
