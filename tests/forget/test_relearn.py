"""After a forget, nothing learns the fact again: dreams, extraction, imports, tool calls."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from fake_openai import FakeOpenAI

from forget.forgetkit import planted, traces
from memclaw.chat.tools import ToolBox
from memclaw.dream.run import dream_agent
from memclaw.erasure import apply_forget, plan_forget
from memclaw.extract.pipeline import extract_conversation
from memclaw.llm import ToolCall
from memclaw.snapshot import export_snapshot, import_snapshot, read_snapshot
from memclaw.workspace.scope import Scope

RESTATED = [
    {"role": "user", "content": "Reminder for you: I'm pregnant, the baby is due in May."},
    {"role": "assistant", "content": "Thanks for telling me."},
    {"role": "user", "content": "Also, I switched from Vim to Neovim for all my editing."},
    {"role": "assistant", "content": "Noted."},
]


def _forgotten(root: Path, **settings: object):
    agent = planted(root, **settings)
    apply_forget(plan_forget(Scope(agent), "pregnant"))
    assert traces(agent.path) == []
    return agent


def test_an_offline_dream_does_not_bring_it_back(tmp_path: Path) -> None:
    agent = _forgotten(tmp_path)
    # A person writes it into three daily notes by hand: recurring, so a dream would promote it.
    for day in (27, 28, 29):
        agent.append_daily("- Maya is pregnant, due in May.", day=date(2026, 3, day))
    result = dream_agent(Scope(agent))
    assert result.status.value in ("updated", "unchanged")
    assert "pregnan" not in agent.read("MEMORY.md").lower()
    assert "pregnan" not in agent.read("DREAMS.md").lower()


def test_a_dream_whose_model_answers_with_the_fact_does_not_keep_it(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = _forgotten(tmp_path, base_url=fake_openai.base_url, api_key="test", max_retries=0)
    old = agent.read("MEMORY.md")
    fake_openai.queue_json(
        {
            "should_update": True,
            "reason": "Maya is pregnant, due in May, so I added it. Knut stays.",
            "memory_content": old + "- Maya is pregnant, due in May.\n",
        }
    )
    result = dream_agent(Scope(agent))
    assert fake_openai.requests, "the model was asked"
    assert result.status.value == "unchanged"
    assert agent.read("MEMORY.md") == old
    assert traces(agent.path) == []  # nor in DREAMS.md, nor in the dream log's reason


def test_extracting_a_transcript_that_restates_it_does_not_relearn_it(tmp_path: Path) -> None:
    agent = _forgotten(tmp_path)
    result = extract_conversation(Scope(agent), RESTATED, force=True)
    assert result.forgotten >= 1
    assert traces(agent.path) == []


def test_a_model_extraction_that_restates_it_does_not_relearn_it(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = _forgotten(tmp_path, base_url=fake_openai.base_url, api_key="test", max_retries=0)
    profile = agent.read("PROFILE.md")
    fake_openai.queue_json(
        {
            "should_update": True,
            "reason": "a life event and an editor",
            "daily_entry": "- Maya is pregnant again, due in May.\n- Maya moved to Neovim.",
            "memory_update": "",
            "profile_update": profile + "- Maya is pregnant, due in May.\n- Uses Neovim.\n",
        }
    )
    result = extract_conversation(Scope(agent), RESTATED, force=True)
    assert result.forgotten >= 2
    assert "- Uses Neovim." in agent.read("PROFILE.md")
    assert traces(agent.path) == []


def test_importing_an_older_snapshot_does_not_restore_it(tmp_path: Path) -> None:
    agent = planted(tmp_path)
    older = export_snapshot(agent).data
    apply_forget(plan_forget(Scope(agent), "pregnant"))
    result = import_snapshot(agent.workspace, "max", read_snapshot(older))
    notes = {row.path: row.note for row in result.plan.rows}
    assert "forgotten" in notes["PROFILE.md"] and "forgotten" in notes["entries/project.md"]
    assert "Maya lives in Gothenburg." in agent.read("PROFILE.md")
    assert traces(agent.path) == []


def test_a_tool_call_cannot_write_it_back(tmp_path: Path) -> None:
    agent = _forgotten(tmp_path)
    box = ToolBox(Scope(agent), "s-2")

    def call(name: str, **arguments: object) -> tuple[bool, str]:
        record = box.run(ToolCall("c1", name, arguments, json.dumps(arguments)))
        return record.ok, record.result

    memory = agent.read("MEMORY.md")
    ok, said = call("memory_files_write", filename="MEMORY.md", content=memory + "- Pregnant.\n")
    assert not ok and "asked to forget" in said
    ok, said = call(
        "memory_files_edit",
        filename="MEMORY.md",
        old_text="- Knut is a Finnish Lapphund.",
        new_text="- Knut is a Finnish Lapphund.\n- Maya is pregnant, due in May.",
    )
    assert not ok and "asked to forget" in said
    ok, said = call("memory_store", text="Maya is pregnant, due in May")
    assert ok and "skipped" in said
    ok, _ = call("memory_files_write", filename="MEMORY.md", content=memory + "- Likes tea.\n")
    assert ok
    assert traces(agent.path) == []
