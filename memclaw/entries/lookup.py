"""Finding memory entries: list a scope's entries, get one by id, match them to a query."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from memclaw.entries.files import read_scope
from memclaw.errors import UsageError, WorkspaceError
from memclaw.text.likeness import containment, tokens

if TYPE_CHECKING:
    from memclaw.workspace.entries import Entry
    from memclaw.workspace.scope import Scope

SCOPES = ("all", "long-term", "session")


def _walk(scope: Scope) -> Iterator[tuple[str, Entry]]:
    for rel, entries in read_scope(scope).items():
        for entry in entries:
            yield rel, entry


def list_memories(
    scope: Scope,
    kind: str = "all",
    category: str | None = None,
    session_id: str | None = None,
) -> list[Entry]:
    """Entries of one scope (an owner's personal one, else the team's), newest first.

    ``kind`` is ``all``, ``long-term`` or ``session``; ``session_id`` narrows to one session.
    """
    if kind not in SCOPES:
        raise UsageError(f"unknown scope {kind!r}; use one of {', '.join(SCOPES)}")
    found = []
    for _rel, entry in _walk(scope):
        session = entry.extra.get("session")
        if (kind == "long-term" and session) or (kind == "session" and not session):
            continue
        if session_id is not None and session != session_id:
            continue
        if category is not None and entry.category != category:
            continue
        found.append(entry)
    return sorted(found, key=lambda e: (e.sort_date, e.id), reverse=True)


def get_memory(scope: Scope, memory_id: str) -> Entry:
    return find_entry(scope, (entry for _rel, entry in _walk(scope)), memory_id)


def find_entry(scope: Scope, entries: Iterable[Entry], memory_id: str) -> Entry:
    """The entry ``memory_id`` among ``entries``; a WorkspaceError naming the scope's agent."""
    agent = scope.agent
    for entry in entries:
        if entry.id == memory_id:
            return entry
    raise WorkspaceError(
        f"no memory {memory_id!r} in {agent.id}; `memclaw memories list {agent.id}` shows ids"
    )


def match_memories(scope: Scope, query: str) -> list[Entry]:
    """Entries holding most words of ``query``, best first.

    Deliberately stricter than search ranking: what matches here may be forgotten.
    """
    return match_entries((entry for _rel, entry in _walk(scope)), query)


def match_entries(entries: Iterable[Entry], query: str) -> list[Entry]:
    """The entries holding most words of ``query`` (60% at least), best first."""
    wanted = tokens(query)
    if not wanted:
        raise UsageError("the query has no searchable words")
    scored = []
    for entry in entries:
        score = containment(wanted, tokens(entry.text + " " + entry.category))
        if score >= 0.6:
            scored.append((score, entry))
    scored.sort(key=lambda pair: (-pair[0], pair[1].id))
    return [entry for _score, entry in scored]
