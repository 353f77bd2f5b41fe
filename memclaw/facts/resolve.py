"""Resolving a contradiction: keep the new statement, the old fact, or both, everywhere."""

from __future__ import annotations

from dataclasses import dataclass, field
from difflib import get_close_matches
from typing import TYPE_CHECKING

from memclaw.errors import UsageError, WorkspaceError
from memclaw.facts import inbox, store
from memclaw.facts.ids import fact_id
from memclaw.facts.ledger import facts_of
from memclaw.facts.model import Event, EventKind, Kind
from memclaw.facts.rewrite import add_entry, restate
from memclaw.judgement import Relation, judge, merged
from memclaw.workspace.owners import owner_from_dirname
from memclaw.workspace.safeguards import journal

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope


@dataclass(frozen=True)
class Resolution:
    item: inbox.Item
    changed: list[str] = field(default_factory=list)


def resolve(scope: Scope, item_id: str, keep: str) -> Resolution:
    """Apply ``keep`` (new, old or both) to every file the old fact lives in, close the item."""
    if keep not in inbox.KEEP_CHOICES:
        close = get_close_matches(keep.lower(), list(inbox.KEEP_CHOICES), n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UsageError(
            f"--keep must be one of {', '.join(inbox.KEEP_CHOICES)}, not {keep!r}{hint}"
        )
    agent = scope.agent
    item = inbox.get(agent, item_id)
    if item.status != "open":
        raise WorkspaceError(f"contradiction {item_id} was already resolved (kept {item.keep})")
    if item.prefix != scope.prefix:
        owner = owner_from_dirname(item.prefix.split("/")[1]) if item.prefix else None
        hint = f"add --owner {owner}" if owner else "leave out --owner"
        raise WorkspaceError(f"contradiction {item_id} belongs to another owner's memory: {hint}")
    # The files, the evidence and the item's closing are one change: undo takes back all.
    with journal.change(agent, "inbox", prefix=scope.prefix, item=item_id, keep=keep):
        return _apply(scope, item, keep)


def _apply(scope: Scope, item: inbox.Item, keep: str) -> Resolution:
    agent = scope.agent
    now = agent.now().isoformat(timespec="seconds")
    old = next((f for f in facts_of(scope, durable_only=True) if f.id == item.old_fact), None)
    changed: list[str] = []
    if keep != "old":
        line = item.new
        if old is not None:
            # Kept new: the line of both, with what the old one said that the new one does
            # not take back ("Maya moved to Porto", the cat Miso still hers).
            line = merged(old.statement, item.new).text if keep == "new" else item.new
            changed = restate(scope, old, line, keep_old=keep == "both")
        if not changed:  # the old fact is gone from the files meanwhile: keep the new one anyway
            line, changed = item.new, [add_entry(scope, item.new, item.category)]
        stated = sorted({item.new_fact, fact_id(line, scope.prefix)})
        store.record(agent, stated, Event(EventKind.STATED, now, "inbox"))
    if keep == "new":
        store.record(agent, [item.old_fact], Event(EventKind.SUPERSEDED, now, "inbox"))
        changed += _outdated_copies(scope, item, now)
    else:
        store.record(agent, [item.old_fact], Event(EventKind.CONFIRMED, now, "inbox"))
    # One file may hold the old fact and a copy of it: it is listed once.
    return Resolution(inbox.close(agent, item.id, keep, now), list(dict.fromkeys(changed)))


def _outdated_copies(scope: Scope, item: inbox.Item, now: str) -> list[str]:
    """The machine's own lines the kept statement also replaces (an extraction's "Maya is
    based in Lisbon" beside the person's line the item was about): they follow the
    person's choice. A line a person wrote is theirs, and stays."""
    changed = []
    for fact in facts_of(scope, durable_only=True):
        if fact.id in (item.old_fact, item.new_fact) or fact.superseded:
            continue
        if any(p.author == "person" and p.kind is not Kind.DAILY for p in fact.places):
            continue
        verdict = judge(fact.statement, item.new)
        if verdict.relation is Relation.UPDATE and verdict.sure:
            changed += restate(scope, fact, merged(fact.statement, item.new, verdict).text)
            store.record(scope.agent, [fact.id], Event(EventKind.SUPERSEDED, now, "inbox"))
    return changed
