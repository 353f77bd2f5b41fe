"""The OpenAI tool definitions a chat model is offered (what each tool is for, its arguments)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memclaw.workspace.entries import categories

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

WRITE_TOOLS = frozenset(
    {"memory_files_write", "memory_files_edit", "memory_store", "memory_forget"}
)


AGENT_ARG = "agentId"
_AGENT = {
    "type": "string",
    "description": "another agent's memory (its id) instead of your own; "
    "always this same person's part of it",
}


def _fn(name: str, description: str, properties: dict[str, Any], required: list[str]) -> Any:
    # Every tool takes agentId: a multi-agent host may look into a sibling agent's memory.
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {
                "type": "object",
                "properties": {**properties, AGENT_ARG: _AGENT},
                "required": required,
            },
        },
    }


_STR = {"type": "string"}


def _where_writes_go(scope: Scope) -> str:
    """What the model must know about where a file write lands in this chat."""
    if not scope.personal:
        return ""
    mine = scope.prefix
    if not scope.agent.settings.owner_writes_team:
        return (
            f" Writes go to this person's own files: a bare name such as MEMORY.md "
            f"is written as {mine}MEMORY.md. Shared files (AGENTS.md, SOUL.md, the "
            "agent's MEMORY.md) are read-only here."
        )
    return (
        f" A bare name such as MEMORY.md is a shared file every person using the agent "
        f"sees; {mine} holds this person's own. Never copy this person's own memory "
        "into a shared file: such a write is refused."
    )


def tool_schemas(scope: Scope, *, read_only: bool = False) -> list[Any]:
    """OpenAI tool definitions; ``read_only`` leaves out everything that writes."""
    personal = scope.prefix
    where = (
        f" This person's own files are under '{personal}'." if personal else ""
    ) + " Names are relative to the agent folder, e.g. MEMORY.md or memory/2026-11-28.md."
    writes = _where_writes_go(scope)
    kinds = {"type": "string", "enum": ["all", "long-term", "session"]}
    named = categories(scope.agent.settings)
    category = {
        "type": "string",
        "enum": list(named),
        "description": "; ".join(f"{name}: {text}" for name, text in named.items()),
    }
    tools = [
        _fn(
            "memory_files_list",
            "List your markdown memory files (name, size, whether injected)." + where,
            {"prefix": {**_STR, "description": "only names starting with this, e.g. memory/"}},
            [],
        ),
        _fn(
            "memory_files_read",
            "Read one of your markdown memory files." + where,
            {"filename": _STR},
            ["filename"],
        ),
        _fn(
            "memory_files_search",
            "Keyword search over all your memory files, daily notes included; "
            "returns file, line and snippet of the best matches.",
            {"query": _STR, "limit": {"type": "integer", "minimum": 1, "maximum": 20}},
            ["query"],
        ),
        _fn(
            "memory_search",
            "Search memory entries (single remembered facts) by meaning; returns their ids, "
            "and every remembered line found in your files (MEMORY.md, PROFILE.md, notes).",
            {"query": _STR, "scope": kinds, "limit": {"type": "integer", "minimum": 1}},
            ["query"],
        ),
        _fn(
            "memory_list",
            "List memory entries, newest first.",
            {"scope": kinds, "category": category},
            [],
        ),
        _fn("memory_get", "Show one memory entry by id.", {"id": _STR}, ["id"]),
        _fn(
            "memory_facts",
            "What you know: the facts memory holds, each with its trust (0-1), category "
            "and where it lives; the least trusted first when asked for minTrust.",
            {
                "query": {**_STR, "description": "only facts holding all of these words"},
                "minTrust": {"type": "number", "minimum": 0, "maximum": 1},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50},
            },
            [],
        ),
    ]
    if read_only:
        return tools
    return [
        *tools,
        _fn(
            "memory_files_write",
            "Replace the whole content of a markdown memory file (read it first). "
            "A new file is not injected into your prompt until enabled." + where + writes,
            {"filename": _STR, "content": _STR},
            ["filename", "content"],
        ),
        _fn(
            "memory_files_edit",
            "Replace exact text in a memory file; the old text must occur once "
            "unless replace_all is true." + where + writes,
            {
                "filename": _STR,
                "old_text": _STR,
                "new_text": _STR,
                "replace_all": {"type": "boolean"},
            },
            ["filename", "old_text", "new_text"],
        ),
        _fn(
            "memory_store",
            "Remember durable facts as memory entries: one fact as text (with its "
            "category), or several as facts, each with its own category. Each fact is one "
            "self-contained sentence of roughly 15 to 50 words that names what it is about. "
            "longTerm false keeps them for this conversation only. Never store credentials."
            + (" They are stored in this person's own memory." if personal else ""),
            {
                "text": _STR,
                "category": category,
                "facts": {
                    "type": "array",
                    "description": "several facts at once, each with its category",
                    "items": {
                        "type": "object",
                        "properties": {"text": _STR, "category": category},
                        "required": ["text"],
                    },
                },
                "longTerm": {"type": "boolean"},
            },
            [],
        ),
        _fn(
            "memory_forget",
            "Forget memory entries by id, or every entry matching a query; "
            "they will not be learned again.",
            {"id": _STR, "query": _STR},
            [],
        ),
    ]
