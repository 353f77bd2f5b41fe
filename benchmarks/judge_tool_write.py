"""A model's file write through the memory tools, judged by the configured chat model.

The real-model lane runs this as one of its paths::

    python -m benchmarks.judge_tool_write AGENT "- a line for MEMORY.md"

It appends the line to the agent's MEMORY.md through ``memory_files_edit``, the tool a
chat's model or an MCP host's model calls (here as MCP's tools run it, so no small model
has to manage a tool call first). The line is chosen so that the offline rules are
unsure of it against a remembered fact: the configured model is asked for its opinion.
Its settings come from the environment (MEMCLAW_ROOT, MEMCLAW_BASE_URL, ...), as the
command line's do. stderr says what became of the line and what the model said; stdout
carries the tool's result as JSON. What the model answered is recorded on its way to the
JSON parser (the one place its raw text passes), so the lane can show it even when it
was unreadable.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any

ANSWER_CHARS = 300


@contextlib.contextmanager
def recording_answers() -> Iterator[list[str]]:
    """Every raw answer the model gives inside the block, as it reaches the JSON parser."""
    from memclaw.llm import openai_client

    heard: list[str] = []
    parse = openai_client.parse_json_answer

    def parse_and_keep(text: str) -> Any:
        heard.append(text)
        return parse(text)

    openai_client.parse_json_answer = parse_and_keep
    try:
        yield heard
    finally:
        openai_client.parse_json_answer = parse


def main(argv: Sequence[str] | None = None) -> int:
    from memclaw.facts import inbox
    from memclaw.facts.judge import Judge
    from memclaw.llm import open_model_no_retry
    from memclaw.mcp.catalogue import MemoryTools
    from memclaw.workspace import Workspace
    from memclaw.workspace.scope import Scope

    agent_id, line = list(sys.argv[1:] if argv is None else argv)
    agent = Workspace.open().agent(agent_id)
    before = {item.id for item in inbox.open_items(agent, "")}
    judge = Judge(partial(open_model_no_retry, agent.settings))
    tools = MemoryTools(Scope(agent), "real-lane", judge=judge)
    last = agent.read("MEMORY.md").rstrip("\n").splitlines()[-1]
    edit = {"filename": "MEMORY.md", "old_text": last, "new_text": f"{last}\n{line}"}
    with recording_answers() as heard:
        outcome = tools.call("memory_files_edit", edit)
    print(outcome.text)
    if not outcome.ok:
        print(f"the tool failed: {outcome.text}", file=sys.stderr)
        return 1
    for text in heard:
        flat = " ".join(text.split())
        shown = flat if len(flat) <= ANSWER_CHARS else flat[: ANSWER_CHARS - 1] + "…"
        print(f"the model answered: {shown}", file=sys.stderr)
    if not heard:
        print("the model was not asked", file=sys.stderr)
    held = [item for item in inbox.open_items(agent, "") if item.id not in before]
    if held:
        item = held[0]
        print(f"held in the inbox against {item.old!r}: {item.reason}", file=sys.stderr)
    else:
        written = line in agent.read("MEMORY.md")
        what = "written to MEMORY.md" if written else "not written"
        print(f"{what}, not held as a contradiction: {json.dumps(line)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
