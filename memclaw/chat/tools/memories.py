"""The memory tools: search, list, get, store and forget entries, and read known facts.

They run the same library functions as ``memclaw memories``, so the same rules
hold: secrets refused, another conversation's short-term memory left out.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from memclaw.chat.session import entry_session_id
from memclaw.chat.tools.base import ScopedTools, arg, need, short
from memclaw.errors import SecretDetectedError, UsageError
from memclaw.text.plural import plural
from memclaw.workspace.entries import ENTRIES_DIR

if TYPE_CHECKING:
    from memclaw.workspace.entries import Entry

MAX_LISTED = 50


def _entry(entry: Entry, scope: str) -> dict[str, Any]:
    return {
        "id": entry.id,
        "text": entry.text,
        "category": entry.category,
        "updated": entry.sort_date.isoformat(),
        "scope": scope,
        **({"session": entry.extra["session"]} if "session" in entry.extra else {}),
    }


# How a store's outcome reads to the model and the person.
_FATES = {"unchanged": "already known", "held": "held in the inbox", "skipped": "skipped"}


class MemoryTools(ScopedTools):
    """The ``memory_*`` tools over entries and facts."""

    def _memory_facts(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.facts.ledger import known_facts

        limit = min(max(int(arg(args, "limit", int, 20)), 1), 50)
        floor = args.get("minTrust")
        if floor is not None and (isinstance(floor, bool) or not isinstance(floor, int | float)):
            raise UsageError("argument 'minTrust' must be a number from 0 to 1")
        scopes = [scope for scope, _label in self._scopes()]
        found = known_facts(scopes, arg(args, "query"), min_trust=floor)
        return (
            {"count": len(found), "facts": found[:limit]},
            f"→ {plural(len(found), 'fact')}",
            None,
        )

    def entries(self, kind: str = "all", category: str | None = None) -> list[dict[str, Any]]:
        from memclaw.entries.lookup import list_memories

        found = []
        for scope, label in self._scopes():
            for entry in list_memories(scope, kind, category=category):
                session = entry.extra.get("session")
                if session and session != entry_session_id(self.session_id):
                    continue  # another conversation's short-term memory
                found.append(_entry(entry, label))
        found.sort(key=lambda e: (e["updated"], e["id"]), reverse=True)
        return found

    def _memory_search(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.index import search
        from memclaw.index.blocks import SECTION_SEP

        query = need(args, "query")
        scope = arg(args, "scope") or "all"
        limit = max(int(arg(args, "limit", int, 5)), 1)
        entries = {e["id"]: e for e in self.entries(scope)}
        hits = search(
            self.agent.workspace, query, agents=[self.agent.id], owner=self.owner, limit=50
        )
        chosen: list[dict[str, Any]] = []
        for hit in hits:
            if f"{ENTRIES_DIR}/" not in hit.file or hit.agent != self.agent.id:
                continue
            entry_id = hit.section.split(SECTION_SEP)[-1].strip()
            entry = entries.get(entry_id)
            if entry is None:
                entry = next((e for e in entries.values() if hit.text.strip() in e["text"]), None)
            if entry is not None and entry not in chosen:
                chosen.append(entry)
            if len(chosen) >= limit:
                break
        # The same search as memory_files_search: what chat, extraction and dreams wrote to
        # the files is found too, not only the entries.
        lines = self._hit_rows(hits[:limit])
        said = f'"{short(query)}" → {plural(len(chosen), "memory")}, {plural(len(lines), "line")}'
        return {"memories": chosen, "hits": lines}, said, None

    def _memory_list(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        found = self.entries(arg(args, "scope") or "all", arg(args, "category"))
        shown = found[:MAX_LISTED]
        data: dict[str, Any] = {"count": len(found), "memories": shown}
        if len(found) > len(shown):
            data["note"] = f"showing the newest {len(shown)}; use memory_search to narrow"
        return data, f"→ {plural(len(found), 'memory')}", None

    def _memory_get(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        memory_id = need(args, "id")
        for entry in self.entries():
            if entry["id"] == memory_id:
                return entry, f"{memory_id} → found", None
        raise UsageError(f"no memory {memory_id!r}; memory_search or memory_list shows ids")

    def _memory_store(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        batch = arg(args, "facts", list)
        if batch is None:
            return self._store_one(need(args, "text"), arg(args, "category"), args)
        if args.get("text"):
            raise UsageError("give either text or facts, not both")
        if not batch:
            raise UsageError("argument 'facts' is empty: give at least one fact")
        if not all(isinstance(f, dict) for f in batch):
            raise UsageError("each of 'facts' must be an object with text and category")
        wanted = [(need(f, "text"), arg(f, "category")) for f in batch]
        from memclaw.gates import find_secrets
        from memclaw.workspace.entries import categories
        from memclaw.workspace.safeguards import journal

        # All or nothing for what is refused outright: a secret anywhere stores none of them.
        known = categories(self.agent.settings)
        for number, (text, category) in enumerate(wanted, 1):
            if category is not None and category not in known:
                raise UsageError(
                    f"fact {number}: unknown category {category!r}; use one of {', '.join(known)}"
                )
            if found := find_secrets(text):
                raise SecretDetectedError(
                    f"refusing to remember: fact {number} holds what looks like a secret "
                    f"({found[0].kind}); nothing of this batch was stored"
                )
        results, operations = [], []
        # One change: `memclaw undo` takes the whole batch back, as it came in one call.
        with journal.change(self.agent, "remember", prefix=self.scope.prefix):
            for text, category in wanted:
                data, _, operation = self._store_one(text, category, args)
                results.append(data)
                if operation is not None:
                    operations.append(operation)
        # Every fact's fate, said truthfully: "→ 2 added, 1 already known (of 3)".
        fates = Counter(str(r["action"]) for r in results)
        told = ", ".join(f"{n} {_FATES.get(action, action)}" for action, n in fates.items())
        summary = f"→ {told} (of {len(results)})"
        operation = {"op": "store", "facts": operations} if operations else None
        return {"results": results}, summary, operation

    def _store_one(
        self, text: str, category: str | None, args: dict[str, Any]
    ) -> tuple[Any, str, Any]:
        from memclaw.entries.memories import remember

        long_term = bool(arg(args, "longTerm", bool, True))
        result = remember(
            self.scope,
            text,
            category=category,
            session_id=None if long_term else entry_session_id(self.session_id),
            source="tool",
            by_person=False,
            model=self.judge,
        )
        if result.entry is None:
            summary = f"→ {_FATES.get(str(result.action), str(result.action))}"
            return {"action": str(result.action), "reason": result.reason}, summary, None
        operation = {
            "op": "store",
            "action": str(result.action),
            "id": result.entry.id,
            "text": result.entry.text,
            "category": result.entry.category,
            "long_term": long_term,
        }
        if result.previous is not None and result.previous.id != result.entry.id:
            operation["replaces"] = result.previous.id
        data = {"action": str(result.action), "id": result.entry.id}
        if result.reason:
            data["reason"] = result.reason
        fate = _FATES.get(str(result.action), str(result.action))
        return data, f"→ {fate} {result.entry.id}", operation

    def _memory_forget(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.entries.forgetting import forget
        from memclaw.entries.lookup import list_memories, match_entries

        memory_id, query = arg(args, "id"), arg(args, "query")
        if not memory_id and not query:
            raise UsageError("give the id of a memory, or a query")
        if not memory_id:
            # Nobody can be asked here: words that fit several memories forget none of them,
            # and the model is told which ids fit, to choose one by id.
            fit = match_entries(list_memories(self.scope), query)
            if len(fit) > 1:
                ids = [e.id for e in fit]
                many = plural(len(ids), "memory", "memories")
                note = f"{many} fit these words: nothing forgotten; forget one by id"
                return {"forgotten": [], "fit": ids, "note": note}, f"→ {len(ids)} fit", None
            memory_id = fit[0].id if fit else ""
            if not memory_id:
                return {"forgotten": []}, "→ forgot 0", None
        # Only this chat's own scope: forgetting a team entry is for `memclaw memories forget`.
        gone = forget(self.scope, id=memory_id)
        ids = [e.id for e in gone]
        operation = {"op": "forget", "ids": ids} if ids else None
        return {"forgotten": ids}, f"→ forgot {len(ids)}", operation
