"""Structured consolidation: merge near-duplicate and stale memory entries.

Runs per bucket: the agent's TEAM entries, then each owner's PERSONAL entries.
Buckets below ``consolidate_min_entries`` are skipped; at most
``consolidate_max_owners`` owner buckets are handled per run, those consolidated
longest ago first, the rest next time. The number of entries may only go down:
a result with more entries than before is discarded and logged.

Beyond duplicates, two merges follow the extraction skill's contract: a newer
version of a fact about one named thing absorbs what only the older one said
(the older goes), and short compatible facts about one subject become one
sentence ("User has a dog", "Dog's name is Poppy", "User walks the dog daily").
Neither ever rewords an entry a person stated (``remember`` in their words):
offline such entries are left out of both merges; a model is told they are
fixed, and an answer that changed or dropped one gets it back as it was.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.errors import LockBusyError, ModelAnswerError
from memclaw.text.combine import absorb, join, short, updates
from memclaw.text.likeness import Fingerprint, near_duplicate, supersedes
from memclaw.workspace.atomic import file_lock
from memclaw.workspace.entries import (
    CATEGORIES,
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
SYSTEM = """\
You tidy a list of memory entries: short standalone facts an assistant keeps about \
the people it works with. Merge entries that say the same thing into one, and drop \
an entry when a newer one replaces it (for example a changed date or a moved \
deadline). When a newer entry updates an older one about the same thing (a trip \
first planned, later booked), keep one entry: the newer wording plus every detail \
only the older one had. When several short entries describe one subject and fit \
together ("has a dog", "the dog is called Poppy", "walks the dog daily"), write \
them as one self-contained sentence. Keep every other entry unchanged.

Rules:
- The result must not have more entries than the input.
- Each entry you return keeps the id of one of the entries it came from.
- An entry marked "fixed" is in the person's own words: return it exactly as given, \
never merged into another, never reworded.
- An entry is one sentence of roughly 15 to 50 words, or shorter when that is natural.
- Name things; no "he", "she", "it" or "they" for something the entry does not name.
- Do not invent facts. Keep dates and names exact. Keep the user's language.
- Never include passwords, keys or tokens.

Answer with one JSON object and nothing else:
{"entries": [{"id": "an id from the input", "text": "the fact"}, ...]}"""


class EntriesGrewError(ModelAnswerError):
    """The model answered with more entries than it was given."""


@dataclass
class Bucket:
    owner: OwnerKey | None
    before: int
    after: int
    status: str  # updated, unchanged, small, discarded, skipped, failed
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "owner": self.owner,
            "before": self.before,
            "after": self.after,
            "status": self.status,
            "reason": self.reason,
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


def merge_entries_offline(entries: list[Entry], fixed: frozenset[str] = frozenset()) -> list[Entry]:
    """Deterministic merge: near-duplicates become their most complete member, a
    superseded entry (same subject, older value) gives way to the newer one, a newer
    version absorbs the older's details, and short facts about one subject are joined.
    Entries whose id is in ``fixed`` (a person's words) are never reworded."""
    ordered = sorted(entries, key=lambda e: (e.sort_date, e.id), reverse=True)  # newest first
    prints = {e.id: Fingerprint.of(e.text) for e in ordered}
    groups: list[list[Entry]] = []
    for entry in ordered:
        fp = prints[entry.id]
        home = next(
            (
                g
                for g in groups
                if entry.id not in fixed
                and g[0].id not in fixed
                and g[0].category == entry.category
                and any(
                    near_duplicate(fp, prints[o.id], 0.6) or supersedes(prints[o.id], fp) for o in g
                )
            ),
            None,
        )
        if home is None:
            groups.append([entry])
        else:
            home.append(entry)
    merged = []
    for group in groups:
        newest = group[0]
        if len(group) == 1:
            merged.append(newest)
            continue
        fresh = [o for o in group if not supersedes(prints[newest.id], prints[o.id])]
        fullest = max(fresh, key=lambda o: (len(prints[o.id].tokens), o.sort_date))
        created = [o.created for o in group if o.created]
        extra = dict(newest.extra)
        extra["merged"] = ", ".join(sorted(o.id for o in group if o.id != newest.id))
        merged.append(
            replace(
                newest, text=fullest.text, created=min(created) if created else None, extra=extra
            )
        )
    order = {e.id: i for i, e in enumerate(entries)}
    return _combine(sorted(merged, key=lambda e: order[e.id]), fixed)


def _combine(entries: list[Entry], fixed: frozenset[str]) -> list[Entry]:
    """Newer versions absorb older ones, then short facts about one subject join (in order)."""
    from memclaw.facts.conflict import judge

    def fits(texts: list[str]) -> bool:  # no two of them disagree
        return not any(judge(a, b).disagrees for i, a in enumerate(texts) for b in texts[i + 1 :])

    newest = sorted(
        (e for e in entries if e.id not in fixed), key=lambda e: (e.sort_date, e.id), reverse=True
    )
    text = {e.id: e.text for e in entries}
    into: dict[str, list[Entry]] = {}  # survivor id -> the entries it took in
    gone: set[str] = set()
    for n, newer in enumerate(newest):
        for older in newest[n + 1 :]:
            if newer.id in gone or older.id in gone or older.category != newer.category:
                continue
            if not updates(text[newer.id], older.text) or not fits([older.text, text[newer.id]]):
                continue
            if (whole := absorb(text[newer.id], older.text)) is not None:
                text[newer.id] = whole
                into.setdefault(newer.id, []).append(older)
                gone.add(older.id)
    left = [e for e in newest if e.id not in gone and short(text[e.id])]
    for n, lead in enumerate(left):
        if lead.id in gone:
            continue
        group = [lead]
        for other in left[n + 1 :]:
            texts = [text[e.id] for e in reversed([*group, other])]  # oldest first reads best
            if other.category != lead.category:  # a joined fact takes the lead's category
                continue
            if other.id not in gone and join(texts) is not None and fits(texts):
                group.append(other)
        if len(group) > 1:
            text[lead.id] = join([text[e.id] for e in reversed(group)]) or text[lead.id]
            into.setdefault(lead.id, []).extend(group[1:])
            gone.update(e.id for e in group[1:])
    result = []
    for entry in entries:
        if entry.id in gone:
            continue
        taken = into.get(entry.id)
        if taken:
            created = [e.created for e in [entry, *taken] if e.created]
            extra = dict(entry.extra)
            ids = {*extra.get("merged", "").split(", "), *(e.id for e in taken)} - {""}
            extra["merged"] = ", ".join(sorted(ids))
            entry = replace(
                entry, text=text[entry.id], created=min(created) if created else None, extra=extra
            )
        result.append(entry)
    return result


def merge_entries_model(
    model: ChatModel, entries: list[Entry], today: date, fixed: frozenset[str] = frozenset()
) -> list[Entry]:
    """Ask the model for the merged list; ids must come from the input, ``fixed`` stay as is."""
    import json

    listing = [
        {"id": e.id, "category": e.category, "text": e.text, "updated": str(e.sort_date)}
        | ({"fixed": True} if e.id in fixed else {})
        for e in entries
    ]
    answer = model.chat_json(
        [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": json.dumps(listing, ensure_ascii=False, indent=1)},
        ],
        required={"entries": list},
    )
    if len(answer["entries"]) > len(entries):
        raise EntriesGrewError(f"{len(answer['entries'])} entries > {len(entries)}")
    by_id = {e.id: e for e in entries}
    result: list[Entry] = []
    seen: set[str] = set()
    for item in answer["entries"]:
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            raise ModelAnswerError("consolidation answer: each entry needs an id and a text")
        ident, text = item.get("id"), item["text"].strip()
        if ident not in by_id or ident in seen or not text:
            raise ModelAnswerError(f"consolidation answer: unknown or repeated id {ident!r}")
        seen.add(ident)
        original = by_id[ident]
        same = text == original.text or ident in fixed  # a person's words come back as they were
        result.append(original if same else original.touched(text, today))
    # A fixed entry the model merged away is kept: only its author may let it go.
    result += [e for e in entries if e.id in fixed and e.id not in seen]
    return result


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
            except ModelAnswerError as exc:
                count = sum(len(v) for v in _bucket_entries(scope).values())
                result.buckets.append(Bucket(scope.owner, count, count, "failed", str(exc)))
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


__all__ = ["CATEGORIES", "ConsolidateResult", "consolidate_agent", "merge_entries_offline"]
