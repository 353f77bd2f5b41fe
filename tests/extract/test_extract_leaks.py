"""Extraction never sends a secret to the model nor leaves one anywhere on disk."""

import json
from pathlib import Path

from fake_openai import FakeOpenAI
from secretkit import GITHUB, OPENAI, leaks

from extract.extractkit import CHAT, model_agent
from memclaw.extract.pipeline import extract_conversation
from memclaw.workspace.atomic import atomic_write
from memclaw.workspace.scope import Scope

PLANTED = "assistant/memory/2026-03-30.md"


def _agent(root: Path, server: FakeOpenAI):
    agent = model_agent(root, server.base_url)
    # Hand edits: the gate never saw these, yet they are read into the prompt.
    atomic_write(agent.path / "MEMORY.md", agent.read("MEMORY.md") + f"- deploy key {GITHUB}\n")
    atomic_write(agent.path / "PROFILE.md", agent.read("PROFILE.md") + f"- api key {OPENAI}\n")
    atomic_write(agent.path / "memory" / "2026-03-30.md", f"# 2026-03-30\n\n- token {GITHUB}\n")
    return agent


def test_a_reason_holding_a_secret_is_neither_logged_nor_kept(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = _agent(tmp_path, fake_openai)
    # The model keeps every fact (the loss guard would refuse less) but the credentials.
    memory = agent.read("MEMORY.md").replace(f"- deploy key {GITHUB}\n", "")
    profile = agent.read("PROFILE.md").replace(f"- api key {OPENAI}\n", "")
    fake_openai.queue_json(
        {
            "should_update": True,
            "reason": f"the user shared {GITHUB}",
            "daily_entry": "- Sarah works at Cloudflare.",
            "memory_update": memory + "- Sarah works at Cloudflare.\n",
            "profile_update": profile + "- Sarah, engineer.\n",
        }
    )
    result = extract_conversation(Scope(agent), CHAT)
    assert GITHUB not in result.reason
    body = json.dumps(fake_openai.last_request().body)
    assert GITHUB not in body and OPENAI not in body
    # The hand-edited daily note was appended to, so it still holds its own secret.
    assert leaks(tmp_path) == [PLANTED]


def test_an_unparseable_answer_holding_a_secret_is_not_logged(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    fake_openai.queue_text(f"{OPENAI} is the key, not JSON")
    result = extract_conversation(Scope(agent), CHAT)  # extracted offline instead
    assert str(result.engine) == "offline" and OPENAI not in " ".join(result.notes)
    assert leaks(tmp_path) == []
