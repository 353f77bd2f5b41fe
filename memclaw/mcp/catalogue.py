"""The tools an MCP host's model may call, their arguments, and how big an answer may get.

They are the chat's memory tools (:mod:`memclaw.chat.tools`): the same names,
arguments, library calls and owner fence, so what a host's model may read and
write is exactly what a memclaw chat's model may. On top:

* ``agentId`` on every tool reaches another agent of the same root, always as
  the owner the server was started for: it can never reach another person's
  memory (an agent id is a folder name, and the owner is not an argument).
* ``memory_extract`` takes a finished conversation and runs the extraction
  pipeline on it; its gates (preconditions, cooldown, secrets, forgotten facts)
  decide what is kept.
* Arguments are checked against the schema the host was shown, with one line
  saying what is wrong, and every answer is cut to fit ``MAX_RESULT_CHARS``.

Nothing here imports the MCP SDK: :mod:`memclaw.mcp.server` adapts this to it.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memclaw.chat.schemas import tool_schemas
from memclaw.chat.tools import ToolBox
from memclaw.errors import MemclawError, UsageError
from memclaw.gates.redaction import redact_data
from memclaw.llm import ToolCall
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.facts.judge import Judge

# The tools offered, in the order a host lists them.
TOOLS = (
    "memory_search",
    "memory_store",
    "memory_list",
    "memory_get",
    "memory_forget",
    "memory_files_list",
    "memory_files_read",
    "memory_files_edit",
    "memory_extract",
    "memory_facts",
)
WRITE_TOOLS = frozenset({"memory_store", "memory_forget", "memory_files_edit", "memory_extract"})
# One answer, as JSON text. A host pastes it into its model's context: a list of
# ten thousand daily notes or a huge hand-edited file must not flood it.
MAX_RESULT_CHARS = 40_000
# One string argument. A whole conversation for memory_extract fits comfortably.
MAX_ARGUMENT_CHARS = 500_000
MAX_SEARCH_LIMIT = 20
MAX_FACTS_SHOWN = 50

_AGENT_ID = {
    "type": "string",
    "description": "Another agent in this memclaw root (default: this server's agent). "
    "You act as the same person there; another person's memory is never reachable.",
}
_DESCRIPTIONS = {
    "memory_search": "Search what is remembered: memory entries (ids and text) under "
    "'memories', and every remembered line of the memory files (MEMORY.md, PROFILE.md, the "
    "daily notes) under 'hits', each with its fact id. Search before answering anything "
    "that may depend on what you were told earlier: preferences, people, projects, decisions.",
    "memory_store": "Remember durable facts as memory entries: one as text (with its "
    "category), or several as facts, each with its own category. Each is one self-contained "
    "sentence of roughly 15 to 50 words. A restated fact updates the old one. longTerm false "
    "keeps them for this server session only. Never store credentials: a secret is refused.",
}
_EXTRACT: dict[str, Any] = {
    "name": "memory_extract",
    "description": "Hand in a finished conversation; memclaw distils it into PROFILE.md, "
    "MEMORY.md and today's daily note. Its gates decide what is kept: too short a "
    "conversation, the cooldown, secrets and forgotten facts are never written. Call it "
    "once, at the end of a conversation worth remembering.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "messages": {
                "type": "array",
                "description": "The conversation, oldest first.",
                "items": {
                    "type": "object",
                    "properties": {
                        "role": {"type": "string", "enum": ["user", "assistant", "system"]},
                        "content": {"type": "string"},
                    },
                    "required": ["role", "content"],
                },
            },
            "transcript": {
                "type": "string",
                "description": "Or the conversation as text: 'User: …' / 'Assistant: …' "
                "turns, or JSON messages. Give messages or transcript, not both.",
            },
        },
        "required": [],
    },
}


@dataclass(frozen=True)
class Outcome:
    """One tool call's answer: the text a host shows its model, and whether it failed."""

    ok: bool
    text: str
    data: dict[str, Any] | None = None


def tool_definitions(scope: Scope, *, read_only: bool = False) -> list[dict[str, Any]]:
    """``{"name", "description", "inputSchema"}`` of every tool, in MCP's spelling."""
    chat = {s["function"]["name"]: s["function"] for s in tool_schemas(scope)}
    found = []
    for name in TOOLS:
        if read_only and name in WRITE_TOOLS:
            continue
        tool: dict[str, Any]
        if name == "memory_extract":
            tool = copy.deepcopy(_EXTRACT)
        else:
            fn = chat[name]
            tool = {
                "name": name,
                "description": _DESCRIPTIONS.get(name, fn["description"]),
                "inputSchema": copy.deepcopy(fn["parameters"]),
            }
        schema = tool["inputSchema"]
        schema["properties"]["agentId"] = dict(_AGENT_ID)
        schema["additionalProperties"] = False
        if name == "memory_search":
            schema["properties"]["limit"]["maximum"] = MAX_SEARCH_LIMIT
        found.append(tool)
    return found


def check_arguments(tool: dict[str, Any], arguments: Any) -> dict[str, Any]:
    """The arguments, checked against the tool's schema; None values dropped."""
    name, schema = tool["name"], tool["inputSchema"]
    props: dict[str, Any] = schema["properties"]
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise UsageError(f"{name} takes a JSON object of arguments")
    unknown = sorted(set(arguments) - set(props))
    if unknown:
        raise UsageError(
            f"{name} has no argument {unknown[0]!r}; it takes {', '.join(sorted(props))}"
        )
    for key in schema.get("required", []):
        if arguments.get(key) in (None, ""):
            raise UsageError(f"argument {key!r} is required")
    return {
        key: _checked(key, props[key], value)
        for key, value in arguments.items()
        if value is not None
    }


def _checked(key: str, spec: dict[str, Any], value: Any) -> Any:
    kind = spec.get("type")
    if kind == "string":
        if not isinstance(value, str):
            raise UsageError(f"argument {key!r} must be a string")
        if len(value) > MAX_ARGUMENT_CHARS:
            raise UsageError(
                f"argument {key!r} is longer than {MAX_ARGUMENT_CHARS:,} characters; send less"
            )
    elif kind == "integer":
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # some hosts send every number as 5.0
        if isinstance(value, bool) or not isinstance(value, int):
            raise UsageError(f"argument {key!r} must be a whole number")
        low, high = spec.get("minimum"), spec.get("maximum")
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
            raise UsageError(f"argument {key!r} must be {bounds}")
    elif kind == "boolean":
        if not isinstance(value, bool):
            raise UsageError(f"argument {key!r} must be true or false")
    elif kind == "array":
        if not isinstance(value, list):
            raise UsageError(f"argument {key!r} must be a list")
        value = [_checked(f"{key}[{i}]", spec["items"], item) for i, item in enumerate(value)]
    elif kind == "object":
        if not isinstance(value, dict):
            raise UsageError(f"argument {key!r} must be an object")
        props = spec.get("properties", {})
        for inner in spec.get("required", []):
            if inner not in value:
                raise UsageError(f"argument {key!r} needs {inner!r}")
        value = {k: _checked(f"{key}.{k}", props[k], v) for k, v in value.items() if k in props}
    if "enum" in spec and value not in spec["enum"]:
        raise UsageError(f"argument {key!r} must be one of {', '.join(spec['enum'])}")
    return value


def bound(data: Any, limit: int = MAX_RESULT_CHARS) -> Any:
    """``data`` cut until its JSON fits ``limit`` characters: longest lists halved, then texts.

    A dict that had to be cut says so in ``note``, so the model knows to narrow its call.
    """
    if _size(data) <= limit:
        return data
    data = copy.deepcopy(data)
    while _size(data) > limit and _shrink(data):
        pass
    if isinstance(data, dict):
        data["note"] = (
            f"answer cut to fit {limit:,} characters; narrow the call (a prefix, a query, "
            "a lower limit) to see the rest"
        )
    return data


def _size(data: Any) -> int:
    return len(json.dumps(data, ensure_ascii=False))


def _shrink(data: Any) -> bool:
    """Halve the largest list (or, lists spent, the largest text) inside ``data``, in place."""
    best: tuple[int, Any, Any] | None = None  # (size, container, key)
    stack = [data]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in items:
            if isinstance(value, list | dict):
                stack.append(value)
            shrinkable = (isinstance(value, list) and len(value) > 1) or (
                isinstance(value, str) and len(value) > 200
            )
            if shrinkable and (best is None or _size(value) > best[0]):
                best = (_size(value), node, key)
    if best is None:
        return False
    _, container, key = best
    value = container[key]
    if isinstance(value, list):
        container[key] = value[: len(value) // 2]
    else:
        container[key] = value[: len(value) // 2] + "…"
    return True


@dataclass
class MemoryTools:
    """Runs MCP tool calls for one server: one home agent, one owner (or the operator)."""

    scope: Scope
    session_id: str
    read_only: bool = False
    # The configured model's second opinion on writes (memclaw.facts.judge); None: offline.
    judge: Judge | None = None
    _boxes: dict[str, ToolBox] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.definitions = tool_definitions(self.scope, read_only=self.read_only)
        self._by_name = {tool["name"]: tool for tool in self.definitions}

    def has(self, name: str) -> bool:
        return name in self._by_name

    def box(self, agent_id: str | None = None) -> ToolBox:
        """The chat tool box for ``agent_id`` (default: the home agent), as the same owner."""
        # An agent id is a folder name, never an owner's folder; the owner is carried over.
        scope = self.scope.for_agent(agent_id) if agent_id else self.scope
        if scope.agent.id not in self._boxes:
            self._boxes[scope.agent.id] = ToolBox(
                scope, self.session_id, read_only=self.read_only, judge=self.judge
            )
        return self._boxes[scope.agent.id]

    def call(self, name: str, arguments: Any) -> Outcome:
        """Run one call; a library error is a failed Outcome with the CLI's one line."""
        try:
            tool = self._by_name.get(name)
            if tool is None:
                raise UsageError(f"there is no tool named {name!r}")
            args = check_arguments(tool, arguments)
            box = self.box(args.pop("agentId", None))
            if name == "memory_extract":
                data = redact_data(self._extract(box.scope, args))
            else:
                record = box.run(ToolCall("mcp", name, args, json.dumps(args)))
                if not record.ok:
                    return Outcome(False, record.result)
                data = json.loads(record.result)
        except MemclawError as exc:
            return Outcome(False, f"error: {exc}")
        data = bound(data)
        return Outcome(True, json.dumps(data, ensure_ascii=False), data)

    def _extract(self, scope: Scope, args: dict[str, Any]) -> dict[str, Any]:
        from memclaw.extract.pipeline import extract_conversation
        from memclaw.extract.transcripts import parse_transcript

        messages, transcript = args.get("messages"), args.get("transcript")
        if (messages is None) == (transcript is None):
            raise UsageError("give the conversation as messages or as a transcript (one of them)")
        if transcript is not None:
            found = parse_transcript(transcript, "transcript")
        else:
            found = [{"role": m["role"], "content": m["content"]} for m in messages or []]
        if not any(m["content"].strip() for m in found):
            raise UsageError("the conversation holds no messages with text")
        result = extract_conversation(scope, found)
        data = result.to_dict()
        del data["diffs"]  # whole files before and after: the files themselves are resources
        data["facts"] = data["facts"][:MAX_FACTS_SHOWN]
        return data
