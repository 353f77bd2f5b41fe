"""What a host can pin into its context: the injected files, the assembled prompt, a guide.

A resource is ``memclaw://AGENT/NAME``: NAME is a memory file relative to the
agent folder (``PROFILE.md``, ``owners/user%3Aalice/MEMORY.md``) or ``prompt``,
the system prompt memclaw itself would give a model. Files are read through the
chat's file tool, so the owner fence, the size cut and redaction all apply.
The guide is a prompt template telling a host's model how to use the tools.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memclaw.errors import UsageError
from memclaw.gates.redaction import redact_data
from memclaw.llm import ToolCall
from memclaw.mcp.catalogue import MAX_RESULT_CHARS

if TYPE_CHECKING:
    from memclaw.mcp.catalogue import MemoryTools
    from memclaw.workspace.scope import Scope

SCHEME = "memclaw://"
PROMPT = "prompt"
# The assembled prompt is bounded by the injection budgets already; this is a backstop.
MAX_PROMPT_CHARS = 4 * MAX_RESULT_CHARS
GUIDE_NAME = "use_memory"
GUIDE_DESCRIPTION = "How to use memclaw's memory tools well: search first, store what lasts."

GUIDE = """\
You have a long-term memory through the memclaw tools. It outlives this
conversation and is shared with the person's other assistants.

Before you answer anything that may depend on earlier conversations (the
person's preferences, people and projects they mentioned, decisions, dates),
call memory_search with a short query in the person's own words. Use what it
returns; when memory and the person disagree, trust the person and correct
the memory.

After the person tells you something that will still matter next week, or
after you decide something together, call memory_store with one short,
self-contained sentence (who, what, when). Store one fact per call. Use
longTerm false for context that only matters in this conversation. Do not
store small talk, guesses, or anything you can look up again.

Never store passwords, API keys, tokens or other credentials: memclaw refuses
them, and you should not try to rephrase them.

When the person asks you to forget something, find it with memory_search and
call memory_forget with its id. Larger notes live in markdown files:
memory_files_list, memory_files_read and memory_files_edit (read before you
edit). At the end of a long conversation worth keeping, memory_extract with
the whole conversation lets memclaw decide what to keep.
"""


@dataclass(frozen=True)
class ResourceInfo:
    uri: str
    name: str
    description: str


def uri(agent_id: str, name: str) -> str:
    return f"{SCHEME}{agent_id}/{name}"


def list_resources(scope: Scope) -> list[ResourceInfo]:
    """The files memclaw injects for this scope, in prompt order, then the whole prompt."""
    agent = scope.agent
    found = []
    meta = agent.meta()
    for name, entry in sorted(meta.items(), key=lambda item: (item[1].sort_order, item[0])):
        if entry.enabled and agent.file(name).is_file():
            found.append(ResourceInfo(uri(agent.id, name), name, f"{name} of agent {agent.id}"))
    if scope.personal:
        for name in ("PROFILE.md", "MEMORY.md"):
            if scope.file(name).is_file():
                rel = scope.rel(name)
                found.append(ResourceInfo(uri(agent.id, rel), rel, f"{scope.owner}'s own {name}"))
    found.append(
        ResourceInfo(
            uri(agent.id, PROMPT),
            "system prompt",
            f"The system prompt memclaw assembles for agent {agent.id}: every injected file, "
            "the global files and the memory entries, within the injection budgets.",
        )
    )
    return found


def read_resource(tools: MemoryTools, address: str) -> str:
    """The text behind ``address``; raises a MemclawError with one line when it cannot be read."""
    from memclaw.prompt import assemble_prompt

    if not address.startswith(SCHEME):
        raise UsageError(f"{address!r} is not a memclaw resource: they start with {SCHEME}")
    agent_id, _, name = address[len(SCHEME) :].partition("/")
    if not name:
        raise UsageError(f"{address!r} names no file: use {SCHEME}AGENT/PROFILE.md")
    box = tools.box(agent_id)
    if name == PROMPT:
        text: str = redact_data(assemble_prompt(box.scope).text)
        return text[:MAX_PROMPT_CHARS]
    record = box.run(ToolCall("resource", "memory_files_read", {"filename": name}, ""))
    if not record.ok:
        raise UsageError(record.result.removeprefix("error: "))
    content: str = json.loads(record.result)["content"]
    return content
