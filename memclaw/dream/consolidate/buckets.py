"""Consolidation run per bucket: which buckets are due, the plan of each, and its write.

A model's merge is planned without the lock and written only if no entries file
changed meanwhile; every run is logged in the ledger's ``consolidate`` stream.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.dream.consolidate.merging import (
    EntriesGrewError,
    merge_entries_model,
    merge_entries_offline,
)
from memclaw.errors import LockBusyError, ModelAnswerError
from memclaw.workspace.atomic import file_lock
from memclaw.workspace.entries import (
    ENTRIES_DIR,
    Entry,
    entry_files,
    parse_entries,
    splice_entries,
)
from memclaw.workspace.logs import append_log, read_log
from memclaw.workspace.owners import OwnerKey
from memclaw.workspace.safeguards import journal
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.llm import ChatModel
    from memclaw.workspace.agent import Agent

LOG = "consolidate"


@dataclass
class Bucket:
    owner: OwnerKey | None
    before: int
    after: int
    status: str  # updated, unchanged, small, discarded, skipped, failed
    reason: str = ""
    offline: bool = False  # merged offline: the model's answer was not the JSON asked for

    def to_dict(self) -> dict[str, Any]:
        return {
            "owner": self.owner,
            "before": self.before,
            "after": self.after,
            "status": self.status,
            "reason": self.reason,
            "offline": self.offline,
        }


@dataclass
class ConsolidateResult:
    agent: str
    engine: str
    buckets: list[Bucket] = field(default_factory=list)
    deferred: list[OwnerKey] = field(default_factory=list)
    skipped: bool = False
    reason: str = ""

    @property
    def owners_consolidated(self) -> int:
        return sum(1 for b in self.buckets if b.owner and b.status in ("updated", "unchanged"))

    @property
    def buckets_updated(self) -> int:
        return sum(1 for b in self.buckets if b.status == "updated")

    @property
    def entries_before(self) -> int:
        return sum(b.before for b in self.buckets)

    @property
    def entries_after(self) -> int:
        return sum(b.after for b in self.buckets)

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "engine": self.engine,
            "skipped": self.skipped,
            "reason": self.reason,
            "owners_consolidated": self.owners_consolidated,
            "buckets_updated": self.buckets_updated,
            "entries_before": self.entries_before,
            "entries_after": self.entries_after,
            "deferred_owners": self.deferred,
            "buckets": [b.to_dict() for b in self.buckets],
        }


def _bucket_entries(scope: Scope) -> dict[str, list[Entry]]:
    files: dict[str, list[Entry]] = {}
    for path in entry_files(scope.folder):
        rel = f"{ENTRIES_DIR}/{path.name}"
        files[rel] = parse_entries(scope.read(rel), path.stem)
    return files


def _persons(scope: Scope, entries: list[Entry]) -> frozenset[str]:
    """Ids of the entries a person stated in their own words (see ``facts.store``)."""
    from memclaw.facts.ids import fact_id
    from memclaw.facts.store import stated_by_person

    ids = {e.id: fact_id(" ".join(e.text.split()), scope.prefix) for e in entries}
    theirs = stated_by_person(scope.agent, ids.values())
    return frozenset(eid for eid, fid in ids.items() if fid in theirs)


def _immutable(scope: Scope, entries: list[Entry]) -> frozenset[str]:
    """Ids of the entries whose category the ``retention`` setting makes immutable."""
    settings = scope.agent.settings
    return frozenset(e.id for e in entries if settings.immutable(e.category))


def _unexpired(scope: Scope, entries: list[Entry]) -> list[Entry]:
    """``entries`` without those older than their category's ttl_days (history keeps them).

    Age as the ledger counts it (the card and ``facts`` read the same): from when the fact
    was last stated, restated or confirmed, not from when its entry was last written.
    """
    from memclaw.facts.ids import fact_id
    from memclaw.facts.ledger import facts_of, retention

    if not scope.agent.settings.retention:
        return entries
    facts = {f.id: f for f in facts_of(scope)}
    kept = []
    for entry in entries:
        fact = facts.get(fact_id(" ".join(entry.text.split()), scope.prefix))
        if fact is None or entry.sort_date == date.min or not retention(scope, fact)[0]:
            kept.append(entry)
    return kept


def _plan(
    scope: Scope, model: ChatModel | None, today: date, files: dict[str, list[Entry]]
) -> list[Entry] | Bucket:
    """The merged entries of one bucket, or the Bucket saying why nothing is to be written."""
    from memclaw.gates import contains_secret

    owner = scope.owner
    everything = [e for entries in files.values() for e in entries]
    before = len(everything)
    if before < scope.agent.settings.consolidate_min_entries:
        return Bucket(owner, before, before, "small")
    fixed = _persons(scope, everything) | _immutable(scope, everything)
    original, everything = everything, _unexpired(scope, everything)
    if model is not None:
        try:
            merged = merge_entries_model(model, everything, today, fixed)
        except EntriesGrewError as exc:
            return Bucket(owner, before, before, "discarded", f"result grew: {exc}")
    else:
        merged = merge_entries_offline(everything, fixed)
    if len(merged) > before:
        return Bucket(owner, before, before, "discarded", f"{len(merged)} entries > {before}")
    if any(contains_secret(e.text) for e in merged):
        return Bucket(owner, before, before, "discarded", "the result held a credential")
    if merged == original:
        return Bucket(owner, before, before, "unchanged")
    return merged


def _consolidate_bucket(scope: Scope, model: ChatModel | None, today: date) -> Bucket:
    files = _bucket_entries(scope)
    before = sum(len(entries) for entries in files.values())
    # A model may think for minutes: its merge is planned without the lock and
    # written only if no entries file changed meanwhile. The offline merge is
    # quick, so it reads, merges and writes under one hold.
    planned = _plan(scope, model, today, files) if model is not None else None
    if isinstance(planned, Bucket):
        return planned
    with journal.change(scope.agent, "consolidate"), scope.editing() as edit:
        current = _bucket_entries(scope)
        if planned is None:
            files, before = current, sum(len(entries) for entries in current.values())
            planned = _plan(scope, None, today, files)
            if isinstance(planned, Bucket):
                return planned
        elif current != files:
            reason = "the entries changed during consolidation; run it again"
            return Bucket(scope.owner, before, before, "skipped", reason)
        where = {e.id: rel for rel, entries in files.items() for e in entries}
        for rel, entries in files.items():
            kept = [e for e in planned if where[e.id] == rel]
            if kept != entries:
                # Spliced in: a person's notes around the blocks stay; history keeps the old file.
                new = splice_entries(edit.read(rel), kept, rel, Path(rel).stem)
                edit.write(rel, new, introduced="\n".join(e.text for e in kept))
    return Bucket(scope.owner, before, len(planned), "updated")


def _owner_order(agent: Agent, owners: list[OwnerKey]) -> list[OwnerKey]:
    """Owners never consolidated first, then those consolidated longest ago."""
    last: dict[str, str] = {}
    for record in read_log(agent, LOG):
        for owner in record.get("owners", []):
            last[owner] = str(record.get("time", ""))
    return sorted(owners, key=lambda o: (o in last, last.get(o, ""), o))


def consolidate_agent(
    agent: Agent, *, model: ChatModel | None = None, trigger: str = "manual"
) -> ConsolidateResult:
    """Consolidate every bucket of ``agent`` that is due; see the module doc."""
    settings = agent.settings
    if model is None:
        from memclaw.llm import open_model_if_configured

        model = open_model_if_configured(settings)
    result = ConsolidateResult(agent.id, f"model {model.name}" if model else "offline")
    if not settings.consolidate_enabled:
        result.skipped, result.reason = True, "consolidation is off (consolidate_enabled=false)"
        return result
    today = agent.now().date()
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(file_lock(agent.meta_dir / "consolidate.lock", wait=0))
        except LockBusyError:
            result.skipped, result.reason = True, "another consolidation of this agent is running"
            append_log(agent, LOG, {"trigger": trigger, "status": "skipped", "owners": []})
            return result
        team = Scope(agent)
        personal = [s for s in map(team.for_owner, agent.owners()) if s.personal]
        eligible = [
            s.owner
            for s in personal
            if s.owner
            and sum(len(v) for v in _bucket_entries(s).values()) >= settings.consolidate_min_entries
        ]
        ordered = _owner_order(agent, eligible)
        limit = settings.consolidate_max_owners
        chosen = ordered[:limit] if limit > 0 else ordered
        result.deferred = ordered[len(chosen) :]
        for scope in [team, *map(team.for_owner, chosen)]:
            try:
                result.buckets.append(_consolidate_bucket(scope, model, today))
            except ModelAnswerError:
                # An answer not in the shape asked for: the offline merge does the bucket
                # (what the model said is not repeated: it may hold anything).
                offline = _consolidate_bucket(scope, None, today)
                result.buckets.append(replace(offline, offline=True))
        append_log(
            agent,
            LOG,
            {
                "trigger": trigger,
                "status": "done",
                "engine": result.engine,
                "owners": chosen,
                "deferred": len(result.deferred),
                "buckets": [b.to_dict() for b in result.buckets if b.status != "small"],
            },
        )
    return result
