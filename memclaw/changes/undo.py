"""`memclaw undo`: revert the last memory change of one scope, whatever made it.

The change journal says which files the change wrote, the hash of the text it
left in each, and where the text before it is (gone: the file was new; the
first N bytes: it only appended; a version in the history). Undo reverts every
file of the change under one hold of the agent lock, and only if each file
still reads exactly what the change left: a file edited since (by hand, or by a
write memclaw did not journal) is never reverted over; the undo is refused with
one line saying which file and what to do, and nothing is written. The undo is
a change of its own (kind ``undo``) naming the one it reverted, so the next
undo walks one further back instead of redoing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memclaw.changes.records import UNDO, ChangeRecord, FileDelta, undoable
from memclaw.changes.state import revert_state
from memclaw.errors import WorkspaceError
from memclaw.workspace.atomic import atomic_write
from memclaw.workspace.paths import resolve_inside
from memclaw.workspace.safeguards import history, journal
from memclaw.workspace.safeguards.journal import APPEND, CREATED, FORGET, HISTORY, sha

if TYPE_CHECKING:
    from memclaw.workspace.agent import Editing
    from memclaw.workspace.scope import Scope


class NothingToUndoError(WorkspaceError):
    """The journal holds no change of this memory that is not undone already."""


class UndoRefusedError(WorkspaceError):
    """A file of the change was edited since; reverting it would lose that edit."""


class ForgetIsFinalError(UndoRefusedError):
    """The newest change is a forget, which cannot be undone."""


@dataclass(frozen=True)
class UndoResult:
    change: ChangeRecord  # the change that was reverted
    files: list[str]
    notes: list[str]
    undo_id: str = ""  # the undo's own change in the journal: what the undo wrote

    def to_dict(self) -> dict[str, Any]:
        return {
            "undid": self.change.to_dict(),
            "undo": self.undo_id,
            "files": self.files,
            "notes": self.notes,
        }


def undo_last(scope: Scope, *, skip_forget: bool = False) -> UndoResult:
    """Revert the newest change of ``scope`` that is not undone yet; see the module doc.

    A forget is final: when the newest change is one, undo refuses and names the
    change it would otherwise undo; ``skip_forget`` passes over forgets to that one.
    """
    agent = scope.agent
    # The undo's own record is written before the lock is released, so the next undo,
    # waiting for the lock, already sees this change as undone.
    with agent.editing() as edit, journal.change(agent, UNDO, prefix=scope.prefix) as undo:
        # Chosen under the lock: a change journalled while we waited is the one undone.
        target = _target(scope, edit, skip_forget)
        plans = [(delta, _before(scope, edit, target, delta)) for delta in target.files]
        # Only now, with nothing refused: a refused undo marks nothing undone.
        undo.detail["undoes"] = target.id
        notes = [note for _delta, (_text, note) in plans if note]
        for delta, (before, _note) in plans:
            if before is None:
                path = resolve_inside(agent.path, delta.rel, md_only=False)
                old = _read(scope, edit, delta.rel)
                # Noted (its text kept in the history) before it goes, so it can come back.
                journal.note(agent, delta.rel, old, None, None)
                path.unlink(missing_ok=True)
            elif delta.rel.endswith(".md"):
                edit.put(delta.rel, edit.read_existing(delta.rel), before, introduced=None)
            else:  # a dream's report an import brought: no memory lines, no guards
                journal.note(agent, delta.rel, _read(scope, edit, delta.rel), before, None)
                atomic_write(resolve_inside(agent.path, delta.rel, md_only=False), before)
        # What the change did beside the files goes back with them, newest delta first.
        for state in reversed(target.state):
            revert_state(agent, state)
    record = undo.record or {}
    return UndoResult(target, [d.rel for d in target.files], notes, str(record.get("id", "")))


def _target(scope: Scope, edit: Editing, skip_forget: bool) -> ChangeRecord:
    agent = scope.agent
    owner = " for this owner" if scope.prefix else ""
    waiting = undoable(scope)
    if not waiting:
        raise NothingToUndoError(
            f"{agent.id}: no memory change to undo{owner} (`memclaw timeline` lists what happened)"
        )
    if skip_forget:
        waiting = [c for c in waiting if c.kind != FORGET]
    elif waiting[0].kind == FORGET:
        before = next((c for c in waiting if c.kind != FORGET), None)
        changed = _changed_since(scope, edit, before) if before is not None else None
        if before is None:
            instead = "there is no change before it to undo"
        elif changed is not None:
            # The forget rewrote a file that change wrote too: only a person can undo it.
            instead = (
                f"the {before.kind} of {before.time} before it wrote {changed}, which the "
                f"forget rewrote since: fix that file by hand (`memclaw timeline {agent.id} "
                "--diff` shows both)"
            )
        else:
            instead = (
                f"`memclaw undo {agent.id} --skip-forget` undoes the {before.kind} of "
                f"{before.time} before it"
            )
        raise ForgetIsFinalError(
            f"the newest change{owner} is the forget of {waiting[0].time}, and a forget is final "
            f"(what it removed is gone everywhere); nothing was undone. {instead}"
        )
    if not waiting:
        raise NothingToUndoError(f"{agent.id}: no memory change but forgets to undo{owner}")
    return waiting[0]


def _changed_since(scope: Scope, edit: Editing, change: ChangeRecord) -> str | None:
    """The first file ``change`` wrote that no longer reads as it left it (or as before)."""
    for delta in change.files:
        now = sha(_read(scope, edit, delta.rel))
        if now not in (delta.after_sha, delta.before_sha):
            return delta.rel
    return None


def _before(
    scope: Scope, edit: Editing, change: ChangeRecord, delta: FileDelta
) -> tuple[str | None, str]:
    """The text ``delta.rel`` had before the change (None: it did not exist), and a note."""
    agent = scope.agent
    current = _read(scope, edit, delta.rel)
    if sha(current) == delta.before_sha:
        # It reads what undo would restore already: an undo killed before it could record
        # itself, or a person who put it back by hand. Nothing to write; the undo completes.
        return current, ""
    if sha(current) != delta.after_sha:
        state = "deleted" if current is None else "edited"
        raise UndoRefusedError(
            f"{delta.rel} was {state} after the {change.kind} of {change.time}, so undoing it "
            "would lose that edit; nothing was undone. See it with `memclaw timeline "
            f"{agent.id} --diff`, then fix the file by hand"
        )
    ref = delta.ref
    if ref == CREATED:
        return None, ""
    if ref.startswith(APPEND):
        size = int(ref.removeprefix(APPEND))
        data = (current or "").encode("utf-8")
        return data[:size].decode("utf-8", errors="replace"), ""
    if ref.startswith(HISTORY):
        kept = history.read_text(agent, ref.removeprefix(HISTORY))
        if kept is None:
            raise UndoRefusedError(
                f"the version of {delta.rel} before the {change.kind} of {change.time} is no "
                "longer kept (the history keeps the newest 20 per file); nothing was undone"
            )
        text, replaced = kept
        if replaced:
            note = "the kept version was not UTF-8 text: its other bytes are now U+FFFD"
            return text, f"{delta.rel}: {note}"
        if sha(text) != delta.before_sha:
            return text, f"{delta.rel}: the kept version differs from the original (redacted)"
        return text, ""
    raise UndoRefusedError(f"the journal does not say how to revert {delta.rel}; nothing undone")


def _read(scope: Scope, edit: Editing, rel: str) -> str | None:
    """The text of ``rel`` (None: no such file): a memory file, or a dream's report in
    JSON that an import brought (``dreams/*.json``)."""
    if rel.endswith(".md"):
        return edit.read_existing(rel)
    path = resolve_inside(scope.agent.path, rel, md_only=False)
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
