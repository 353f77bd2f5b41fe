"""What one dream run did: its status, its diff, and what it found, kept and refused."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from memclaw.dream.candidates import CandidateReport
from memclaw.dream.factcheck import FactCheck
from memclaw.dream.memory_md import KEEP_MARKER, KEEP_SUFFIX
from memclaw.workspace.owners import OwnerKey

HAND_EDITED = f"a '{KEEP_MARKER}' line in a '## ' section, or a heading ending '{KEEP_SUFFIX}'"


class DreamStatus(StrEnum):
    UPDATED = "updated"  # MEMORY.md was (or, in a dry run, would be) rewritten
    UNCHANGED = "unchanged"
    REFUSED = "refused"  # the rewrite broke a safety rule; nothing written
    SKIPPED = "skipped"  # another dream of the same scope was running
    STOPPED = "stopped"  # ran past dream_time_limit_seconds; nothing written
    IDLE = "idle"  # no daily notes in the window
    DISABLED = "disabled"


@dataclass
class DreamResult:
    agent: str
    owner: OwnerKey | None
    status: DreamStatus
    engine: str
    dry_run: bool = False
    reason: str = ""
    diff: str = ""
    added: int = 0
    removed: int = 0
    report: CandidateReport | None = None
    backup: str | None = None
    restored_sections: list[str] = field(default_factory=list)
    lost_entries: list[str] = field(default_factory=list)
    archived_to: list[str] = field(default_factory=list)
    run_id: str = ""
    trigger: str = "manual"
    written_sha: str = ""
    ceiling: str | None = None  # what the ceiling did to MEMORY.md, when it did anything
    overflowed: int = 0  # entries the ceiling moved to the overflow file
    created: bool = False  # MEMORY.md did not exist before this run wrote it
    facts: FactCheck = field(default_factory=FactCheck)  # corrections, inbox, low trust
    report_path: str | None = None  # the structured report (dreams/<day>-<run>.json)

    @property
    def change(self) -> str:
        return f"+{self.added} −{self.removed} lines"

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "owner": self.owner,
            "status": str(self.status),
            "engine": self.engine,
            "dry_run": self.dry_run,
            "trigger": self.trigger,
            "run_id": self.run_id,
            "reason": self.reason,
            "added": self.added,
            "removed": self.removed,
            "backup": self.backup,
            "restored_sections": self.restored_sections,
            "lost_entries": self.lost_entries,
            "archived_to": self.archived_to,
            "ceiling": self.ceiling,
            "report": self.report_path,
            "hand_edited_marker": HAND_EDITED,
            "diff": self.diff,
            "facts": self.facts.to_dict(),
            **(self.report.to_dict() if self.report else {"notes": [], "candidates": []}),
        }
