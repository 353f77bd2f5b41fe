"""A dream never sends a secret to the model nor writes one to its log or diary."""

from __future__ import annotations

import json
from pathlib import Path

from fake_openai import FakeOpenAI
from secretkit import GITHUB, OPENAI, leaks

from dream.dreamkit import MEMORY, day, model_workspace, note
from memclaw.dream.run import DreamStatus, dream_agent
from memclaw.workspace.atomic import atomic_write
from memclaw.workspace.scope import Scope

FACT = "Maya prefers uv over Poetry for every Python project."


def test_notes_memory_and_the_models_reason_keep_no_secret(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    ws = model_workspace(tmp_path / "ws", fake_openai.base_url)
    agent, _ = ws.init_agent("demo")
    agent.write("MEMORY.md", MEMORY)
    for offset in (4, 3, 2):
        note(agent, day(offset), FACT)
    # Hand edits the gate never saw: one in a daily note, one in MEMORY.md.
    planted = agent.path / "memory" / f"{day(2)}.md"
    atomic_write(planted, planted.read_text() + f"- the CI token is {GITHUB}\n")
    atomic_write(
        agent.path / "MEMORY.md", MEMORY.replace("## People\n", f"## People\n- mailer {OPENAI}\n")
    )
    new = MEMORY.replace("## People", f"- {FACT}\n\n## People")
    fake_openai.queue_json(
        {"should_update": True, "reason": f"uv recurred; saw {OPENAI}", "memory_content": new}
    )

    result = dream_agent(Scope(agent))
    assert result.status is DreamStatus.UPDATED

    body = json.dumps(fake_openai.last_request().body)
    assert GITHUB not in body and OPENAI not in body
    assert OPENAI not in result.reason
    # Only the hand-edited note, which a dream never rewrites, still holds its secret.
    assert leaks(tmp_path) == [f"ws/demo/memory/{day(2)}.md"]
