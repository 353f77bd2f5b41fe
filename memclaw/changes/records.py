"""The change journal as a reader sees it: one scope's changes, newest first."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from memclaw.facts.ids import fact_id
from memclaw.workspace.logs import read_log
from memclaw.workspace.safeguards.journal import IMPORT, LOG, scope_prefix

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

UNDO = "undo"
DREAM_UNDO = "dream-undo"  # `dream undo`: reverts the dream change with the same run


@dataclass(frozen=True)
class Line:
    """One line a change added, removed or changed, with the fact it states."""

    text: str
    fact: str
    old: str | None = None  # what a changed line said before

    def to_dict(self) -> dict[str, Any]:
        data = {"text": self.text, "fact": self.fact}
        if self.old is not None:
            data["old"] = self.old
        return data


@dataclass(frozen=True)
class FileDelta:
    rel: str
    added: list[Line]
    removed: list[Line]
    changed: list[Line]
    ref: str
    before_sha: str | None
    after_sha: str | None

    @property
    def created(self) -> bool:
        return self.before_sha is None

    @property
    def deleted(self) -> bool:
        return self.after_sha is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.rel,
            "created": self.created,
            "deleted": self.deleted,
            "added": [line.to_dict() for line in self.added],
            "changed": [line.to_dict() for line in self.changed],
            "removed": [line.to_dict() for line in self.removed],
        }


@dataclass(frozen=True)
class ChangeRecord:
    """One journalled change: an operation and every file it wrote."""

    id: str
    kind: str
    time: str
    prefix: str
    files: list[FileDelta]
    detail: dict[str, Any] = field(default_factory=dict)
    undone_by: str | None = None  # the time of the undo that reverted it
    # Deltas to the state beside the files (evidence, inbox, provenance), in order.
    state: list[dict[str, Any]] = field(default_factory=list)

    @property
    def counts(self) -> tuple[int, int, int]:
        return (
            sum(len(f.added) for f in self.files),
            sum(len(f.changed) for f in self.files),
            sum(len(f.removed) for f in self.files),
        )

    def to_dict(self) -> dict[str, Any]:
        added, changed, removed = self.counts
        return {
            "id": self.id,
            "kind": self.kind,
            "time": self.time,
            **self.detail,
            "undone": self.undone_by,
            "counts": {"added": added, "changed": changed, "removed": removed},
            "files": [f.to_dict() for f in self.files],
        }


_KNOWN = {"id", "kind", "time", "prefix", "files", "state"}


def _line(text: str, prefix: str, old: str | None = None) -> Line:
    return Line(text, fact_id(text, prefix), old)


def parse(record: dict[str, Any]) -> ChangeRecord | None:
    """A journal record as a :class:`ChangeRecord`; None for one too damaged to read."""
    try:
        files = []
        for raw in record["files"]:
            rel = str(raw["rel"])
            prefix = scope_prefix(rel)
            files.append(
                FileDelta(
                    rel,
                    [_line(str(t), prefix) for t in raw.get("added", [])],
                    [_line(str(t), prefix) for t in raw.get("removed", [])],
                    [_line(str(n), prefix, str(o)) for o, n in raw.get("changed", [])],
                    str(raw.get("ref", "")),
                    raw.get("before_sha"),
                    raw.get("after_sha"),
                )
            )
        detail = {k: v for k, v in record.items() if k not in _KNOWN}
        return ChangeRecord(
            str(record["id"]),
            str(record["kind"]),
            str(record.get("time", "")),
            str(record.get("prefix", "")),
            files,
            detail,
            state=[d for d in record.get("state", []) if isinstance(d, dict)],
        )
    except (KeyError, TypeError, ValueError):
        return None


def all_changes(scope: Scope) -> list[ChangeRecord]:
    """Every change of ``scope``'s memory, oldest first, each marked if an undo reverted it."""
    parsed = [c for c in map(parse, read_log(scope.agent, LOG)) if c is not None]
    undone = {c.detail.get("undoes"): c.time for c in parsed if c.kind == UNDO}
    # `dream undo` reverts the dream of its run (unless an undo took the dream undo back).
    runs = {
        (c.prefix, c.detail.get("run")): c.time
        for c in parsed
        if c.kind == DREAM_UNDO and c.id not in undone and c.detail.get("run")
    }
    for c in parsed:
        if c.kind == "dream" and (c.prefix, c.detail.get("run")) in runs:
            undone.setdefault(c.id, runs[(c.prefix, c.detail.get("run"))])
    mine = [c for c in parsed if c.prefix == scope.prefix]
    return [replace(c, undone_by=undone.get(c.id)) for c in mine]


def find(scope: Scope, change_id: str) -> ChangeRecord | None:
    return next((c for c in all_changes(scope) if c.id == change_id), None)


def undoable(scope: Scope) -> list[ChangeRecord]:
    """Changes not yet undone, newest first (undos themselves are not undone: undo walks back).

    An import that created every file it wrote began this agent: what its snapshot's own
    records tell of before it happened elsewhere, and is never undone here."""
    waiting = []
    for change in reversed(all_changes(scope)):
        if change.kind != UNDO and change.undone_by is None:
            waiting.append(change)
        if change.kind == IMPORT and change.files and all(d.created for d in change.files):
            break
    return waiting


def last_undoable(scope: Scope) -> ChangeRecord | None:
    """The newest change not yet undone."""
    waiting = undoable(scope)
    return waiting[0] if waiting else None
