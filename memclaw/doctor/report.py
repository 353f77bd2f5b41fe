"""What a check found: its status, what it saw, what to do, and the safe fix if there is one."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from memclaw.text.plural import plural


class Status(StrEnum):
    OK = "ok"
    WARN = "warn"
    FAIL = "fail"


class Fix(StrEnum):
    """The fixes `doctor --fix` may carry out: each is safe to repeat and loses nothing."""

    WRITE_MODEL_SETTINGS = "write-model-settings"
    INSTALL_CRONTAB = "install-crontab"
    REBUILD_INDEX = "rebuild-index"


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    found: str
    todo: str = ""
    fix: Fix | None = None
    target: str = ""  # what the fix acts on: an agent id for an index
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "status": str(self.status),
            "found": self.found,
            "todo": self.todo or None,
            "fix": str(self.fix) if self.fix else None,
            **({"detail": self.detail} if self.detail else {}),
        }


@dataclass(frozen=True)
class Diagnosis:
    root: Path
    checks: list[Check]

    @property
    def failed(self) -> bool:
        return any(c.status is Status.FAIL for c in self.checks)

    @property
    def fixable(self) -> list[Check]:
        return [c for c in self.checks if c.fix is not None]

    def counts(self) -> dict[str, int]:
        return {str(status): sum(c.status is status for c in self.checks) for status in Status}

    def summary(self) -> str:
        """The closing line, as test runners end: ``3 ok, 1 warning, 0 failed``."""
        counts = self.counts()
        warnings = plural(counts[Status.WARN], "warning")
        return f"{counts[Status.OK]} ok, {warnings}, {counts[Status.FAIL]} failed"

    def to_dict(self) -> dict[str, Any]:
        return {
            "root": str(self.root),
            "ok": not self.failed,
            "counts": self.counts(),
            "checks": [c.to_dict() for c in self.checks],
        }
