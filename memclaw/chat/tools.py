"""The tools a chat model may call: workspace files and memory entries.

They run the same library functions as ``memclaw files`` and ``memclaw
memories``, so the same rules hold: markdown files only, no absolute paths or
``..``, secrets refused, ceilings applied. On top of that a chat is fenced to
its owner: another owner's personal folder can be neither listed nor read, and
an owner's writes go to their own folder (:mod:`memclaw.chat.fence`).
A failing tool never ends the chat; the model gets the error as the result.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from memclaw.chat.fence import refuse_personal_lines, write_target
from memclaw.chat.schemas import AGENT_ARG, WRITE_TOOLS, tool_schemas
from memclaw.chat.session import entry_session_id
from memclaw.errors import MemclawError, SecretDetectedError, UnsafePathError, UsageError
from memclaw.gates.redaction import redact_data
from memclaw.providers.base import ProviderTool
from memclaw.text.plural import plural
from memclaw.workspace.entries import ENTRIES_DIR
from memclaw.workspace.owners import OWNERS_DIR, OwnerKey, fold_path_part
from memclaw.workspace.paths import resolve_inside, validate_relpath
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.chat.writes import Screened
    from memclaw.facts.judge import Judge
    from memclaw.index.rank import Hit
    from memclaw.llm import ToolCall
    from memclaw.workspace.agent import Agent
    from memclaw.workspace.entries import Entry

MAX_READ_CHARS = 20000
MAX_LISTED = 50


@dataclass
class ToolRecord:
    """One executed tool call: what the model asked, what it got, how to show it."""

    id: str
    name: str
    arguments: dict[str, Any]
    ok: bool
    result: str
    summary: str
    operation: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "arguments": self.arguments,
            "ok": self.ok,
            "summary": self.summary,
        }


def _provider_tool(tool: ProviderTool, args: dict[str, Any]) -> tuple[Any, str, Any]:
    return tool.run(args), "→ done", None


def _arg(args: dict[str, Any], name: str, kind: type = str, default: Any = None) -> Any:
    value = args.get(name)
    if value is None:
        return default
    if value is not None and not isinstance(value, kind):
        raise UsageError(f"argument {name!r} must be a {kind.__name__}")
    return value


def _need(args: dict[str, Any], name: str) -> str:
    value = _arg(args, name)
    if not value:
        raise UsageError(f"argument {name!r} is required")
    return str(value)


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _entry(entry: Entry, scope: str) -> dict[str, Any]:
    return {
        "id": entry.id,
        "text": entry.text,
        "category": entry.category,
        "updated": entry.sort_date.isoformat(),
        "scope": scope,
        **({"session": entry.extra["session"]} if "session" in entry.extra else {}),
    }


@dataclass
class ToolBox:
    """Runs tool calls for one chat (one agent, one owner, one session)."""

    scope: Scope
    session_id: str
    read_only: bool = False
    schemas: list[Any] = field(default_factory=list)
    # The person's own message of the turn being answered: only it can make a model's
    # change of a person's line a correction (memclaw.chat.writes). Empty over MCP.
    said: str = ""
    # The configured model's second opinion on a write the offline rules are unsure of
    # (memclaw.facts.judge); None: judged offline.
    judge: Judge | None = None

    @property
    def agent(self) -> Agent:
        return self.scope.agent

    @property
    def owner(self) -> OwnerKey | None:
        return self.scope.owner

    def __post_init__(self) -> None:
        self.schemas = tool_schemas(self.scope, read_only=self.read_only)
        self._handlers: dict[str, Callable[[dict[str, Any]], tuple[Any, str, Any]]] = {
            "memory_files_list": self._files_list,
            "memory_files_read": self._files_read,
            "memory_files_write": self._files_write,
            "memory_files_edit": self._files_edit,
            "memory_files_search": self._files_search,
            "memory_search": self._memory_search,
            "memory_list": self._memory_list,
            "memory_store": self._memory_store,
            "memory_get": self._memory_get,
            "memory_facts": self._memory_facts,
            "memory_forget": self._memory_forget,
        }

    def run(self, call: ToolCall) -> ToolRecord:
        """Execute one call; library errors come back as an error result, never raised."""
        handler = self._handlers.get(call.name)
        try:
            if handler is None or (self.read_only and call.name in WRITE_TOOLS):
                raise UsageError(f"there is no tool named {call.name!r} in this chat")
            if call.error is not None:
                raise UsageError(f"{call.error}; call it again with a JSON object of arguments")
            box = self.for_agent(_arg(call.arguments, AGENT_ARG))
            args = {k: v for k, v in call.arguments.items() if k != AGENT_ARG}
            data, summary, operation = box._handlers[call.name](args)
        except MemclawError as exc:
            return ToolRecord(
                call.id,
                call.name,
                call.arguments,
                False,
                f"error: {exc}",
                f"{call.name} → error: {_short(str(exc), 60)}",
            )
        # Tool results are memory text on its way to the model (and into the transcript);
        # a hand-edited file can hold a credential the gate never saw.
        data = redact_data(data)
        result = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
        return ToolRecord(
            call.id, call.name, call.arguments, True, result, f"{call.name} {summary}", operation
        )

    def add_tools(self, tools: list[ProviderTool]) -> None:
        """Offer a memory provider's tools too (read-only chats get none: they may write)."""
        if self.read_only:
            return
        for tool in tools:
            self.schemas.append(tool.schema)
            self._handlers[tool.name] = partial(_provider_tool, tool)

    def for_agent(self, agent_id: str | None) -> ToolBox:
        """The toolbox of another agent of this root, for the same owner and session.

        The owner is carried over as it is, never taken from the model: ``agentId``
        reaches another agent's namespace of this person, never another person's.
        """
        if not agent_id or agent_id == self.agent.id:
            return self
        scope = self.scope.for_agent(agent_id)
        return ToolBox(
            scope, self.session_id, read_only=self.read_only, said=self.said, judge=self.judge
        )

    # --- file tools ---------------------------------------------------------------------

    def check_name(self, name: str) -> str:
        """Refuse paths into another owner's folder (and, with isolation off, any owner's).

        ``owners`` is matched folded (case and NFKC), as a case-insensitive disk
        would match it; the owner folder only by its exact current name, so no
        other spelling (``USER%3Aalice``, ``user%3aalice``) passes as one's own.
        """
        parts = validate_relpath(name).parts
        real = resolve_inside(self.agent.path, name).resolve()
        inner = real.relative_to(self.agent.path.resolve()).parts  # a symlink may lead elsewhere
        mine = self.scope.prefix.rstrip("/").split("/")
        owners = fold_path_part(OWNERS_DIR)
        for path in (parts, inner):
            if (
                path
                and fold_path_part(path[0]) == owners
                and (not mine[0] or list(path[:2]) != mine)
            ):
                raise UnsafePathError(f"{name!r} belongs to another person's memory")
        return "/".join(parts)

    def write_name(self, name: str, new_text: str) -> str:
        """The fenced file a write of ``name`` goes to; refuses personal lines in TEAM files."""
        target = self.check_name(write_target(self.scope, self.check_name(name)))
        refuse_personal_lines(self.scope, target, new_text)
        return target

    def _files_list(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.workspace.files import list_files

        prefix = _arg(args, "prefix") or ""
        listing = list_files(self.agent, prefix)
        files = listing["files"]
        personal = self.scope.prefix
        if personal:
            for info in self.scope.list_files():
                name = personal + info.name
                if name.startswith(prefix):
                    files.append({"name": name, "size": info.size, "enabled": info.enabled})
        return {"count": len(files), "files": files}, f"→ {plural(len(files), 'file')}", None

    def _files_read(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.workspace.files import read_file

        name = self.check_name(_need(args, "filename"))
        found = read_file(self.agent, name)
        content = found["content"]
        if len(content) > MAX_READ_CHARS:
            found["content"] = content[:MAX_READ_CHARS]
            found["note"] = f"cut at {MAX_READ_CHARS} of {len(content)} characters"
        return found, f"{name} → {len(content):,} chars", None

    def _files_write(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.workspace.files import write_file

        content = _arg(args, "content") or ""
        name = self.write_name(_need(args, "filename"), content)
        current = self.agent.read(name)
        self._refuse_forgotten(content, keep=current)
        screened = self._screen(name, current, content)
        self._still(name, current)
        if screened.text != content or screened.corrected:
            return self._write_screened(name, current, screened)
        result = write_file(self.agent, name, content, Author.MODEL)
        verb = "created" if result["created"] else "rewrote"
        operation = {"op": "file_write", "file": name, "created": result["created"]}
        if result["moved_to_overflow"]:
            operation["moved_to_overflow"] = result["moved_to_overflow"]
        return result, f"{name} → {verb}, {result['chars']:,} chars", operation

    def _files_edit(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.workspace.files import edit_file

        new_text = _arg(args, "new_text") or ""
        name = self.write_name(_need(args, "filename"), new_text)
        old_text = _need(args, "old_text")
        self._refuse_forgotten(new_text, keep=old_text)
        replace_all = bool(_arg(args, "replace_all", bool, False))
        current = self.agent.read(name)
        count = current.count(old_text)
        if count == 1 or (count > 1 and replace_all):
            proposed = current.replace(old_text, new_text, -1 if replace_all else 1)
            screened = self._screen(name, current, proposed)
            self._still(name, current)
            if screened.text != proposed or screened.corrected:
                return self._write_screened(name, current, screened)
        # Not found or ambiguous: edit_file says so, under the lock.
        result = edit_file(self.agent, name, old_text, new_text, replace_all, Author.MODEL)
        count = result["replacements"]
        operation = {"op": "file_edit", "file": name, "replacements": count}
        if result["moved_to_overflow"]:
            operation["moved_to_overflow"] = result["moved_to_overflow"]
        return result, f"{name} → {count} replacement(s)", operation

    def _screen(self, name: str, current: str, new: str) -> Screened:
        """A model's write to PROFILE.md or MEMORY.md, weighed as extraction weighs one."""
        from memclaw.chat.writes import screen

        return screen(
            self.scope,
            name,
            current,
            new,
            said=self.said,
            session=self.session_id,
            judge=self.judge,
        )

    def _still(self, name: str, current: str) -> None:
        """Refuse a write whose file changed while it was weighed (the judge may have taken
        seconds): writing it would undo a person's edit, an extraction or another client's."""
        if self.agent.read(name) != current:
            raise UsageError(
                f"refused: {name} changed while this write was weighed; read it again and "
                "make the change on what it says now"
            )

    def _write_screened(self, name: str, current: str, screened: Screened) -> tuple[Any, str, Any]:
        from memclaw.chat.writes import write_screened

        return write_screened(self.scope, name, current, screened, self.session_id)

    def _refuse_forgotten(self, text: str, *, keep: str) -> None:
        """A model may not write back what the person asked to forget (`memclaw forget`)."""
        from memclaw.extract.forgotten import forgotten_checker, without_forgotten

        for scope in (self.scope, Scope(self.agent)):
            if without_forgotten(text, forgotten_checker(scope), keep=keep)[1]:
                raise UsageError(
                    "refused: the text restates something the person asked to forget; "
                    "leave that out and write the rest"
                )

    def _files_search(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.index import search

        query = _need(args, "query")
        limit = min(max(int(_arg(args, "limit", int, 5)), 1), 20)
        hits = search(
            self.agent.workspace, query, agents=[self.agent.id], owner=self.owner, limit=limit
        )
        rows = self._hit_rows(hits)
        return {"hits": rows}, f'"{_short(query)}" → {plural(len(rows), "hit")}', None

    def _hit_rows(self, hits: list[Hit]) -> list[dict[str, Any]]:
        """Hits as a model reads them: where (global/ for shared lines), snippet, fact id."""
        return [
            {
                "file": h.file if h.agent == self.agent.id else f"global/{h.file}",
                "line": h.line,
                "snippet": h.marked(),
                "score": round(h.score, 3),
                "fact": h.fact,
            }
            for h in hits
        ]

    def _memory_facts(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.facts.ledger import known_facts

        limit = min(max(int(_arg(args, "limit", int, 20)), 1), 50)
        floor = args.get("minTrust")
        if floor is not None and (isinstance(floor, bool) or not isinstance(floor, int | float)):
            raise UsageError("argument 'minTrust' must be a number from 0 to 1")
        scopes = [scope for scope, _label in self._scopes()]
        found = known_facts(scopes, _arg(args, "query"), min_trust=floor)
        return (
            {"count": len(found), "facts": found[:limit]},
            f"→ {plural(len(found), 'fact')}",
            None,
        )

    # --- memory entries ---------------------------------------------------------------

    def _scopes(self) -> list[tuple[Scope, str]]:
        """(scope, label) of every entries scope this chat may read."""
        team = Scope(self.agent)
        if self.scope.personal:
            return [(self.scope, "personal"), (team, "team")]
        return [(team, "team")]

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

        query = _need(args, "query")
        scope = _arg(args, "scope") or "all"
        limit = max(int(_arg(args, "limit", int, 5)), 1)
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
        said = f'"{_short(query)}" → {plural(len(chosen), "memory")}, {plural(len(lines), "line")}'
        return {"memories": chosen, "hits": lines}, said, None

    def _memory_list(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        found = self.entries(_arg(args, "scope") or "all", _arg(args, "category"))
        shown = found[:MAX_LISTED]
        data: dict[str, Any] = {"count": len(found), "memories": shown}
        if len(found) > len(shown):
            data["note"] = f"showing the newest {len(shown)}; use memory_search to narrow"
        return data, f"→ {plural(len(found), 'memory')}", None

    def _memory_get(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        memory_id = _need(args, "id")
        for entry in self.entries():
            if entry["id"] == memory_id:
                return entry, f"{memory_id} → found", None
        raise UsageError(f"no memory {memory_id!r}; memory_search or memory_list shows ids")

    def _memory_store(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        batch = _arg(args, "facts", list)
        if batch is None:
            return self._store_one(_need(args, "text"), _arg(args, "category"), args)
        if args.get("text"):
            raise UsageError("give either text or facts, not both")
        if not batch:
            raise UsageError("argument 'facts' is empty: give at least one fact")
        if not all(isinstance(f, dict) for f in batch):
            raise UsageError("each of 'facts' must be an object with text and category")
        wanted = [(_need(f, "text"), _arg(f, "category")) for f in batch]
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
        stored = sum(1 for r in results if "id" in r)
        summary = f"→ {stored} of {len(results)} stored"
        operation = {"op": "store", "facts": operations} if operations else None
        return {"results": results}, summary, operation

    def _store_one(
        self, text: str, category: str | None, args: dict[str, Any]
    ) -> tuple[Any, str, Any]:
        from memclaw.entries.memories import remember

        long_term = bool(_arg(args, "longTerm", bool, True))
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
            summary = f"→ {result.action}"
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
        return data, f"→ {result.action} {result.entry.id}", operation

    def _memory_forget(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.entries.forgetting import forget

        memory_id, query = _arg(args, "id"), _arg(args, "query")
        if not memory_id and not query:
            raise UsageError("give the id of a memory, or a query")
        # Only this chat's own scope: forgetting a team entry is for `memclaw memories forget`.
        gone = forget(self.scope, id=memory_id or None, query=None if memory_id else query)
        ids = [e.id for e in gone]
        operation = {"op": "forget", "ids": ids} if ids else None
        return {"forgotten": ids}, f"→ forgot {len(ids)}", operation
