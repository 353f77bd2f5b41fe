"""What the layers under :class:`~memclaw.workspace.agent.Agent` need of an agent.

The safeguards, logs and owner folders are called by the agent's writes; they
ask only this of it, so they sit below the agent rather than importing it back.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import Protocol


class Folder(Protocol):
    """One agent's folder: where it is, its files, its clock and its lock."""

    path: Path

    @property
    def meta_dir(self) -> Path: ...

    def now(self) -> datetime: ...

    def read(self, name: str) -> str: ...

    def ceiling_of(self, name: str) -> int | None: ...

    def lock(self, wait: float | None = ...) -> AbstractContextManager[None]: ...
