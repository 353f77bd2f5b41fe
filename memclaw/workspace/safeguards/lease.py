"""Per-agent leases that hold across machines sharing one workspaces root.

flock is not reliable on network filesystems, so with ``lock_mode: lease`` an
agent's writers take a lease instead: a file ``<gen>.lease`` in
``.memclaw/lease/``, created atomically (written aside, then ``link``ed into
place, which fails when another writer won that generation) and naming its
host, pid and generation. The newest generation is the lease.

- Heartbeat: the holder touches its lease file's mtime every quarter lease;
  releasing sets the mtime to 0.
- Expiry: a waiter takes over a lease whose file did not change for a whole
  lease *by the waiter's own monotonic clock*, so clock skew between machines
  does not matter; a lease of a dead process on this host is taken at once.
- Takeover: the new holder links generation N+1 (only one waiter can), checks
  that no newer generation exists (a waiter paused since it saw N can link N+1
  after N+1 was taken and buried: the name is free again, the lease is not),
  then deletes the older lease files and renames their staging folders away.
- Fencing: every write of a holder first goes to a temporary file in its own
  staging folder ``<gen>.stage/`` and is renamed into place from there after a
  check that ``<gen>.lease`` is still the newest generation. A
  holder paused past its lease either fails that check or, paused between the
  check and the rename, finds its staging folder renamed away and its rename
  fails: the filesystem itself refuses the late write.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from memclaw.errors import LeaseLostError, LockBusyError, WorkspaceError

SUFFIX = ".lease"
STAGE = ".stage"
DEAD = ".dead-"


def default_host_id() -> str:
    return socket.gethostname() or "localhost"


def _gen_of(name: str) -> int | None:
    stem, dot, _ = name.partition(".")
    if not stem.isdigit() or not dot:
        return None
    return int(stem)


def _lease_name(gen: int) -> str:
    return f"{gen:012d}{SUFFIX}"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class Lease:
    """One hold of an agent's lease; its generation is the fencing token."""

    folder: Path  # .memclaw/lease/
    guards: Path  # the agent folder whose writes this lease fences
    gen: int
    host: str
    ttl: float
    _fd: int = -1
    _stop: threading.Event = field(default_factory=threading.Event)
    _beat: float = field(default_factory=time.monotonic)
    _thread: threading.Thread | None = None

    @property
    def token(self) -> int:
        return self.gen

    @property
    def path(self) -> Path:
        return self.folder / _lease_name(self.gen)

    def staging(self) -> Path:
        """Where this holder's temporary files go before they are renamed into place."""
        return self.folder / f"{self.gen:012d}{STAGE}"

    def check(self) -> None:
        """Raise LeaseLostError unless this lease is still the newest and still beating."""
        try:
            # The newest of all, not "mine exists and gen+1 does not": once gen+2 buried
            # gen and gen+1, a paused waiter can link a file named like mine again.
            newest = _newest(self.folder)
        except OSError:
            newest = None
        lost = newest != self.gen or time.monotonic() - self._beat > self.ttl * 0.75
        if lost:
            raise LeaseLostError(
                f"{self.guards.name}: this process lost its lease on the agent (it was paused "
                "or cut off past lease_seconds and another host took over); nothing more was "
                "written: run the command again"
            )

    def _heartbeat(self) -> None:
        while not self._stop.wait(self.ttl / 4):
            try:
                os.utime(self._fd)
                self._beat = time.monotonic()
            except OSError:
                return  # the holder's next check fails once the beat is too old

    def start(self) -> None:
        self._beat = time.monotonic()
        self._thread = threading.Thread(
            target=self._heartbeat, name=f"memclaw-lease-{self.guards.name}", daemon=True
        )
        self._thread.start()

    def release(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with contextlib.suppress(OSError):
            # mtime 0 marks it free; only this holder's own file (inode) is touched,
            # so a holder that lost the lease cannot free its successor's.
            os.utime(self._fd, ns=(0, 0))
        with contextlib.suppress(OSError):
            os.close(self._fd)
        with contextlib.suppress(OSError):
            self.staging().rmdir()


@dataclass
class _Seen:
    signature: tuple[int, int]
    since: float


def acquire(folder: Path, guards: Path, *, host: str, ttl: float, wait: float | None) -> Lease:
    """Take the lease in ``folder``; LockBusyError after ``wait`` seconds (None: forever)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WorkspaceError(f"cannot create lease folder {folder}: {exc.strerror}") from exc
    deadline = None if wait is None else time.monotonic() + wait
    seen: dict[str, _Seen] = {}
    delay = 0.002
    while True:
        top = _newest(folder)
        if top is None or _free(folder / _lease_name(top), host, ttl, seen):
            lease = _try_create(folder, guards, (top or 0) + 1, host, ttl)
            if lease is not None:
                return lease
            delay = 0.002  # lost a race for the next generation: look again at once
            continue
        if deadline is not None and time.monotonic() >= deadline:
            raise LockBusyError(
                f"{guards.name}: another memclaw process (maybe on another host) is busy with "
                "this agent; try again in a moment"
            )
        time.sleep(delay)
        delay = min(delay * 2, 0.1, ttl / 8)


def _newest(folder: Path) -> int | None:
    gens = [g for n in os.listdir(folder) if n.endswith(SUFFIX) and (g := _gen_of(n)) is not None]
    return max(gens) if gens else None


def _free(path: Path, host: str, ttl: float, seen: dict[str, _Seen]) -> bool:
    """True when the lease at ``path`` is released, expired, or held by a dead local process."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        return True  # a winner of a newer generation is cleaning up: look again
    if stat.st_mtime_ns == 0:
        return True
    try:
        owner = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        owner = {}
    pid = owner.get("pid")
    mine = owner.get("host") == host and isinstance(pid, int) and pid != os.getpid()
    if mine and not _pid_alive(pid):
        return True
    now = time.monotonic()
    signature = (stat.st_ino, stat.st_mtime_ns)
    last = seen.get(path.name)
    if last is None or last.signature != signature:
        seen[path.name] = _Seen(signature, now)
        return False
    return now - last.since >= ttl


def _try_create(folder: Path, guards: Path, gen: int, host: str, ttl: float) -> Lease | None:
    record = {"host": host, "pid": os.getpid(), "gen": gen, "time": time.time()}
    tmp = folder / f".{gen:012d}.{uuid.uuid4().hex}.tmp"
    tmp.write_text(json.dumps(record), encoding="utf-8")
    # Opened before the link, not by name after it: paused right after linking, this
    # holder may find the name already deleted by a newer one (its check then fails).
    fd = os.open(tmp, os.O_RDONLY)
    target = folder / _lease_name(gen)
    won = False
    try:
        os.link(tmp, target)  # atomic, also over NFS: exactly one writer wins a generation
        won = _newest(folder) == gen
        if not won:
            # This waiter saw gen-1 as the newest, then paused while others took gen and
            # newer ones buried it: the name was free to link, but a newer holder may be
            # writing. Holding it would be two holders at once; look again instead.
            with contextlib.suppress(FileNotFoundError):
                target.unlink()
    except FileExistsError:
        pass
    finally:
        if not won:
            os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    if not won:
        return None
    lease = Lease(folder, guards, gen, host, ttl, fd)
    _bury_older(folder, gen)
    lease.staging().mkdir(exist_ok=True)
    lease.start()
    return lease


def _bury_older(folder: Path, gen: int) -> None:
    """Fence every older holder: delete their leases (oldest first), then move their stages.

    In this order a late holder either sees its lease gone at its check, or had
    its staging folder renamed under a temporary file it is about to rename.
    """
    names = sorted(os.listdir(folder))
    for name in names:
        older = _gen_of(name)
        if older is not None and older < gen and name.endswith(SUFFIX):
            with contextlib.suppress(FileNotFoundError):
                (folder / name).unlink()
    for name in names:
        older = _gen_of(name)
        if older is None or older >= gen:
            continue
        if name.endswith(STAGE):
            dead = folder / f"{name}{DEAD}{uuid.uuid4().hex[:8]}"
            with contextlib.suppress(FileNotFoundError):
                os.rename(folder / name, dead)
                shutil.rmtree(dead, ignore_errors=True)
        elif DEAD in name:
            shutil.rmtree(folder / name, ignore_errors=True)
