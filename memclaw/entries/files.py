"""The entries files of one scope: where an entry goes, reading them, writing them back.

A category's entries live in ``entries/<category>.md``, a session's in
``entries/session-<id>.md``. After a change the log records it (``LOG``) and the
search index is brought up to date.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memclaw.workspace.entries import ENTRIES_DIR, Entry, parse_entries, splice_entries

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent, Editing
    from memclaw.workspace.scope import Scope

LOG = "memories"


def file_of(category: str, session_id: str | None) -> str:
    """The entries file (relative to the scope) an entry of ``category`` is written to."""
    return (
        f"{ENTRIES_DIR}/session-{session_id}.md" if session_id else f"{ENTRIES_DIR}/{category}.md"
    )


def _title(rel: str) -> str:
    stem = _stem(rel)
    if stem.startswith("session-"):
        return f"Session memories: {stem.removeprefix('session-')}"
    return f"Memory entries: {stem}"


def _names(scope: Scope) -> list[str]:
    """Entries files of one scope, relative to the scope."""
    folder = scope.folder / ENTRIES_DIR
    if not folder.is_dir():
        return []
    return [f"{ENTRIES_DIR}/{path.name}" for path in sorted(folder.glob("*.md"))]


def _stem(rel: str) -> str:
    return rel.rsplit("/", 1)[-1].removesuffix(".md")


def read_scope(scope: Scope) -> dict[str, list[Entry]]:
    """Every entries file of one scope, read without the lock: for readers only."""
    return {rel: parse_entries(scope.read(rel), _stem(rel)) for rel in _names(scope)}


class EntryFiles:
    """The entries files of one scope, read and written under one hold of the agent lock.

    Every change is spliced into the file's current text, so what a person
    wrote outside the ``## id`` blocks stays; the agent keeps the previous
    version of each rewritten entries file in history.
    """

    def __init__(self, scope: Scope, edit: Editing) -> None:
        self.edit = edit
        self.texts = {rel: edit.read(rel) for rel in _names(scope)}
        self.entries = {rel: parse_entries(text, _stem(rel)) for rel, text in self.texts.items()}

    def save(self, rel: str, entries: list[Entry], *, introduced: str) -> None:
        old = self.texts.get(rel, "")
        text = splice_entries(old, entries, _title(rel), _stem(rel))
        self.edit.write(rel, text, introduced=introduced)
        self.texts[rel], self.entries[rel] = text, entries


def sync_index(agent: Agent) -> None:
    try:
        from memclaw.index import catch_up
    except ImportError:  # the index is optional; searching syncs it anyway
        return
    catch_up(agent)
