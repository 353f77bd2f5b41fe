"""Writers at once: a model dream, a model extraction, two chats' tool writes and a person.

Each writer says what it wrote; afterwards every such line is there. The models
answer with MEMORY.md rewritten from the version they were given, and while
they think the person saves an edit of the same file: the answers are applied
to the newer version, not written over it.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from dream.dreamkit import model_workspace, note
from extract.extractkit import saying

from memclaw.dream.run import dream_agent
from memclaw.dream.run.result import DreamStatus
from memclaw.entries.memories import remember
from memclaw.extract.pipeline import extract_conversation
from memclaw.workspace import Agent
from memclaw.workspace.scope import Scope

ROUNDS = 30
MEMORY = "# Memory\n\n## Team\n\n- Maya leads the lotsen migration.\n"


class Thinking:
    """A model that answers MEMORY.md plus one line, and meanwhile the person saves."""

    name = "thinking"

    def __init__(self, agent: Agent, line: str, person: str, kind: str) -> None:
        self.agent, self.line, self.person, self.kind = agent, line, person, kind

    def chat_json(self, messages: object, **kwargs: Any) -> dict[str, object]:
        if "verdicts" in kwargs.get("required", {}):
            return {"verdicts": []}  # asked to judge a pair: the offline verdict stands
        given = self.agent.read("MEMORY.md")
        save_in_an_editor(self.agent, self.person)
        rewritten = given + f"- {self.line}\n"
        if self.kind == "dream":
            return {"should_update": True, "reason": "r", "memory_content": rewritten}
        return {
            "should_update": True,
            "reason": "r",
            "daily_entry": "",
            "memory_update": rewritten,
            "profile_update": "",
        }


def save_in_an_editor(agent: Agent, line: str) -> None:
    """Read, add a line, replace the file: as an editor saves (at an instant no write is in)."""
    path = agent.path / "MEMORY.md"
    with agent.lock():
        text = path.read_text(encoding="utf-8")
        temp = path.with_name(".MEMORY.md.editor")
        temp.write_text(text + f"- {line}\n", encoding="utf-8")
        os.replace(temp, path)


def test_every_line_each_writer_reported_is_there_after_thirty_rounds(tmp_path: Path) -> None:
    agent, _ = model_workspace(tmp_path, "http://127.0.0.1:9").init_agent("demo")
    agent.write("MEMORY.md", MEMORY)
    reported: list[str] = []
    errors: list[BaseException] = []

    def run(work: Any) -> None:
        try:
            work()
        except BaseException as exc:  # a thread's failure fails the test
            errors.append(exc)

    for n in range(ROUNDS):
        note(agent, agent.now().date(), f"Round {n}: the Vega build {n} passed.")
        dreamed, extracted = f"Vega build {n} passed.", f"Vega build {n} uses port {8000 + n}."

        def dream(n: int = n, line: str = dreamed) -> None:
            model = Thinking(agent, line, f"Person edit {n}a.", "dream")
            result = dream_agent(Scope(agent), model=model)  # type: ignore[arg-type]
            assert result.status is DreamStatus.UPDATED, result.reason
            reported.extend([line, f"Person edit {n}a."])

        def extract(n: int = n, line: str = extracted) -> None:
            model = Thinking(agent, line, f"Person edit {n}b.", "extract")
            chat = saying(f"The {line[:-1]}")
            result = extract_conversation(Scope(agent), chat, force=True, model=model)  # type: ignore[arg-type]
            assert "MEMORY.md" in result.files_changed, result.notes
            reported.extend([line, f"Person edit {n}b."])

        def chat_tool(who: str, n: int = n) -> None:
            text = f"{who} deploys service {n} on Fridays"
            if str(remember(Scope(agent), text, source="tool", by_person=False).action) == "added":
                reported.append(text)

        threads = [
            threading.Thread(target=run, args=(work,))
            for work in (dream, extract, lambda: chat_tool("Ola"), lambda: chat_tool("Kim"))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert not errors, errors

    memory = agent.read("MEMORY.md")
    entries = "".join(p.read_text(encoding="utf-8") for p in (agent.path / "entries").glob("*.md"))
    missing = [line for line in reported if line not in memory and line not in entries]
    assert not missing, f"{len(missing)} of {len(reported)} reported lines are gone: {missing}"
    assert len(reported) == ROUNDS * 6
    json.dumps(reported)  # every line reported is text
