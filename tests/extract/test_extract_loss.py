"""Extraction against the loss guard: a truncated answer never replaces what a person wrote."""

from __future__ import annotations

from pathlib import Path

from fake_openai import FakeOpenAI

from extract.extractkit import CHAT, make_agent, model_agent
from memclaw.extract.pipeline import extract_conversation
from memclaw.extract.result import Status
from memclaw.workspace.logs import read_log
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


def test_a_truncated_memory_update_is_refused_and_logged(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    agent.write("MEMORY.md", PERSONS_MEMORY)
    fake_openai.queue_json(_answer(TRUNCATED))

    result = extract_conversation(Scope(agent), CHAT)

    assert agent.read("MEMORY.md") == PERSONS_MEMORY
    assert "MEMORY.md" not in result.files_changed
    assert result.files_changed == ["memory/2026-03-30.md"]  # the daily note still lands
    assert any(
        "MEMORY.md: refused" in note and "20 lines a person wrote" in note for note in result.notes
    )
    (record,) = read_log(agent, "extract")
    assert record["refused"]["MEMORY.md"] == FACTS


def test_dropped_lines_are_redacted_in_the_log(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    # A person's hand edit may hold a credential; the log must not copy it.
    hand = PERSONS_MEMORY + f"- The CI token is {TOKEN}\n"
    (agent.path / "MEMORY.md").write_text(hand, encoding="utf-8")
    fake_openai.queue_json(_answer(TRUNCATED))

    extract_conversation(Scope(agent), CHAT)

    assert agent.read("MEMORY.md") == hand
    (record,) = read_log(agent, "extract")
    dropped = record["refused"]["MEMORY.md"]
    # The credential line is not counted as memory the rewrite dropped; the 20 facts are.
    assert len(dropped) == 20 and not any("CI token" in line for line in dropped)
    assert TOKEN not in (agent.meta_dir / "logs" / "extract.jsonl").read_text()
    assert not any(TOKEN in p.read_text() for p in (agent.meta_dir / "guard").rglob("*.json"))


def test_a_dry_run_reports_the_refusal_and_no_diff(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    agent.write("MEMORY.md", PERSONS_MEMORY)
    fake_openai.queue_json(_answer(TRUNCATED))

    result = extract_conversation(Scope(agent), CHAT, dry_run=True)

    assert "MEMORY.md" not in result.diffs and result.refused["MEMORY.md"] == FACTS
    assert result.status is Status.WOULD_WRITE  # the daily note would still be written


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
    # A guarded rewrite leaves its baseline beside the history.
    assert list((agent.meta_dir / "guard").glob("*.md.json"))
