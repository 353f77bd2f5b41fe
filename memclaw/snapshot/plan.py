"""What an import would do to each file, computed without writing anything."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from memclaw.errors import SnapshotError
from memclaw.snapshot.reader import Snapshot
from memclaw.snapshot.rules import OWNERS_DIR, markdown_only
from memclaw.snapshot.state import state_counts, within
from memclaw.workspace import Workspace
from memclaw.workspace.paths import IMPORT_JOURNAL, META_DIR, resolve_inside, validate_agent_id
from memclaw.workspace.templates import SEED_FILES

SEEDED_NOTE = "default content: not in the snapshot"


class Action(StrEnum):
    CREATE = "create"
    UPDATE = "update"
    UNCHANGED = "unchanged"
    SKIP = "skip"


@dataclass(frozen=True)
class PlanRow:
    path: str
    action: Action
    old_size: int | None = None
    new_size: int | None = None
    note: str = ""

    @property
    def delta(self) -> int:
        if self.action in (Action.CREATE, Action.UPDATE):
            return (self.new_size or 0) - (self.old_size or 0)
        return 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "action": str(self.action),
            "old_size": self.old_size,
            "new_size": self.new_size,
            "delta": self.delta,
            "note": self.note,
        }


@dataclass(frozen=True)
class ImportPlan:
    agent: str
    agent_exists: bool
    rows: list[PlanRow]
    contents: dict[str, bytes]
    snapshot: Snapshot
    pending_recovery: bool = False
    warnings: list[str] = field(default_factory=list)  # what a person would want to know

    def counts(self) -> dict[str, int]:
        counts = {str(action): 0 for action in Action}
        for row in self.rows:
            counts[str(row.action)] += 1
        return counts

    def changes(self) -> list[tuple[str, bytes]]:
        """(path, new bytes) of every file the import writes, sorted by path."""
        return [
            (row.path, self.contents[row.path])
            for row in self.rows
            if row.action in (Action.CREATE, Action.UPDATE)
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "agent_exists": self.agent_exists,
            "snapshot": {
                "manifest": str(self.snapshot.kind),
                "source_agent": self.snapshot.source_agent,
                "created": self.snapshot.created,
                "memclaw_version": self.snapshot.memclaw_version,
                "state": state_counts(self.snapshot.state),
            },
            "pending_recovery": self.pending_recovery,
            "warnings": self.warnings,
            "counts": self.counts(),
            "files": [row.to_dict() for row in self.rows],
        }


def plan_import(
    workspace: Workspace, agent_id: str, snapshot: Snapshot, owners: Collection[str] = ()
) -> ImportPlan:
    """Compare each snapshot file with the agent's current one.

    An owner's personal memory comes in only for the ``owners`` named (keys such as
    ``user:alice``): someone else's memory is never planted by a zip unawares."""
    folder = workspace.root / validate_agent_id(agent_id)
    if folder.exists() and not folder.is_dir():
        raise SnapshotError(f"{folder} is a file, not an agent folder; move it away first")
    exists = folder.is_dir()
    contents = {item.path: item.data for item in snapshot.files}
    left_out = _personal_left_out(contents, owners)
    skipped = {
        rel: f"personal memory of {owner}: import it with --owner {owner}"
        for rel, (owner, _) in left_out.items()
    }
    # What memory knew of the owners left out stays out with their memory.
    carried = within(
        snapshot.state, list(contents), {rel: data for rel, (_, data) in left_out.items()}
    )
    snapshot = replace(snapshot, state=carried)
    notes: dict[str, str] = {}
    if exists and (folder / META_DIR).is_dir():
        notes.update(_leave_out_forgotten(workspace, agent_id, contents))
    if not exists:
        # A brand-new agent still needs its four core files; an existing one keeps its own.
        for name, text in SEED_FILES.items():
            if name not in contents:
                contents[name] = text.encode("utf-8")
                notes[name] = SEEDED_NOTE
    rows = [
        _row(folder, rel, data, notes.get(rel, "")) if exists else _new(rel, data, notes)
        for rel, data in contents.items()
    ]
    rows += [PlanRow(item.path, Action.SKIP, note=item.reason) for item in snapshot.skipped]
    rows += [PlanRow(path, Action.SKIP, note=note) for path, note in skipped.items()]
    rows.sort(key=lambda row: row.path)
    pending = exists and (folder / META_DIR / IMPORT_JOURNAL).is_file()
    warnings = _warnings(agent_id, exists, snapshot, contents)
    return ImportPlan(agent_id, exists, rows, contents, snapshot, pending, warnings)


def _personal_left_out(
    contents: dict[str, bytes], owners: Collection[str]
) -> dict[str, tuple[str, bytes]]:
    """Take out of ``contents`` the personal memory of owners not named: (owner, data) of
    each file taken out."""
    from memclaw.workspace.owners import owner_from_dirname

    left: dict[str, tuple[str, bytes]] = {}
    for rel in [rel for rel in contents if rel.startswith(OWNERS_DIR + "/")]:
        owner = owner_from_dirname(rel.split("/")[1])
        if owner not in owners:
            left[rel] = (owner, contents.pop(rel))
    return left


def _warnings(
    agent_id: str, exists: bool, snapshot: Snapshot, contents: dict[str, bytes]
) -> list[str]:
    from memclaw.gates import addresses_agent

    warnings = []
    source = snapshot.source_agent
    if exists and source and source != agent_id:
        warnings.append(
            f"this snapshot is agent {source!r}'s memory: its files replace {agent_id!r}'s "
            f"(`memclaw undo {agent_id}` takes the import back)"
        )
    # Every file that goes into each prompt whole: a line there reads as the prompt's own.
    for name in ("AGENTS.md", "SOUL.md", "MEMORY.md", "PROFILE.md"):
        text = contents.get(name, b"").decode("utf-8", errors="replace")
        flagged = [line.strip() for line in text.splitlines() if addresses_agent(line)]
        if flagged:
            warnings.append(
                f"{name} holds {len(flagged)} line(s) that read as instructions to the "
                f"assistant, such as {flagged[0][:80]!r}: read it before trusting this snapshot"
            )
    return warnings


def _leave_out_forgotten(
    workspace: Workspace, agent_id: str, contents: dict[str, bytes]
) -> dict[str, str]:
    """Drop from ``contents`` the lines the agent was asked to forget (an older snapshot
    still holds them); returns a note for each file that lost some."""
    from memclaw.extract.forgotten import forgotten_checker, without_forgotten
    from memclaw.workspace.entries import parse_entries, splice_entries
    from memclaw.workspace.owners import owner_from_dirname
    from memclaw.workspace.scope import Scope

    agent = workspace.agent(agent_id)
    checks = {}
    notes = {}
    for rel, data in contents.items():
        owner_dir = rel.split("/")[1] if rel.startswith(OWNERS_DIR + "/") else None
        scope = Scope(agent, owner_from_dirname(owner_dir) if owner_dir else None)
        if scope.prefix not in checks:
            checks[scope.prefix] = forgotten_checker(scope)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if "/entries/" in f"/{rel}":
            # An entry goes whole: its text line alone would leave an empty block.
            entries = parse_entries(text)
            left = [e for e in entries if not checks[scope.prefix](e.text)]
            kept, dropped = splice_entries(text, left, ""), len(entries) - len(left)
        else:
            kept, dropped = without_forgotten(text, checks[scope.prefix])
        if dropped:
            contents[rel] = kept.encode("utf-8")
            notes[rel] = f"{dropped} forgotten line(s) left out"
    return notes


def _new(rel: str, data: bytes, notes: dict[str, str]) -> PlanRow:
    return PlanRow(rel, Action.CREATE, None, len(data), notes.get(rel, ""))


def _row(folder: Path, rel: str, data: bytes, note: str) -> PlanRow:
    target = resolve_inside(folder, rel, md_only=markdown_only(rel))
    _check_target(folder, rel, target)
    if not target.exists():
        return PlanRow(rel, Action.CREATE, None, len(data), note)
    old = target.read_bytes()
    action = Action.UNCHANGED if old == data else Action.UPDATE
    return PlanRow(rel, action, len(old), len(data), note)


def _check_target(folder: Path, rel: str, target: Path) -> None:
    """A file can only land where nothing but a file (or nothing) is in the way."""
    if target.is_dir():
        raise SnapshotError(f"cannot import {rel}: {target} is a folder; move it away first")
    parent = target.parent
    while parent != folder:
        if parent.exists() and not parent.is_dir():
            raise SnapshotError(f"cannot import {rel}: {parent} is a file; move it away first")
        parent = parent.parent
