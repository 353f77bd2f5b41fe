"""Errors raised by the memclaw library.

Every message is written for the person at the terminal: it says what is wrong
and what to do about it. The CLI prints it as one line and exits non-zero.
"""

from __future__ import annotations


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
