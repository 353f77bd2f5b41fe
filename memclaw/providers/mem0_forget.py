"""Forget in Mem0 too: what ``memclaw forget`` removes locally goes from Mem0's copy.

After a forget, Mem0 is searched by the forgotten words (and the forgotten
facts' statements) as the same user_id and agent_id the sync writes as; each
answer that says the forgotten fact (the forget's own matcher, or the
forgotten fingerprints) is deleted by its id. Search answers that merely
resemble the query are left alone: a forget never takes an unrelated memory.

The ledger's ``mem0-forgotten`` document keeps the ids deleted (ids only, never
text) and the owners whose Mem0 delete could not finish (Mem0 down). The next
``memclaw mem0 sync`` finishes those first: it reads that owner's Mem0 memories
and deletes every one the fingerprints recognise, so no forgotten words need
to be kept anywhere. Meanwhile, and for good, Mem0 recall and ``mem0 search``
pass through :func:`visible`: a forgotten fact never comes back from Mem0, even
when a delete failed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memclaw.extract.forgotten import forgotten_checker
from memclaw.gates import redact
from memclaw.providers.mem0_api import Mem0Backend, Mem0Error, Mem0Memory, mem0_configured
from memclaw.providers.mem0_connect import open_mem0
from memclaw.workspace import ledger
from memclaw.workspace.logs import append_log
from memclaw.workspace.owners import OwnerKey
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent

STATE = "mem0-forgotten"  # the ledger's document of what a forget deleted in Mem0
LOG = "mem0"
# How many answers one search asks for: enough to reach every copy of one fact.
SEARCH_TOP_K = 100
# A sweep after Mem0 was down reads the owner's memories, up to this many.
SWEEP_LIMIT = 1000


@dataclass
class Mem0Forget:
    """What a forget did in Mem0: ids deleted, or why it could not (retried by mem0 sync)."""

    deleted: list[str] = field(default_factory=list)
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"deleted": len(self.deleted), "error": self.error}

    def line(self, agent_id: str) -> str:
        """One line for the person, for the CLI, the morning card and the chat."""
        if self.error is None:
            return f"also deleted {len(self.deleted)} Mem0 memories"
        return (
            f"Mem0 not cleaned ({self.error}); it is kept out of Mem0 recall meanwhile, "
            f"and `memclaw mem0 sync {agent_id}` deletes it there once Mem0 answers"
        )


# --- the record ---------------------------------------------------------------------------


def _user(scope: Scope) -> str:
    # Keyed as Mem0 keys them (its user_id), so the record holds for any owner_isolation.
    return str(scope.owner)


def _read(agent: Agent) -> dict[str, Any]:
    return _parsed(ledger.load(agent.meta_dir, STATE)[0])


def _parsed(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        # None or damaged: only costs a sweep that finds nothing; recall filters by fingerprint
        return {"deleted": {}, "pending": []}
    deleted = data.get("deleted")
    pending = data.get("pending")
    return {
        "deleted": {
            str(k): [str(i) for i in v]
            for k, v in (deleted.items() if isinstance(deleted, dict) else [])
            if isinstance(v, list)
        },
        "pending": [str(p) for p in pending] if isinstance(pending, list) else [],
    }


def _update(agent: Agent, change: Callable[[dict[str, Any]], None]) -> None:
    def changed(document: Any) -> dict[str, Any]:
        data = _parsed(document)
        change(data)
        return data

    ledger.update(agent.meta_dir, STATE, changed)


def _record_deleted(scope: Scope, memory_id: str) -> None:
    def add(data: dict[str, Any]) -> None:
        ids = data["deleted"].setdefault(_user(scope), [])
        if memory_id not in ids:
            ids.append(memory_id)

    _update(scope.agent, add)


def _set_pending(scope: Scope, pending: bool) -> None:
    def change(data: dict[str, Any]) -> None:
        rest = [p for p in data["pending"] if p != _user(scope)]
        data["pending"] = [*rest, _user(scope)] if pending else rest

    _update(scope.agent, change)


def deleted_ids(scope: Scope) -> set[str]:
    return set(_read(scope.agent)["deleted"].get(_user(scope), []))


def pending_scopes(agent: Agent) -> list[Scope]:
    """The owners whose Mem0 delete is still to finish."""
    return [Scope(agent, OwnerKey(user)) for user in _read(agent)["pending"]]


# --- recall ------------------------------------------------------------------------------


def visible(scope: Scope, found: Iterable[Mem0Memory]) -> list[Mem0Memory]:
    """``found`` without what was deleted or forgotten in ``scope``."""
    gone = deleted_ids(scope)
    checks = [forgotten_checker(scope)]
    if scope.personal:
        # What the team forgot is gone for every owner too; Mem0 keeps it per owner.
        checks.append(forgotten_checker(scope.for_owner(None)))
    return [m for m in found if m.id not in gone and not any(check(m.text) for check in checks)]


def says_forgotten(scope: Scope, messages: Iterable[dict[str, str]]) -> bool:
    """Whether a turn about to be sent to Mem0 restates something forgotten in ``scope``."""
    check = forgotten_checker(scope)
    return any(check(m["content"]) for m in messages)


# --- deleting ----------------------------------------------------------------------------


def _delete_matching(
    scope: Scope, client: Mem0Backend, found: Iterable[Mem0Memory], says: Callable[[str], bool]
) -> list[str]:
    done: list[str] = []
    for memory in found:
        if memory.id and memory.id not in done and says(memory.text):
            client.delete(memory.id)
            _record_deleted(scope, memory.id)
            done.append(memory.id)
    return done


def forget_in_mem0(
    scope: Scope, queries: Iterable[str], says: Callable[[str], bool]
) -> Mem0Forget | None:
    """Delete from Mem0 what ``says`` recognises, found by searching ``queries``.

    None when Mem0 is not configured or the scope has no owner (nothing was sent
    for it). Never raises for Mem0: a failure is the report's ``error``, and the
    owner is left pending for the next ``memclaw mem0 sync``.
    """
    if not mem0_configured(scope.agent.settings) or scope.owner is None:
        return None
    report = Mem0Forget()
    forgotten = forgotten_checker(scope)

    def matches(text: str) -> bool:
        return says(text) or forgotten(text)

    try:
        client = open_mem0(scope.agent)
        user, agent_id = str(scope.owner), scope.agent.id
        for query in dict.fromkeys(q.strip() for q in queries if q.strip()):
            found = client.search(redact(query), user, agent_id, SEARCH_TOP_K)
            report.deleted += _delete_matching(
                scope, client, (m for m in found if m.id not in report.deleted), matches
            )
        # In open-source mode Mem0 also keeps texts beside its memories (its history).
        client.scrub(user, agent_id, matches)
    except Mem0Error as exc:
        report.error = str(exc)
        _set_pending(scope, True)
    _log(scope, report)
    return report


def finish_pending(agent: Agent, client: Mem0Backend, owner: str | None = None) -> int:
    """Finish the deletes a down Mem0 left; how many memories went. Raises Mem0Error."""
    total = 0
    for scope in pending_scopes(agent):
        if scope.owner is None or (owner is not None and scope.owner != owner):
            continue
        found = client.list(str(scope.owner), agent.id, SWEEP_LIMIT)
        total += len(_delete_matching(scope, client, found, forgotten_checker(scope)))
        client.scrub(str(scope.owner), agent.id, forgotten_checker(scope))
        _set_pending(scope, False)
    return total


def _log(scope: Scope, report: Mem0Forget) -> None:
    record = {**scope.log_fields(), "event": "forget", "deleted": report.deleted}
    if report.error:
        record["error"] = report.error
    append_log(scope.agent, LOG, record)
