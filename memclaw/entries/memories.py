"""Memory entries: explicit, addressable facts the user (or the model) asks to keep.

Entries live in ``<scope>/entries/<category>.md`` (session-scoped ones in
``entries/session-<id>.md``) in the format of :mod:`memclaw.workspace.entries`.
``remember`` never stores a copy of what is already there: a restatement
updates the existing entry, a changed fact supersedes the old one, which is
kept in history. ``forget`` removes entries and remembers their fingerprint
so that the same fact is not learned again.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from memclaw.entries.match import guess_category, restates, supersedes
from memclaw.errors import SecretDetectedError, UsageError, WorkspaceError
from memclaw.extract.forgotten import forgotten_checker, record_forgotten, record_relearned
from memclaw.text.likeness import containment, tokens
from memclaw.workspace import history
from memclaw.workspace.agent import WriteStrategy
from memclaw.workspace.atomic import file_lock
from memclaw.workspace.entries import CATEGORIES, ENTRIES_DIR, Entry, format_entries, parse_entries
from memclaw.workspace.logs import append_log

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent
    from memclaw.workspace.scope import Scope

LOG = "memories"
SCOPES = ("all", "long-term", "session")
_SESSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


class Action(StrEnum):
    ADDED = "added"
    UPDATED = "updated"
    SUPERSEDED = "superseded"
    UNCHANGED = "unchanged"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class RememberResult:
    entry: Entry | None
    action: Action
    previous: Entry | None = None  # the entry that was updated or superseded
    reason: str = ""


def _file_of(category: str, session_id: str | None) -> str:
    return (
        f"{ENTRIES_DIR}/session-{session_id}.md" if session_id else f"{ENTRIES_DIR}/{category}.md"
    )


def _title(rel: str) -> str:
    stem = rel.rsplit("/", 1)[-1].removesuffix(".md")
    if stem.startswith("session-"):
        return f"Session memories: {stem.removeprefix('session-')}"
    return f"Memory entries: {stem}"


def _read_scope(scope: Scope) -> dict[str, list[Entry]]:
    """Every entries file of one scope: {name relative to the scope: entries}."""
    folder = scope.folder / ENTRIES_DIR
    found: dict[str, list[Entry]] = {}
    if folder.is_dir():
        for path in sorted(folder.glob("*.md")):
            rel = f"{ENTRIES_DIR}/{path.name}"
            found[rel] = parse_entries(scope.read(rel), path.stem)
    return found


def _save(scope: Scope, rel: str, entries: list[Entry], *, keep_old: bool) -> None:
    if keep_old:
        # Agent.write versions only PROFILE/MEMORY; entries keep theirs here.
        old = scope.read(rel)
        if old:
            with scope.agent.lock():
                history.save(scope.agent, scope.rel(rel), old)
    scope.write(rel, format_entries(entries, _title(rel)), WriteStrategy.OVERWRITE)


def _lock(agent: Agent) -> contextlib.AbstractContextManager[None]:
    # Serialises read-modify-write of entries files; Agent.write takes the agent lock inside.
    return file_lock(agent.meta_dir / "entries.lock", wait=30)


def _new_id(text: str, created: str, category: str, taken: set[str]) -> str:
    salt = 0
    while True:
        seed = f"{text}\x00{created}\x00{category}\x00{salt}"
        candidate = "m-" + hashlib.sha256(seed.encode()).hexdigest()[:8]
        if candidate not in taken:
            return candidate
        salt += 1


def _sync_index(agent: Agent) -> None:
    try:
        from memclaw.index import sync_agent
    except ImportError:  # the index is optional; searching syncs it anyway
        return
    sync_agent(agent)


def remember(
    scope: Scope,
    text: str,
    *,
    category: str | None = None,
    session_id: str | None = None,
    force: bool = False,
) -> RememberResult:
    """Store ``text`` as a memory entry, updating or superseding what it restates or changes.

    A fact that was forgotten earlier is skipped unless ``force`` is true.
    Raises SecretDetectedError when ``text`` holds a credential.
    """
    from memclaw.gates import find_secrets

    text = " ".join(text.split())
    if not text:
        raise UsageError("nothing to remember: give the fact as text")
    if found := find_secrets(text):
        raise SecretDetectedError(
            f"refusing to remember: it holds what looks like a secret ({found[0].kind}); "
            "memory must never hold credentials"
        )
    if category is not None and category not in CATEGORIES:
        raise UsageError(f"unknown category {category!r}; use one of {', '.join(CATEGORIES)}")
    if session_id is not None and not _SESSION.fullmatch(session_id):
        raise UsageError(f"session id {session_id!r} is not valid: letters, digits, '.', '_', '-'")
    agent = scope.agent
    owner = scope.owner
    today = agent.now().date()
    category = category or guess_category(text, today.isoformat())
    if forgotten_checker(scope)(text):
        if not force:
            return RememberResult(
                None, Action.SKIPPED, reason="forgotten earlier; remember it with --force"
            )
        record_relearned(scope, text)
    with _lock(agent):
        files = _read_scope(scope)
        target = _file_of(category, session_id)
        visible = {
            rel: entries
            for rel, entries in files.items()
            if not rel.startswith(f"{ENTRIES_DIR}/session-") or rel == target
        }
        for rel, entries in visible.items():
            for index, old in enumerate(entries):
                if restates(text, old.text):
                    return _update(scope, rel, entries, index, text)
        extra = {"scope": str(scope.visibility)}
        if scope.personal and owner:
            extra["owner"] = owner
        if session_id:
            extra["session"] = session_id
        taken = {e.id for entries in files.values() for e in entries}
        entry = Entry(
            _new_id(text, today.isoformat(), category, taken), text, category, today, today, extra
        )
        for rel, entries in visible.items():
            for index, old in enumerate(entries):
                if old.category == category and supersedes(text, old.text):
                    return _supersede(scope, files, rel, index, target, entry)
        files.setdefault(target, []).append(entry)
        _save(scope, target, files[target], keep_old=False)
    append_log(agent, LOG, {"action": "added", "id": entry.id, "owner": owner, "file": target})
    _sync_index(agent)
    return RememberResult(entry, Action.ADDED)


def _update(
    scope: Scope,
    rel: str,
    entries: list[Entry],
    index: int,
    text: str,
) -> RememberResult:
    agent, owner = scope.agent, scope.owner
    old = entries[index]
    if " ".join(old.text.split()) == text:
        return RememberResult(old, Action.UNCHANGED, old)
    # Keep the more complete wording; either way the entry was confirmed today.
    richer = text if len(tokens(text)) > len(tokens(old.text)) else old.text
    entries[index] = replace(old, text=richer, updated=agent.now().date())
    _save(scope, rel, entries, keep_old=False)
    append_log(
        agent, LOG, {"action": "updated", "id": old.id, "owner": owner, "old_text": old.text}
    )
    _sync_index(agent)
    return RememberResult(entries[index], Action.UPDATED, old)


def _supersede(
    scope: Scope,
    files: dict[str, list[Entry]],
    rel: str,
    index: int,
    target: str,
    entry: Entry,
) -> RememberResult:
    agent, owner = scope.agent, scope.owner
    old = files[rel].pop(index)
    _save(scope, rel, files[rel], keep_old=True)
    files.setdefault(target, []).append(entry)
    _save(scope, target, files[target], keep_old=False)
    append_log(
        agent,
        LOG,
        {
            "action": "superseded",
            "id": old.id,
            "by": entry.id,
            "owner": owner,
            "old_text": old.text,
            "file": rel,
        },
    )
    _sync_index(agent)
    return RememberResult(entry, Action.SUPERSEDED, old)


def _walk(scope: Scope) -> Iterator[tuple[str, Entry]]:
    for rel, entries in _read_scope(scope).items():
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
    agent = scope.agent
    for _rel, entry in _walk(scope):
        if entry.id == memory_id:
            return entry
    raise WorkspaceError(
        f"no memory {memory_id!r} in {agent.id}; `memclaw memories list {agent.id}` shows ids"
    )


def match_memories(scope: Scope, query: str) -> list[Entry]:
    """Entries holding most words of ``query``, best first.

    Deliberately stricter than search ranking: what matches here may be forgotten.
    """
    wanted = tokens(query)
    if not wanted:
        raise UsageError("the query has no searchable words")
    scored = []
    for _rel, entry in _walk(scope):
        score = containment(wanted, tokens(entry.text + " " + entry.category))
        if score >= 0.6:
            scored.append((score, entry))
    scored.sort(key=lambda pair: (-pair[0], pair[1].id))
    return [entry for _score, entry in scored]


def forget(
    scope: Scope,
    id: str | None = None,
    query: str | None = None,
) -> list[Entry]:
    """Remove entries by id or by query; they are not learned again later."""
    if (id is None) == (query is None):
        raise UsageError("forget needs either an id or a query")
    agent, owner = scope.agent, scope.owner
    targets = [get_memory(scope, id)] if id is not None else match_memories(scope, query or "")
    if not targets:
        return []
    ids = {entry.id for entry in targets}
    with _lock(agent):
        for rel, entries in _read_scope(scope).items():
            kept = [e for e in entries if e.id not in ids]
            if len(kept) != len(entries):
                _save(scope, rel, kept, keep_old=False)
    for entry in targets:
        record_forgotten(scope, entry.text, entry_id=entry.id)
        append_log(agent, LOG, {"action": "forgotten", "id": entry.id, "owner": owner})
    _sync_index(agent)
    return targets
