"""Dreams against the loss guard: drops add up from what a person saw, writes never race."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI

from dream.dreamkit import MEMORY, day, model_workspace, note
from memclaw.dream.run import DreamStatus, dream_agent
from memclaw.dream.runlog import dream_undo
from memclaw.workspace import Agent
from memclaw.workspace.logs import read_log
from memclaw.workspace.safeguards.guard import entry_lines
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

FACT = "Maya prefers uv over Poetry for every Python project."
TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def _agent(
    root: Path, server: FakeOpenAI, author: Author = Author.PERSON, **extra: object
) -> Agent:
    agent, _ = model_workspace(root, server.base_url, **extra).init_agent("demo")
    agent.write("MEMORY.md", MEMORY, author=author)  # 8 entries, by a person or a model
    for offset in (4, 3, 2):
        note(agent, day(offset), FACT)
    return agent


def _answer(content: str, reason: str = "tidied MEMORY.md") -> str:
    return json.dumps({"should_update": True, "reason": reason, "memory_content": content})


def _drop_first_entry(text: str) -> str:
    lines = text.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.startswith("- "))
    return "".join(lines[:first] + lines[first + 1 :])


@pytest.mark.parametrize(
    ("author", "ratio", "survivors"),
    [
        (Author.PERSON, 0.25, 8),  # a person's facts are never eroded, whatever the budget
        (Author.MODEL, 0.25, 6),  # facts machines wrote: drops add up to the budget
        (Author.MODEL, 0.0, 8),
    ],
)
def test_twenty_dreams_that_each_drop_a_fact_stop_at_the_budget(
    tmp_path: Path, fake_openai: FakeOpenAI, author: Author, ratio: float, survivors: int
) -> None:
    agent = _agent(tmp_path / "ws", fake_openai, author, dream_max_loss_ratio=ratio)
    written = entry_lines(MEMORY)
    # Each answer is today's MEMORY.md less one fact: small per run, fatal when it adds up.
    fake_openai.default_reply = lambda _request: _answer(_drop_first_entry(agent.read("MEMORY.md")))

    statuses = [dream_agent(Scope(agent)).status for _ in range(20)]

    left = entry_lines(agent.read("MEMORY.md"))
    assert sum(entry in left for entry in written) == survivors
    assert len(written) - survivors <= ratio * len(written)
    assert statuses.count(DreamStatus.UPDATED) == len(written) - survivors
    assert statuses.count(DreamStatus.REFUSED) == 20 - (len(written) - survivors)
    refused = [r for r in read_log(agent, "dream") if r["status"] == "refused"]
    assert refused and all(r["dropped"] for r in refused)
    why = "a person wrote" if author is Author.PERSON else "counted from the version a person"
    assert why in refused[-1]["reason"]


def test_a_person_edit_starts_a_new_budget(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = _agent(tmp_path / "ws", fake_openai, Author.MODEL)
    fake_openai.default_reply = lambda _request: _answer(_drop_first_entry(agent.read("MEMORY.md")))
    for _ in range(3):
        dream_agent(Scope(agent))
    assert len(entry_lines(agent.read("MEMORY.md"))) == 6  # the budget of 2 is spent
    # The person looks at what is left and adds a fact: that version is the new baseline.
    agent.write("MEMORY.md", agent.read("MEMORY.md") + "\n## Notes\n\n- Lotta runs CI.\n")
    assert dream_agent(Scope(agent)).status is DreamStatus.UPDATED
    assert dream_agent(Scope(agent)).status is DreamStatus.REFUSED  # 2 of 7 is over 25 %


def test_a_hand_edit_between_the_dream_and_its_write_is_kept_and_the_dream_lands_too(
    tmp_path: Path, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = _agent(tmp_path / "ws", fake_openai)
    fake_openai.queue_json(
        {
            "should_update": True,
            "reason": "uv",
            "memory_content": MEMORY + f"\n## Tools\n\n- {FACT}\n",
        }
    )
    hand = MEMORY.replace("- Kenji Morita", "- Lotta Berg is the new PM.\n- Kenji Morita")
    original = Agent.update

    def edit_first(self: Agent, name: str, *args: Any, **kwargs: Any) -> Any:
        # The person saves in an editor after the dream last looked, before it writes.
        if name == "MEMORY.md" and self.read(name) == MEMORY:
            (self.path / name).write_text(hand, encoding="utf-8")
        return original(self, name, *args, **kwargs)

    monkeypatch.setattr(Agent, "update", edit_first)
    result = dream_agent(Scope(agent))

    # The person's line stays, and the dream's section is added to their version.
    assert agent.read("MEMORY.md") == hand + f"\n## Tools\n\n- {FACT}\n"
    assert result.status is DreamStatus.UPDATED
    assert [r["status"] for r in read_log(agent, "dream")] == ["updated"]


def test_a_hand_edit_while_the_model_thinks_and_the_dream_both_land(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = _agent(tmp_path / "ws", fake_openai)
    hand = MEMORY + "\n## Notes\n\n- Lotta Berg is the new PM.\n"

    def reply(_request: dict[str, Any]) -> str:
        (agent.path / "MEMORY.md").write_text(hand, encoding="utf-8")
        return _answer(MEMORY + f"\n## Tools\n\n- {FACT}\n")

    fake_openai.default_reply = reply
    assert dream_agent(Scope(agent)).status is DreamStatus.UPDATED
    tools = f"\n## Tools\n\n- {FACT}\n"
    assert agent.read("MEMORY.md") == MEMORY + tools + "\n## Notes\n\n- Lotta Berg is the new PM.\n"


def test_a_secret_in_the_reason_reaches_no_file_and_the_run_stays_undoable(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    root = tmp_path / "ws"
    agent = _agent(root, fake_openai)
    learned = MEMORY + f"\n## Tools\n\n- {FACT}\n"
    fake_openai.default_reply = lambda _request: _answer(
        learned, reason=f"uv recurred; the deploy token {TOKEN} was in the notes"
    )

    result = dream_agent(Scope(agent))

    assert result.status is DreamStatus.UPDATED and TOKEN not in result.reason
    assert agent.read("MEMORY.md") == learned
    assert "[REDACTED:" in agent.read("DREAMS.md")
    for path in root.rglob("*"):
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes(), path
    undone = dream_undo(Scope(agent))
    assert undone["undid_run_of"] is not None
    assert agent.read("MEMORY.md") == MEMORY


def test_undo_of_a_dream_that_created_memory_md(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = _agent(tmp_path / "ws", fake_openai)
    (agent.path / "MEMORY.md").unlink()
    fake_openai.queue_json({"should_update": True, "reason": "uv", "memory_content": f"- {FACT}\n"})
    assert dream_agent(Scope(agent)).status is DreamStatus.UPDATED
    dream_undo(Scope(agent))
    assert agent.read("MEMORY.md") == ""
