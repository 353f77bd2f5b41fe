"""The contradiction inbox: a new statement that disagrees with a remembered fact, held back.

The ledger's ``inbox`` document lists each contradiction with both sides,
where the old fact lives and what said the new one. The old fact stays in
force until the person chooses (``memclaw inbox resolve``); the new statement
waits here, so nothing is overwritten silently. Saved in one transaction under
the agent's lock; every string passes the secret gate.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from memclaw.errors import WorkspaceError
from memclaw.gates.redaction import redact_data
from memclaw.workspace import ledger
from memclaw.workspace.safeguards import journal

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent

STORE = "inbox"  # the name its deltas carry in the change journal
KEEP_CHOICES = ("new", "old", "both")
# Resolved items kept for the record; open ones are never dropped.
KEEP_RESOLVED = 200


@dataclass(frozen=True)
class Item:
    id: str
    prefix: str  # the scope folder both facts belong to ('' for the team)
    old_fact: str
    old: str
    old_where: list[str]
    new_fact: str
    new: str
    category: str
    source: str  # remember, extract, tool, dream
    session: str | None
    reason: str
    opened: str
    status: str = "open"
    keep: str | None = None
    resolved: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def item_id(old_fact: str, new_fact: str) -> str:
    return "c" + hashlib.sha1(f"{old_fact}>{new_fact}".encode()).hexdigest()[:6]


def load(agent: Agent) -> list[Item]:
    """Every item, oldest first; an unreadable document counts as an empty inbox."""
    data = ledger.load(agent.meta_dir, STORE)[0]
    items = []
    for raw in data.get("items", []) if isinstance(data, dict) else []:
        try:
            items.append(Item(**raw))
        except TypeError:
            continue
    return items


def _save(agent: Agent, items: list[Item]) -> None:
    before = {i.id: i.to_dict() for i in load(agent)}
    resolved = [i for i in items if i.status != "open"]
    drop = {i.id for i in resolved[: max(len(resolved) - KEEP_RESOLVED, 0)]}
    kept = [i.to_dict() for i in items if i.id not in drop]
    ledger.save(agent.meta_dir, STORE, redact_data({"items": kept}))
    # Ids and the fields that changed only: the statements stay in this document alone.
    changed: list[list[Any]] = []
    for item in kept:
        old = before.get(item["id"])
        if old is None:
            changed.append([item["id"], None])
        elif old != item:
            changed.append([item["id"], {k: v for k, v in old.items() if item.get(k) != v}])
    if changed:
        prefixes = {str(i["prefix"]) for i in kept if i["id"] in {c[0] for c in changed}}
        prefix = prefixes.pop() if len(prefixes) == 1 else "*"
        journal.note_state(agent, {"store": STORE, "prefix": prefix, "items": changed})


def undo_delta(agent: Agent, delta: dict[str, Any]) -> None:
    """Take back one noted write: each item it touched goes back to what it was before.

    An item the write added is removed; one it resolved is open again. Items it
    did not touch, and later choices about other items, stay. Caller holds the lock.
    """
    items = {i.id: i for i in load(agent)}
    for key, fields in reversed(delta.get("items", [])):
        if fields is None:
            items.pop(str(key), None)
        elif str(key) in items:
            try:
                items[str(key)] = Item(**{**items[str(key)].to_dict(), **fields})
            except TypeError:
                continue
    _save(agent, list(items.values()))


def open_items(agent: Agent, prefix: str | None = None) -> list[Item]:
    """Open contradictions (of one scope folder when ``prefix`` is given)."""
    return [i for i in load(agent) if i.status == "open" and (prefix is None or i.prefix == prefix)]


def add(agent: Agent, item: Item) -> Item:
    """File ``item`` unless the same contradiction is already open; returns the open one."""
    with agent.lock():
        items = load(agent)
        for existing in items:
            if existing.id == item.id and existing.status == "open":
                return existing
        items = [i for i in items if i.id != item.id]
        items.append(item)
        _save(agent, items)
    return item


def get(agent: Agent, wanted: str) -> Item:
    for item in load(agent):
        if item.id == wanted:
            return item
    raise WorkspaceError(
        f"no contradiction {wanted} in {agent.id}; `memclaw inbox {agent.id}` lists them"
    )


def close(agent: Agent, wanted: str, keep: str, when: str) -> Item:
    """Mark ``wanted`` resolved with ``keep``; the caller applied the choice to the files."""
    with agent.lock():
        items = load(agent)
        for index, item in enumerate(items):
            if item.id == wanted:
                items[index] = replace(item, status="resolved", keep=keep, resolved=when)
                _save(agent, items)
                return items[index]
    raise WorkspaceError(f"no contradiction {wanted} in {agent.id}")


def close_about(agent: Agent, facts: set[str], when: str, why: str) -> list[str]:
    """Close the open items whose old fact a correction just replaced; their ids."""
    with agent.lock():
        items = load(agent)
        closed = []
        for index, item in enumerate(items):
            if item.status == "open" and item.old_fact in facts:
                extra = {**item.extra, "closed_by": why}
                items[index] = replace(
                    item, status="resolved", keep="new", resolved=when, extra=extra
                )
                closed.append(item.id)
        if closed:
            _save(agent, items)
    return closed


def drop_about(agent: Agent, facts: set[str]) -> list[str]:
    """Remove every item (open or not) naming one of ``facts``: for ``forget``, no text stays."""
    with agent.lock():
        return remove(agent, lambda i: i.old_fact in facts or i.new_fact in facts)


def remove(agent: Agent, gone: Callable[[Item], bool]) -> list[str]:
    """Remove the items ``gone`` picks; the caller holds the agent lock (``forget`` does)."""
    items = load(agent)
    dropped = [i.id for i in items if gone(i)]
    if dropped:
        _save(agent, [i for i in items if i.id not in dropped])
    return dropped
