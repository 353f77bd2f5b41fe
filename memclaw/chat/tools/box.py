"""The toolbox a chat model calls: it routes each call to its tool and shapes the result.

A failing tool never ends the chat; the model gets the error as the result.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from memclaw.chat.schemas import AGENT_ARG, WRITE_TOOLS, tool_schemas
from memclaw.chat.tools.base import arg, short
from memclaw.chat.tools.files import FileTools
from memclaw.chat.tools.memories import MemoryTools
from memclaw.errors import MemclawError, UsageError
from memclaw.gates.redaction import redact_data
from memclaw.providers.base import ProviderTool
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.facts.judge import Judge
    from memclaw.llm import ToolCall


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


@dataclass
class ToolBox(FileTools, MemoryTools):
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
            box = self.for_agent(arg(call.arguments, AGENT_ARG))
            args = {k: v for k, v in call.arguments.items() if k != AGENT_ARG}
            data, summary, operation = box._handlers[call.name](args)
        except MemclawError as exc:
            return ToolRecord(
                call.id,
                call.name,
                call.arguments,
                False,
                f"error: {exc}",
                f"{call.name} → error: {short(str(exc), 60)}",
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
