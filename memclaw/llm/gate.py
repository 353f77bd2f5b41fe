"""How many model calls one client keeps in flight, and the pause a 429 imposes on all.

Batch jobs share one client among many threads: the gate lets at most
``max_concurrent_requests`` calls through at once, and when the server says
429 with Retry-After every caller waits that long, not just the one that was
told (otherwise the others keep hammering a server that asked for quiet).
A job's deadline (``job_deadline``) is honoured here too: a job out of time
starts no further model call.
"""

from __future__ import annotations

import contextlib
import ipaddress
import threading
import time
from collections.abc import Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from memclaw.errors import ModelError

if TYPE_CHECKING:
    from memclaw.config import Settings


class JobTimeoutError(ModelError):
    """A batch job ran out of its time limit (job_timeout_seconds) before a model call."""


# Monotonic time after which the current job starts no model call; set by the job runner.
DEADLINE: ContextVar[float | None] = ContextVar("memclaw_job_deadline", default=None)


@contextlib.contextmanager
def job_deadline(seconds: float | None) -> Iterator[None]:
    """Within the block, model calls refuse to start after ``seconds`` (None or 0: never)."""
    token = DEADLINE.set(time.monotonic() + seconds if seconds else None)
    try:
        yield
    finally:
        DEADLINE.reset(token)


def _check_deadline() -> None:
    deadline = DEADLINE.get()
    if deadline is not None and time.monotonic() >= deadline:
        raise JobTimeoutError(
            "the job ran out of time before its next model call; raise job_timeout_seconds"
        )


class RequestGate:
    """At most ``limit`` calls at once; after a 429 nobody starts one until the pause ends."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self._slots = threading.Semaphore(self.limit)
        self._lock = threading.Lock()
        self._resume_at = 0.0
        self.in_flight = 0
        self.most_in_flight = 0  # the most calls seen in flight at once (for benchmarks)

    def pause(self, seconds: float) -> None:
        """Every caller waits ``seconds`` from now before its next call."""
        with self._lock:
            self._resume_at = max(self._resume_at, time.monotonic() + seconds)

    def _wait_for_pause(self) -> None:
        while True:
            _check_deadline()
            with self._lock:
                left = self._resume_at - time.monotonic()
            if left <= 0:
                return
            deadline = DEADLINE.get()
            if deadline is not None:
                left = min(left, max(deadline - time.monotonic(), 0) + 0.001)
            time.sleep(left)

    @contextlib.contextmanager
    def slot(self) -> Iterator[None]:
        self._wait_for_pause()
        while not self._slots.acquire(timeout=0.05):
            _check_deadline()
        try:
            self._wait_for_pause()  # a 429 may have come while this caller queued
            with self._lock:
                self.in_flight += 1
                self.most_in_flight = max(self.most_in_flight, self.in_flight)
            try:
                yield
            finally:
                with self._lock:
                    self.in_flight -= 1
        finally:
            self._slots.release()


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine (a name other than localhost may be anywhere)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def one_at_a_time(settings: Settings) -> bool:
    """Whether the chat endpoint answers one request at a time: ``model_slots`` 1, or left
    at 0, a server on this machine (llama.cpp and llama-cpp-python serve one slot, Ollama
    often one; and on one CPU a second request slows the first anyway)."""
    if settings.model_slots:
        return settings.model_slots == 1
    return is_loopback(urlsplit(settings.base_url).hostname or "")
