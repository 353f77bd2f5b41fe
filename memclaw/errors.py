"""Errors raised by the memclaw library.

Every message is written for the person at the terminal: it says what is wrong
and what to do about it. The CLI prints it as one line and exits non-zero.
"""

from __future__ import annotations

import errno
import sqlite3


class MemclawError(Exception):
    """Base class of every error memclaw raises on purpose."""

    exit_code = 1


class UsageError(MemclawError):
    """The command was called with arguments that cannot work."""

    exit_code = 2


class ConfigError(MemclawError):
    """A settings file or variable is invalid."""


class UnknownKeyError(ConfigError):
    """A setting named on the command line that does not exist: a usage error."""

    exit_code = 2


class UnsafePathError(MemclawError):
    """A path or name would leave the workspace or is not allowed."""


class AgentNotFoundError(MemclawError):
    """The named agent has no workspace folder: a usage error, like an unknown command."""

    exit_code = 2


class WorkspaceError(MemclawError):
    """A workspace file cannot be read or written as asked."""


class SecretDetectedError(MemclawError):
    """Content about to be written contains something that looks like a credential."""


class LockBusyError(MemclawError):
    """Another memclaw process holds the lock this operation needs."""


class LeaseLostError(LockBusyError):
    """This process lost an agent's lease (paused past its expiry) and must not write."""


class ModelError(MemclawError):
    """The model endpoint failed or answered something unusable."""


class ContextTooLargeError(ModelError):
    """The model refused the request because the prompt exceeds its context window."""


class SnapshotError(MemclawError):
    """A snapshot zip is invalid or unsafe to import."""


class ModelNotConfiguredError(ModelError):
    """No endpoint is configured and the command cannot run on the offline engine."""


class ModelUnreachableError(ModelError):
    """The endpoint could not be reached (connection refused, DNS, timeout)."""


class ModelAuthError(ModelError):
    """The endpoint rejected the API key."""


class ModelNotFoundError(ModelError):
    """The endpoint does not know the configured model."""


class ModelAnswerError(ModelError):
    """The model answered, but not in the shape that was asked for; nothing is written."""


class StorageError(MemclawError):
    """The machine refused to store something: a full disk, a read-only file system, a
    folder memclaw may not write. Every file is whole (written atomically): as it was, or
    fully new."""

    def __init__(self, refused: str, advice: str) -> None:
        whole = "nothing was half-written: every file is as it was or fully new"
        super().__init__(f"{refused}. Stopped; {whole}. {advice[:1].upper()}{advice[1:]}.")
        self.refused = refused  # what the machine refused, and where


# Why the machine refused, and what a person can do about it.
_FULL = "free some space and run it again"
_LOCKED_OUT = "make it writable (or point --root elsewhere) and run it again"
_REFUSALS = {
    errno.ENOSPC: ("no space is left on the device", _FULL),
    errno.EDQUOT: ("the disk quota is used up", _FULL),
    errno.EFBIG: ("the file would outgrow what this system allows", _FULL),
    errno.EROFS: ("the file system is read-only", _LOCKED_OUT),
    errno.EACCES: ("permission denied", _LOCKED_OUT),
    errno.EPERM: ("not permitted", _LOCKED_OUT),
    errno.EIO: ("the disk failed to read or write", "check its free space, then run it again"),
}
# SQLite says the same in words of its own.
_SQLITE_REFUSALS = {
    "database or disk is full": errno.ENOSPC,
    "attempt to write a readonly database": errno.EROFS,
    "disk i/o error": errno.EIO,
    "unable to open database file": errno.EACCES,
}


def storage_refusal(exc: BaseException, *, where: str = "the search index") -> StorageError | None:
    """``exc`` as one line for a person when it is the machine refusing a read or write
    (see ``StorageError``); None when it is anything else, a bug to show in full.
    ``where``: the SQLite database a refusal of SQLite's is about."""
    if isinstance(exc, StorageError):
        return exc
    path = ""
    if isinstance(exc, sqlite3.OperationalError):
        code = _SQLITE_REFUSALS.get(str(exc).casefold())
        path = where
    elif isinstance(exc, OSError):
        code = exc.errno
        path = str(exc.filename) if exc.filename else ""
    else:
        return None
    if code not in _REFUSALS:
        return None
    reason, advice = _REFUSALS[code]
    return StorageError(f"{reason}: {path}" if path else reason, advice)
