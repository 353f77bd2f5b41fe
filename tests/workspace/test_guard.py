"""The loss guard: drops are counted from the last version a person saw, in one lock hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from memclaw.errors import WorkspaceError
from memclaw.workspace import Agent, Workspace, ledger
from memclaw.workspace.safeguards.guard import (
    LossRefusedError,
    baseline_entries,
    document,
    measure_loss,
    rewrite,
)
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

FACTS = [
    "Maya leads the lotsen migration to PostgreSQL 16.",
    "Jonas Ek signs off every cutover date.",
    "Kenji Morita maps the Osaka depots in QGIS.",
    "The staging database lives in eu-north-1.",
    "CI caches uv downloads with setup-uv.",
    "Backups run nightly at 02:00 to the cold bucket.",
    "Release notes are written in English and Swedish.",
    "The on-call rota changes every Monday morning.",
]


def _memory(facts: list[str]) -> str:
    return "# Memory\n\n## Facts\n\n" + "".join(f"- {fact}\n" for fact in facts)


def _agent(tmp_path: Path) -> Agent:
    agent, _ = Workspace.open(tmp_path / "ws", env={}).init_agent("demo")
    agent.write("MEMORY.md", _memory(FACTS), author=Author.MODEL)  # facts a model wrote
    return agent


def _rewrite(agent: Agent, facts: list[str]) -> None:
    rewrite(Scope(agent), "MEMORY.md", expected=agent.read("MEMORY.md"), new=_memory(facts))


def test_reworded_and_merged_entries_count_as_kept() -> None:
    old = "- Jonas Ek signs off every cutover date.\n- Maya prefers uv.\n- Kenji lives in Osaka.\n"
    new = (
        "- Jonas Ek signs off all cutover dates.\n"
        "- Maya prefers uv; Kenji Morita lives in Osaka and maps depots.\n"
    )
    assert measure_loss(old, new).lost == []
    assert measure_loss(old, "- Jonas Ek signs off all cutover dates.\n").lost == [
        "Maya prefers uv.",
        "Kenji lives in Osaka.",
    ]


def test_drops_add_up_across_rewrites_until_the_budget_is_spent(tmp_path: Path) -> None:
    agent = _agent(tmp_path)
    _rewrite(agent, FACTS[1:])  # 1 of 8
    _rewrite(agent, FACTS[2:])  # 2 of 8: exactly the 25 % budget
    before = agent.read("MEMORY.md")
    with pytest.raises(LossRefusedError) as refused:
        _rewrite(agent, FACTS[3:])  # 1 of 6 on its own, but 3 of 8 since the person looked
    assert agent.read("MEMORY.md") == before
    assert refused.value.verdict.lost == [FACTS[0], FACTS[1], FACTS[2]]
    assert "3 of 8 entries" in str(refused.value)


def test_additions_and_rewordings_never_spend_the_budget(tmp_path: Path) -> None:
    agent = _agent(tmp_path)
    for i in range(10):
        reworded = [fact.replace(".", "!") for fact in FACTS]
        _rewrite(agent, [*reworded, f"New fact number {i} about the depots."])
    assert all(fact.rstrip(".") in agent.read("MEMORY.md") for fact in FACTS)


def test_a_hand_edit_makes_a_new_baseline(tmp_path: Path) -> None:
    agent = _agent(tmp_path)
    _rewrite(agent, FACTS[2:])  # the budget is spent
    # The person deletes a line and adds one in their editor: that is what they saw.
    hand = _memory([*FACTS[3:], "Lotta Berg is the new PM."])
    (agent.path / "MEMORY.md").write_text(hand, encoding="utf-8")
    _rewrite(agent, [*FACTS[4:], "Lotta Berg is the new PM."])  # 1 of 6: allowed again
    with pytest.raises(LossRefusedError):
        _rewrite(agent, [*FACTS[5:], "Lotta Berg is the new PM."])  # 2 of 6


def test_a_rewrite_of_a_file_changed_since_it_was_read_is_applied_to_the_newer_version(
    tmp_path: Path,
) -> None:
    agent = _agent(tmp_path)
    stale = agent.read("MEMORY.md")
    agent.write("MEMORY.md", _memory([*FACTS, "Lotta Berg is the new PM."]))  # meanwhile
    rewrite(Scope(agent), "MEMORY.md", expected=stale, new=_memory([*FACTS[1:], "Ships May 4."]))
    assert agent.read("MEMORY.md") == _memory(
        [*FACTS[1:], "Ships May 4.", "Lotta Berg is the new PM."]
    )


def test_a_damaged_state_makes_the_current_version_the_baseline(tmp_path: Path) -> None:
    agent = _agent(tmp_path)
    _rewrite(agent, FACTS[2:])
    ledger.save(agent.meta_dir, document("MEMORY.md"), ["not", "a", "baseline"])
    _rewrite(agent, FACTS[3:])  # 1 of 6 from what is there now
    assert agent.read("MEMORY.md") == _memory(FACTS[3:])


def test_each_owner_has_its_own_baseline(tmp_path: Path) -> None:
    agent = _agent(tmp_path)
    maya = Scope.resolve(agent, "maya")
    maya.write("MEMORY.md", _memory(FACTS), author=Author.MODEL)
    rewrite(maya, "MEMORY.md", expected=maya.read("MEMORY.md"), new=_memory(FACTS[2:]))
    _rewrite(agent, FACTS[2:])  # TEAM's budget is untouched by Maya's rewrite
    assert ledger.load(agent.meta_dir, document(maya.rel("MEMORY.md")))[0] is not None


def test_only_profile_and_memory_are_guarded(tmp_path: Path) -> None:
    agent = _agent(tmp_path)
    with pytest.raises(WorkspaceError, match="not a file the loss guard protects"):
        rewrite(Scope(agent), "AGENTS.md", expected=agent.read("AGENTS.md"), new="x\n")


def test_a_rewrite_the_ceiling_trims_keeps_its_baseline(tmp_path: Path) -> None:
    agent, _ = Workspace.open(
        tmp_path / "ws", env={}, overrides={"memory_max_chars": 700}
    ).init_agent("demo")
    agent.write("MEMORY.md", _memory(FACTS))  # a person's: the ceiling moves only model notes
    extra = [f"Model note {i}: the depot survey of week {i} found nothing new." for i in range(8)]
    _rewrite(agent, [*FACTS, *extra])  # the ceiling moves some model notes out
    landed = agent.read("MEMORY.md")
    assert landed != _memory([*FACTS, *extra]) and all(fact in landed for fact in FACTS)
    # The text the ceiling left is recognised as the guard's own: the person's eight
    # stay the baseline rather than the trimmed file.
    assert baseline_entries(agent, "MEMORY.md", landed) == FACTS
    kept = [line for line in landed.splitlines() if FACTS[1] not in line and FACTS[2] not in line]
    with pytest.raises(LossRefusedError):
        rewrite(Scope(agent), "MEMORY.md", expected=landed, new="\n".join(kept) + "\n")


def test_a_line_a_person_wrote_is_never_dropped_whatever_the_budget(tmp_path: Path) -> None:
    agent, _ = Workspace.open(tmp_path / "ws", env={}).init_agent("demo")
    agent.write("MEMORY.md", _memory(FACTS))  # typed by a person
    before = agent.read("MEMORY.md")
    with pytest.raises(LossRefusedError) as refused:
        _rewrite(agent, FACTS[1:])  # 1 of 8 is within the budget, but it is the person's
    assert agent.read("MEMORY.md") == before
    assert refused.value.verdict.personal == [FACTS[0]]
    assert "a person wrote" in str(refused.value)
    reworded = [FACTS[0].replace("leads", "is leading"), *FACTS[1:], "A model's new fact."]
    _rewrite(agent, reworded)  # rewording and adding stay allowed
    assert "is leading" in agent.read("MEMORY.md")
