"""Forgetting memory entries: removed from their files, and never learned again."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memclaw.entries.files import LOG, EntryFiles, sync_index
from memclaw.entries.lookup import find_entry, match_entries
from memclaw.errors import UsageError
from memclaw.extract.forgotten import record_forgotten
from memclaw.text.likeness import tokens
from memclaw.workspace.logs import append_log
from memclaw.workspace.safeguards import journal

if TYPE_CHECKING:
    from memclaw.workspace.entries import Entry
    from memclaw.workspace.scope import Scope


def forget(
    scope: Scope,
    id: str | None = None,
    query: str | None = None,
) -> list[Entry]:
    """Remove entries by id or by query; they are not learned again later."""
    if (id is None) == (query is None):
        raise UsageError("forget needs either an id or a query")
    if query is not None and not tokens(query):
        raise UsageError("the query has no searchable words")
    agent, owner = scope.agent, scope.owner
    with journal.change(agent, "forget"), scope.editing() as edit:
        # Choose and remove under one hold, so an entry changed meanwhile is judged as it is now.
        files = EntryFiles(scope, edit)
        every = [e for entries in files.entries.values() for e in entries]
        targets = (
            [find_entry(scope, every, id)] if id is not None else match_entries(every, query or "")
        )
        ids = {entry.id for entry in targets}
        for rel, entries in list(files.entries.items()):
            kept = [e for e in entries if e.id not in ids]
            if len(kept) != len(entries):
                files.save(rel, kept, introduced="")
    if not targets:
        return []
    for entry in targets:
        record_forgotten(scope, entry.text, entry_id=entry.id)
        append_log(agent, LOG, {"action": "forgotten", "id": entry.id, "owner": owner})
    sync_index(agent)
    return targets
