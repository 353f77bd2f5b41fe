"""Extraction with a model, against the local fake OpenAI server."""

import json
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from extract.extractkit import CHAT, model_agent, saying, tree
from memclaw.extract.pipeline import extract_conversation
from memclaw.extract.result import Status
from memclaw.workspace.logs import read_log
from memclaw.workspace.safeguards import history
from memclaw.workspace.scope import Scope

NEW_PROFILE = "# Profile\n\n## Identity\n\n- The user is Sarah, an engineer at Cloudflare.\n"
NEW_MEMORY = (
    "# Memory\n\n## Decisions\n\n- As of 2026-03-30, the team switched monitoring from "
    "Datadog to Grafana because of cost.\n"
)


def answer(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "should_update": True,
        "reason": "identity and a decision",
        "daily_entry": "- Sarah (Cloudflare) moved monitoring to Grafana.",
        "memory_update": NEW_MEMORY,
        "profile_update": NEW_PROFILE,
    }
    base.update(fields)
    return base


def test_model_answer_is_written_by_the_rules(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    old_profile = agent.read("PROFILE.md")
    fake_openai.queue_json(answer())
    result = extract_conversation(Scope(agent), CHAT)
    assert result.status is Status.WRITTEN and str(result.engine) == "model"
    assert agent.read("PROFILE.md") == NEW_PROFILE
    assert agent.read("MEMORY.md") == NEW_MEMORY
    note = agent.read("memory/2026-03-30.md")
    assert note.startswith("# 2026-03-30\n") and "## 14:05\n- Sarah (Cloudflare)" in note
    kept = history.versions(agent, "PROFILE.md")
    assert [history.read(agent, v) for v in kept] == [old_profile]
    assert result.tokens > 0
    (record,) = read_log(agent, "extract")
    assert record["engine"] == "model" and record["tokens"]["prompt"] > 0
    # The model saw the filtered transcript and the current files.
    prompt = json.dumps(fake_openai.last_request().body)
    assert "Cloudflare" in prompt and "## Tech stack" in prompt


def test_an_answer_memory_already_holds_says_nothing_new(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    fake_openai.queue_json(answer())
    extract_conversation(Scope(agent), CHAT)
    fake_openai.queue_json(answer(daily_entry="", reason="one new fact"))
    again = extract_conversation(Scope(agent), CHAT, again=True, force=True)
    # Not "nothing-to-keep: one new fact": the reason says why nothing was written.
    assert again.status is Status.NOTHING
    assert again.reason.startswith("nothing new to write"), again.reason


def test_empty_fields_leave_files_alone(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    before = agent.read("PROFILE.md")
    fake_openai.queue_json(answer(profile_update="", daily_entry="   "))
    result = extract_conversation(Scope(agent), CHAT)
    assert result.files_changed == ["MEMORY.md"]
    assert agent.read("PROFILE.md") == before
    assert not (agent.path / "memory").exists()


def test_should_update_false_writes_nothing(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    before = tree(agent.path)
    fake_openai.queue_json(answer(should_update=False, reason="small talk only"))
    result = extract_conversation(Scope(agent), CHAT)
    assert result.status is Status.NOTHING and result.reason == "small talk only"
    after = tree(agent.path)
    assert {k: v for k, v in after.items() if not k.startswith(".memclaw/")} == {
        k: v for k, v in before.items() if not k.startswith(".memclaw/")
    }


@pytest.mark.parametrize(
    "reply",
    [
        "I think the user likes Grafana.",
        json.dumps({"should_update": True, "reason": "x"}),
        json.dumps(answer(should_update="yes")),
        json.dumps([1, 2, 3]),
    ],
)
def test_an_answer_not_the_json_asked_for_is_extracted_offline_instead(
    tmp_path: Path, fake_openai: FakeOpenAI, reply: str
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    fake_openai.queue_text(reply)
    result = extract_conversation(Scope(agent), CHAT)
    assert str(result.engine) == "offline" and result.status is Status.WRITTEN
    assert result.notes == ["the model's answer was not the JSON asked for: offline engine used"]
    assert "Grafana" in agent.read("memory/2026-03-30.md")  # what the offline engine kept
    (record,) = read_log(agent, "extract")
    assert record["status"] == "written" and record["engine"] == "offline"


def test_fenced_json_is_still_accepted(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    fake_openai.queue_text("Here you go:\n```json\n" + json.dumps(answer()) + "\n```")
    assert extract_conversation(Scope(agent), CHAT).status is Status.WRITTEN


def test_secrets_in_the_model_output_are_redacted_before_writing(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    key = "ghp_" + "R8kq2Lx7Vw4Nz1Tb6Yc9Pm3Hd5Js0Ga8Fe2Ku"
    fake_openai.queue_json(
        answer(memory_update=NEW_MEMORY + f"- Deploy token: {key}\n", daily_entry=f"- token {key}")
    )
    said = saying(f"Our deploy token is {key}, keep it safe.")
    result = extract_conversation(Scope(agent), said)
    assert result.status is Status.WRITTEN and result.redacted == 2
    assert key not in agent.read("MEMORY.md") and "[REDACTED:" in agent.read("MEMORY.md")
    assert key not in agent.read("memory/2026-03-30.md")
    (record,) = read_log(agent, "extract")
    assert record["redacted"] == 2


def test_secrets_in_the_chat_are_redacted_before_the_model(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    key = "sk-proj-" + "Xq7Lm2Nw8Rt4Vb1Zc6Ky9Pd3Hs5Jf0Ga"
    chat = [*CHAT, {"role": "user", "content": f"and the key is {key} for the mailer"}]
    fake_openai.queue_json(answer(should_update=False))
    extract_conversation(Scope(agent), chat)
    assert key not in json.dumps(fake_openai.last_request().body)


def test_ceiling_applies_to_a_model_rewrite(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url, memory_max_chars=300)
    long_memory = "# Memory\n\n" + "".join(
        f"## Topic {i}\n\n- A fact about topic {i} that takes some room.\n\n" for i in range(20)
    )
    fake_openai.queue_json(answer(memory_update=long_memory))
    said = saying(*(f"Note a fact about topic {i}, it takes some room." for i in range(20)))
    result = extract_conversation(Scope(agent), said)
    memory = agent.read("MEMORY.md")
    overflow = (agent.path / "MEMORY.overflow.md").read_text(encoding="utf-8")
    assert len(memory) <= 300
    for i in range(20):  # every fact the model wrote is kept, in the file or its overflow
        fact = f"- A fact about topic {i} that takes some room."
        assert (fact in memory) != (fact in overflow)
    assert "- A fact about topic 0 " in overflow  # the oldest (here: first) went first
    assert any("MEMORY.overflow.md" in note for note in result.notes)
    # The prompt told the model the limit.
    assert "At most 300 characters" in json.dumps(fake_openai.last_request().body)


def test_dry_run_with_a_model_shows_diffs_only(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    before = tree(agent.path)
    fake_openai.queue_json(answer())
    result = extract_conversation(Scope(agent), CHAT, dry_run=True)
    assert tree(agent.path) == before
    assert "+- The user is Sarah, an engineer at Cloudflare." in result.diffs["PROFILE.md"]


def test_a_forgotten_fact_is_not_written_back(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    from memclaw.entries.forgetting import forget
    from memclaw.entries.memories import remember

    agent = model_agent(tmp_path, fake_openai.base_url)
    entry = remember(
        Scope(agent), "The team switched monitoring from Datadog to Grafana", category="decision"
    ).entry
    assert entry is not None
    forget(Scope(agent), id=entry.id)
    fake_openai.queue_json(answer())
    result = extract_conversation(Scope(agent), CHAT)
    assert "Grafana" not in agent.read("MEMORY.md")
    assert result.forgotten == 1  # the MEMORY.md line; the daily line words it differently


class EditingModel:
    """A stand-in model that edits MEMORY.md by hand while it 'thinks'."""

    name = "editing"

    def __init__(self, agent: object) -> None:
        self.agent = agent

    def chat_json(self, messages: object, **kwargs: object) -> dict[str, object]:
        path = self.agent.path / "MEMORY.md"  # type: ignore[attr-defined]
        path.write_text(path.read_text() + "\n- Edited by hand during extraction.\n")
        return answer()


def test_a_hand_edit_during_the_model_call_and_the_model_answer_both_land(tmp_path: Path) -> None:
    agent = model_agent(tmp_path, "http://127.0.0.1:9")
    result = extract_conversation(Scope(agent), CHAT, model=EditingModel(agent))  # type: ignore[arg-type]
    memory = agent.read("MEMORY.md")
    assert "- Edited by hand during extraction.\n" in memory
    assert all(line in memory for line in NEW_MEMORY.splitlines() if line.strip())
    assert agent.read("PROFILE.md") == NEW_PROFILE
    assert "MEMORY.md" in result.files_changed
