"""What a fact is: one statement, the places it lives, and the evidence behind it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum


class Kind(StrEnum):
    """Which sort of file a place is in; daily notes are history, the rest is memory."""

    PROFILE = "profile"
    MEMORY = "memory"
    ENTRY = "entry"
    DAILY = "daily"

    @property
    def durable(self) -> bool:
        return self is not Kind.DAILY


@dataclass(frozen=True)
class Place:
    """One line of one file that states a fact."""

    fact: str  # the fact id
    statement: str  # the line's text without list marker
    path: str  # relative to the agent folder
    line: int  # 1-based
    kind: Kind
    category: str  # the section heading (lower case) or the entry's category
    day: date | None  # the daily note's date, the entry's last update; None: unknown
    author: str  # "person" or "model" (from the provenance record)


class EventKind(StrEnum):
    STATED = "stated"  # the person said it (remember, an explicit correction)
    INFERRED = "inferred"  # a model or the offline engine drew it from a conversation
    CONFIRMED = "confirmed"  # facts confirm, /good
    REJECTED = "rejected"  # facts reject, /bad
    SUPERSEDED = "superseded"  # a correction or an inbox resolution replaced it


@dataclass(frozen=True)
class Event:
    kind: EventKind
    time: str  # ISO 8601
    source: str  # remember, extract, tool, dream, chat, cli, inbox
    session: str | None = None

    def to_dict(self) -> dict[str, str]:
        data = {"kind": str(self.kind), "time": self.time, "source": self.source}
        if self.session:
            data["session"] = self.session
        return data


@dataclass(frozen=True)
class Fact:
    """A fact as the reader sees it: every place it lives, its evidence and its trust now."""

    id: str
    statement: str
    subject: str
    category: str
    scope: str  # "team" or the owner's folder label
    places: tuple[Place, ...]
    events: tuple[Event, ...] = field(default_factory=tuple)
    trust: float = 0.0
    age_days: float = 0.0
    source: str = ""  # what first produced it: remember, extract, dream, hand edit ...
    since: str = ""  # when that was (ISO date)

    @property
    def durable(self) -> bool:
        return any(p.kind.durable for p in self.places)

    @property
    def by_person(self) -> bool:
        """A person wrote (or may have written) one of its memory lines: no model rewords it.
        A line with no record of who wrote it counts as the person's."""
        return any(p.author != "model" for p in self.places if p.kind.durable)

    @property
    def superseded(self) -> bool:
        return any(e.kind is EventKind.SUPERSEDED for e in self.events)

    def where(self) -> list[str]:
        return [f"{p.path}:{p.line}" for p in self.places]

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "statement": self.statement,
            "subject": self.subject,
            "category": self.category,
            "scope": self.scope,
            "trust": round(self.trust, 3),
            "age_days": round(self.age_days, 1),
            "source": self.source,
            "since": self.since,
            "superseded": self.superseded,
            "where": self.where(),
            "authors": sorted({p.author for p in self.places}),
            "events": [e.to_dict() for e in self.events],
        }
