"""Crash-safe writes and cross-process locks.

A reader never sees half a file: content goes to a temporary file in the same
folder, is fsynced, then renamed over the target (rename is atomic on POSIX).
While a lease (``workspace.safeguards.lease``) is held by this thread, writes inside the
agent it guards are staged in the lease's folder and checked against it first.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Protocol

from memclaw.errors import LeaseLostError, LockBusyError, WorkspaceError, storage_refusal


class Fence(Protocol):
    """A held lease: where its writes are staged, and the check before each one."""

    guards: Path

    def staging(self) -> Path: ...

    def check(self) -> None: ...


# The lease this thread (or task) holds, if any; set by Agent.lock in lease mode.
# A context variable, not a global: each thread starts with none.
HELD: ContextVar[Fence | None] = ContextVar("memclaw_fence", default=None)


def fence_for(path: Path) -> Fence | None:
    """The held lease that guards ``path``, or None (flock mode: always None)."""
    fence = HELD.get()
    if fence is None or not path.is_relative_to(fence.guards):
        return None
    return fence


def atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that it is always either old or new."""
    write_bytes_atomic(path, text.encode("utf-8"))


# A write finishes in seconds: a temporary file this much older than now was left by a
# writer that was killed, never by one still writing.
LEFTOVER_AGE_SECONDS = 3600


def leftovers(base: Path) -> list[str]:
    """The temporary files of atomic writes under ``base`` (hidden folders aside): what a
    write leaves beside its file while it runs, and forever when it is killed."""
    found = []
    for folder, dirs, names in os.walk(base):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += [os.path.join(folder, n) for n in names if n[:1] == "." and n.endswith(".tmp")]
    return found


def remove_leftovers(base: Path) -> None:
    """Remove the temporary files that atomic writes under ``base`` left when killed
    (``.NAME.XXXXXXXX.tmp`` beside NAME, an hour old or more); hidden folders such as
    ``.memclaw`` are not searched.

    Age is read on the file system's own clock (a probe file's time), never the process's,
    which may be moved (a test under libfaketime) or differ from a shared disk's."""
    found = leftovers(base)
    if not found:
        return
    # Named as a temporary file: one a kill leaves here is swept in its turn.
    probe = base / f".memclaw-clock.{os.getpid()}.tmp"
    try:
        probe.touch()
        now = probe.stat().st_mtime
    except OSError:
        return  # a full disk or a read-only root: nothing to measure with, nothing removed
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()
    for path in found:
        with contextlib.suppress(OSError):
            if now - os.stat(path).st_mtime >= LEFTOVER_AGE_SECONDS:
                os.unlink(path)


def write_bytes_atomic(path: Path, data: bytes) -> None:
    import tempfile  # here, not at the top: it loads shutil and random; a search never writes

    path.parent.mkdir(parents=True, exist_ok=True)
    fence = fence_for(path)
    if fence is not None:
        fence.check()
        try:
            fd, tmp = tempfile.mkstemp(dir=fence.staging(), prefix=f".{path.name}.", suffix=".tmp")
        except FileNotFoundError as exc:  # the stage was moved away: a newer holder took over
            raise _lost(fence) from exc
    else:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        # mkstemp makes 0600 files; a rewrite keeps the file's mode, a new file gets 0644.
        try:
            mode = path.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o644
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if fence is not None:
            fence.check()
            try:
                os.replace(tmp, path)
            except FileNotFoundError as exc:
                # A newer holder renamed the staging folder away after the check:
                # the filesystem refused the late write, which is the point.
                raise _lost(fence) from exc
        else:
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def _lost(fence: Fence) -> LeaseLostError:
    return LeaseLostError(
        f"{fence.guards.name}: this process lost its lease on the agent while writing; "
        "nothing more was written: run the command again"
    )


def append_text(path: Path, text: str) -> None:
    """Append and fsync; callers hold the agent lock so appends never interleave."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


def fsync_dir(folder: Path) -> None:
    """Flush ``folder``'s entries: a rename in it must reach the disk or a power cut may undo it."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def file_lock(path: Path, *, wait: float | None = 30.0) -> Iterator[None]:
    """Hold an exclusive flock on ``path`` (created if missing).

    ``wait=None`` blocks forever, ``wait=0`` fails at once when busy. flock
    belongs to the open file, so it also serialises threads of one process.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        refusal = storage_refusal(exc)  # a full disk, a read-only root: say so as always
        raise refusal or WorkspaceError(f"cannot open lock file {path}: {exc.strerror}") from exc
    try:
        _acquire(fd, path, wait)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _acquire(fd: int, path: Path, wait: float | None) -> None:
    if wait is None:
        fcntl.flock(fd, fcntl.LOCK_EX)
        return
    deadline = time.monotonic() + wait
    delay = 0.005
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise LockBusyError(
                    f"{path.parent.parent.name}: another memclaw process is busy with this "
                    "agent; try again in a moment"
                ) from None
            time.sleep(delay)
            delay = min(delay * 2, 0.1)
