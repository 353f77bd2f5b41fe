"""The fake model of the judge tests: a contradiction only a model sees, and its verdict.

"Maya prefers calls in the afternoon" against "Maya wants no meetings after lunch": the
offline judge sees one subject and shared words but no rule, so it is unsure (and calls
them two facts). The fake server, at the wire, plays a model that sees the conflict.
"""

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fake_openai import FakeOpenAI

from memclaw.entries.lookup import list_memories
from memclaw.entries.memories import Action, remember
from memclaw.workspace import Workspace
from memclaw.workspace.agent import Agent
from memclaw.workspace.scope import Scope

OLD = "Maya prefers calls in the afternoon"
NEW = "Maya wants no meetings after lunch"
_PAIR = re.compile(r"^(\d+)\. OLD: (.*)$", re.MULTILINE)


def model_judge(*, delay: float = 0.0, garbage: bool = False) -> Callable[[dict[str, Any]], str]:
    """The fake model: as a judge, a conflict for the allergy pair; as a chat, "Noted."."""

    def reply(request: dict[str, Any]) -> str:
        messages = request["messages"]
        if not str(messages[0].get("content", "")).startswith("You compare facts"):
            return "Noted."
        time.sleep(delay)
        if garbage:
            return "They look fine to me, honestly."
        verdicts = [
            {
                "pair": int(number),
                "kind": "conflict",
                "reason": "afternoon calls are meetings after lunch",
            }
            if "afternoon" in old
            else {"pair": int(number), "kind": "distinct"}
            for number, old in _PAIR.findall(messages[1]["content"])
        ]
        return json.dumps({"verdicts": verdicts})

    return reply


def judge_requests(server: FakeOpenAI) -> list[Any]:
    return [
        r
        for r in server.chat_requests()
        if str(r.body["messages"][0]["content"]).startswith("You compare facts")
    ]


def configure(root: Path, server: FakeOpenAI, **extra: Any) -> None:
    """The root's memclaw.yaml points at ``server`` (a subprocess reads it too)."""
    settings = {"base_url": server.base_url, "api_key": "test", "request_timeout": 10.0}
    settings.update(extra)
    lines = [f"{key}: {json.dumps(value)}" for key, value in settings.items()]
    (root / "memclaw.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def seeded(root: Path) -> Agent:
    agent, _ = Workspace.open(root).init_agent("pal")
    assert remember(Scope(agent), OLD).action is Action.ADDED  # offline: no model asked
    return agent


def texts(agent: Agent) -> list[str]:
    return [e.text for e in list_memories(Scope(agent))]
