"""Dreaming with a model, against the local fake OpenAI server."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from dream.dreamkit import MEMORY, day, model_workspace, note, tree
from memclaw.dream.run import DreamStatus, dream_agent
from memclaw.errors import ModelError
from memclaw.workspace.logs import read_log
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

FACT = "Maya prefers uv over Poetry for every Python project."


def _agent(root: Path, server: FakeOpenAI, **extra: object):
    ws = model_workspace(root, server.base_url, **extra)
    agent, _ = ws.init_agent("demo")
    agent.write("MEMORY.md", MEMORY)
    for offset in (4, 3, 2):
        note(agent, day(offset), FACT)
    return agent


def _answer(content: str, update: bool = True) -> dict[str, object]:
    return {
        "should_update": update,
        "reason": "uv recurred on three days",
        "memory_content": content,
    }


def test_the_model_gets_notes_memory_and_ranked_candidates(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = _agent(tmp_path / "ws", fake_openai)
    new = MEMORY.replace("## People", f"- {FACT}\n\n## People")
    fake_openai.queue_json(_answer(new))

    result = dream_agent(Scope(agent))

    assert result.status is DreamStatus.UPDATED
    assert result.engine == "model gpt-4o-mini"
    assert agent.read("MEMORY.md") == new
    body = fake_openai.last_request().body
    prompt = body["messages"][-1]["content"]
    assert "<memory_md>" in prompt and "Jonas Ek is the CTO" in prompt
    assert f"days {day(4)}, {day(3)}, {day(2)}] {FACT}" in prompt
    assert f"--- memory/{day(2)}.md ---" in prompt
    assert '"## Rules (hand-edited)"' in prompt
    diary = agent.read("DREAMS.md")
    assert "uv recurred on three days" in diary and "Engine: model gpt-4o-mini" in diary
    # Dreaming is not a conversation: no transcript, no extraction.
    assert not (agent.path / "sessions").exists()
    assert list(read_log(agent, "extract")) == []


def test_should_update_false_leaves_memory_alone(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = _agent(tmp_path / "ws", fake_openai)
    fake_openai.queue_json(_answer("", update=False))
    result = dream_agent(Scope(agent))
    assert result.status is DreamStatus.UNCHANGED
    assert agent.read("MEMORY.md") == MEMORY
    assert "## 2026-11-28 03:00" in agent.read("DREAMS.md")


def test_a_rewrite_dropping_more_than_a_quarter_is_refused_and_logged(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = _agent(tmp_path / "ws", fake_openai)
    agent.write("MEMORY.md", "# Memory\n")
    agent.write("MEMORY.md", MEMORY, author=Author.MODEL)  # earlier dreams wrote these
    # 8 entries today; this answer keeps the hand-edited two and one more: 5 of 8 lost.
    slim = "# Memory\n\n## Decisions\n\n- lotsen uses uv instead of Poetry since 2026-11-18.\n"
    fake_openai.queue_json(_answer(slim))

    result = dream_agent(Scope(agent))

    assert result.status is DreamStatus.REFUSED
    assert "drop 5 of 8 entries" in result.reason
    assert agent.read("MEMORY.md") == MEMORY
    (record,) = list(read_log(agent, "dream"))
    assert record["status"] == "refused" and record["lost_entries"] == 5
    assert "rewrite refused" in agent.read("DREAMS.md")


def test_dropping_exactly_a_quarter_is_allowed(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = _agent(tmp_path / "ws", fake_openai)
    agent.write("MEMORY.md", "# Memory\n")
    agent.write("MEMORY.md", MEMORY, author=Author.MODEL)  # earlier dreams wrote these
    lines = MEMORY.splitlines(keepends=True)
    drop = {
        "- CI caches uv downloads with setup-uv.\n",
        "- Kenji Morita is a GIS contractor in Osaka.\n",
    }
    fake_openai.queue_json(_answer("".join(line for line in lines if line not in drop)))
    assert dream_agent(Scope(agent)).status is DreamStatus.UPDATED  # 2 of 8 = 25 %


def test_hand_edited_sections_come_back_verbatim(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = _agent(tmp_path / "ws", fake_openai)
    marked = MEMORY.replace("## People\n", "## People\n<!-- memclaw:keep -->\n")
    agent.write("MEMORY.md", marked)
    # The model rewrites the People section and drops the Rules section entirely.
    answer = marked.replace("- Jonas Ek is the CTO", "- Jonas is CTO")
    answer = answer[: answer.index("## Rules (hand-edited)")] + f"## Tools\n\n- {FACT}\n"
    fake_openai.queue_json(_answer(answer))

    result = dream_agent(Scope(agent))

    memory = agent.read("MEMORY.md")
    people = marked[marked.index("## People") : marked.index("## Rules")]
    rules = marked[marked.index("## Rules (hand-edited)") :]
    assert people in memory and rules in memory
    assert f"- {FACT}" in memory
    assert memory.index("## Rules (hand-edited)") < memory.index("## Tools")
    assert sorted(result.restored_sections) == ["People", "Rules (hand-edited)"]


def test_a_model_error_fails_the_run_and_is_logged(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = _agent(tmp_path / "ws", fake_openai)
    fake_openai.queue_error(500, "boom")
    with pytest.raises(ModelError):
        dream_agent(Scope(agent))
    assert agent.read("MEMORY.md") == MEMORY
    assert [r["status"] for r in read_log(agent, "dream")] == ["failed"]


def test_a_dry_run_with_a_model_writes_nothing(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = _agent(tmp_path / "ws", fake_openai)
    fake_openai.queue_json(_answer(MEMORY + f"\n## Tools\n\n- {FACT}\n"))
    before = tree(tmp_path / "ws")
    result = dream_agent(Scope(agent), dry_run=True)
    assert tree(tmp_path / "ws") == before
    assert result.status is DreamStatus.UPDATED and "+## Tools" in result.diff


def test_two_concurrent_dreams_of_one_agent_run_once(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = _agent(tmp_path / "ws", fake_openai)
    fake_openai.queue_json(_answer(MEMORY + f"\n## Tools\n\n- {FACT}\n"), delay=0.5)
    fake_openai.queue_json(_answer(MEMORY + "\n## Other\n\n- a second answer\n"))
    results: list[DreamStatus] = []

    def run() -> None:
        results.append(dream_agent(Scope(agent)).status)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(results) == [DreamStatus.SKIPPED, DreamStatus.UPDATED]
    assert "## Tools" in agent.read("MEMORY.md")
    assert "a second answer" not in agent.read("MEMORY.md")
    assert agent.read("DREAMS.md").count("## 2026-11-28 03:00") == 1


DUPLICATED = """\
# Memory

## Rules (hand-edited)

- Never book meetings before 10:00.

## People

- Jonas Ek is the CTO and signs off cutover dates.

## Rules (hand-edited)

- Always answer Maya in English.
"""
FIRST_RULES = DUPLICATED[DUPLICATED.index("## Rules") : DUPLICATED.index("## People")]
SECOND_RULES = DUPLICATED[DUPLICATED.rindex("## Rules") :]
LEARNED = DUPLICATED.replace("## People\n\n", f"## People\n\n- {FACT}\n")


@pytest.mark.parametrize(
    ("answer", "restored"),
    [
        # The model keeps both sections as they were and adds its fact.
        (LEARNED, 0),
        # It drops the second one ...
        (LEARNED.replace(SECOND_RULES, ""), 1),
        # ... or the first one.
        (LEARNED.replace(FIRST_RULES, ""), 1),
        # Or it rewrites both.
        (LEARNED.replace("Never", "Do not").replace("Always", "Please"), 2),
    ],
)
def test_a_duplicated_hand_edited_heading_keeps_each_section_once(
    tmp_path: Path, fake_openai: FakeOpenAI, answer: str, restored: int
) -> None:
    agent = _agent(tmp_path / "ws", fake_openai)
    agent.write("MEMORY.md", DUPLICATED)
    fake_openai.queue_json(_answer(answer))

    result = dream_agent(Scope(agent))

    memory = agent.read("MEMORY.md")
    assert result.status is DreamStatus.UPDATED and f"- {FACT}" in memory
    assert memory.count(FIRST_RULES.strip()) == 1 and memory.count(SECOND_RULES.strip()) == 1
    assert memory.count("Never book meetings") == 1 and memory.count("answer Maya") == 1
    assert memory.count("## Rules (hand-edited)") == 2
    assert memory.index("Never book") < memory.index("Jonas Ek") < memory.index("answer Maya")
    assert len(result.restored_sections) == restored
