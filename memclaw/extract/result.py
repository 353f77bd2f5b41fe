"""What an extraction plans to write, and what it reports back."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from memclaw.extract.offline.rules import Fact
from memclaw.workspace.owners import OwnerKey


class Status(StrEnum):
    WRITTEN = "written"
    WOULD_WRITE = "would-write"  # a dry run that found something to write
    SKIPPED = "skipped"
    NOTHING = "nothing-to-keep"
    FAILED = "failed"


class Engine(StrEnum):
    MODEL = "model"
    OFFLINE = "offline"


@dataclass
class Plan:
    """An engine's answer: full new file contents (None = leave the file alone)."""

    engine: Engine
    should_update: bool
    reason: str
    profile: str | None = None
    memory: str | None = None
    daily: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tokens_estimated: bool = False  # counted locally: the endpoint's usage was not available
    redacted: int = 0  # secrets removed from the engine's output before writing
    forgotten: int = 0  # lines dropped because the user asked to forget them
    instructions: int = 0  # lines that instructed the agent: dropped, or quoted in the note
    invented: int = 0  # lines of the model's that nothing said grounds: dropped
    facts: list[Fact] = field(default_factory=list)
    # (category, text) of facts that only matter to this conversation: session entries
    session: list[tuple[str, str]] = field(default_factory=list)
    # A model's operations on remembered facts: the new text of each update -> the id it
    # updates; each deleted id -> why.
    claims: dict[str, str] = field(default_factory=dict)
    deletes: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # receipt lines (an id memory lacks)
    released: set[str] = field(default_factory=set)  # lines a delete took out: no loss


@dataclass
class ExtractionResult:
    status: Status
    reason: str
    agent: str
    owner: OwnerKey | None = None
    engine: Engine | None = None
    dry_run: bool = False
    files_changed: list[str] = field(default_factory=list)
    diffs: dict[str, str] = field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tokens_estimated: bool = False
    redacted: int = 0
    forgotten: int = 0
    facts: list[Fact] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # File -> the entries a rewrite would have dropped, when the loss guard refused it.
    refused: dict[str, list[str]] = field(default_factory=dict)
    time_source: str = ""  # the conversation's time and where it came from
    windows: int = 0  # how many windows the engine read
    change: str = ""  # the change journal's id for what this run wrote ('' when nothing)

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": str(self.status),
            "reason": self.reason,
            "agent": self.agent,
            "owner": self.owner,
            "engine": str(self.engine) if self.engine else None,
            "dry_run": self.dry_run,
            "files_changed": self.files_changed,
            "diffs": self.diffs,
            "tokens": {
                "prompt": self.prompt_tokens,
                "completion": self.completion_tokens,
                "total": self.tokens,
                "estimated": self.tokens_estimated,
            },
            "redacted": self.redacted,
            "forgotten": self.forgotten,
            "facts": [{"category": f.category, "text": f.text} for f in self.facts],
            "notes": self.notes,
            "refused": self.refused,
            "conversation_time": self.time_source,
            "windows": self.windows,
            "change": self.change,
        }
