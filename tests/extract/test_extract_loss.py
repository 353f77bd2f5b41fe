"""Extraction against the loss guard: a truncated answer never replaces what a person wrote."""

from __future__ import annotations

import json
from pathlib import Path

from fake_openai import FakeOpenAI
from ledgerkit import stream_text

from extract.extractkit import CHAT, make_agent, model_agent
from memclaw.extract.pipeline import extract_conversation
from memclaw.workspace import ledger
from memclaw.workspace.scope import Scope

FACTS = [
    f"Project {name} ships on 2026-0{i % 9 + 1}-15."
    for i, name in enumerate("ABCDEFGHIJKLMNOPQRST")
]
PERSONS_MEMORY = "# Memory\n\n## Active projects\n\n" + "".join(f"- {f}\n" for f in FACTS)
TRUNCATED = "# Memory\n\n## Decisions\n\n- The team switched monitoring to Grafana.\n"
TOKEN = "ghp_" + "R8kq2Lx7Vw4Nz1Tb6Yc9Pm3Hd5Js0Ga8Fe2Ku"


def _answer(memory: str) -> dict[str, object]:
    return {
        "should_update": True,
        "reason": "a decision",
        "daily_entry": "- Monitoring moved to Grafana.",
        "memory_update": memory,
        "profile_update": "",
    }


def test_a_truncated_memory_update_loses_nothing_and_adds_its_fact(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    # A whole-file answer that left out twenty of a person's lines is read as what it adds:
    # the lines it skipped stay where they were, and its new fact is written.
    agent = model_agent(tmp_path, fake_openai.base_url)
    agent.write("MEMORY.md", PERSONS_MEMORY)
    fake_openai.queue_json(_answer(TRUNCATED))

    result = extract_conversation(Scope(agent), CHAT)

    memory = agent.read("MEMORY.md")
    assert all(f"- {fact}\n" in memory for fact in FACTS)
    assert "- The team switched monitoring to Grafana.\n" in memory
    assert "MEMORY.md" in result.files_changed
    assert not any("refused" in note for note in result.notes)


def test_a_credential_in_a_hand_edited_line_never_reaches_the_log(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    # A person's hand edit may hold a credential; no log nor guard record may copy it.
    hand = PERSONS_MEMORY + f"- The CI token is {TOKEN}\n"
    (agent.path / "MEMORY.md").write_text(hand, encoding="utf-8")
    fake_openai.queue_json(_answer(TRUNCATED))

    extract_conversation(Scope(agent), CHAT)

    memory = agent.read("MEMORY.md")
    assert all(f"- {fact}\n" in memory for fact in FACTS)
    assert TOKEN not in stream_text(agent.meta_dir, "extract")
    assert TOKEN not in json.dumps(ledger.load(agent.meta_dir, "guard/MEMORY.md")[0])


def test_a_small_rewrite_within_the_budget_is_written(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    agent.write("MEMORY.md", PERSONS_MEMORY)
    merged = PERSONS_MEMORY.replace(f"- {FACTS[0]}\n", "") + "\n## Decisions\n\n- Grafana.\n"
    fake_openai.queue_json(_answer(merged))

    result = extract_conversation(Scope(agent), CHAT)

    assert agent.read("MEMORY.md") == merged and "MEMORY.md" in result.files_changed


def test_the_offline_engine_writes_through_the_guard(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    result = extract_conversation(Scope(agent), CHAT)
    assert "MEMORY.md" in result.files_changed or "PROFILE.md" in result.files_changed
    # A guarded rewrite leaves its baseline in the ledger.
    assert any(n.startswith("guard/") for n in ledger.document_names(agent.meta_dir))
