"""A model rewrite over PROFILE.md's ceiling keeps a person's and established lines in."""

from __future__ import annotations

from pathlib import Path

from fake_openai import FakeOpenAI

from extract.extractkit import Clock, model_agent, saying
from memclaw.extract.pipeline import extract_conversation
from memclaw.facts.feedback import give
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

PREFS = [
    "User prefers terse answers with commands first",
    "User prefers dark mode in every editor",
    "User prefers uv over Poetry for Python projects",
    "User likes Swedish cinnamon buns with coffee",
    "User prefers metric units in all answers",
    "User prefers British English spelling",
]
KENJI = "As of 2026-04-29, Kenji Morita from Osaka joined the lotsen rollout as GIS contractor"
PROJECTS = [f"As of 2026-04-29, the user works on part {n} of the lotsen rollout" for n in range(6)]
# What the person said, which the model's new lines are grounded in.
CHAT = saying(
    *(f"I work on part {n} of the lotsen rollout." for n in range(6)),
    "Kenji Morita from Osaka joined the lotsen rollout as our GIS contractor.",
)


def _profile(prefs: list[str]) -> str:
    return (
        "# Profile\n\n## Preferences\n"
        + "".join(f"- {p}\n" for p in prefs)
        + "\n## Projects\n"
        + "".join(f"- {p}\n" for p in PROJECTS)
    )


def _rewrite(fake_openai: FakeOpenAI, profile: str) -> None:
    fake_openai.queue_json(
        {
            "should_update": True,
            "reason": "new project lines",
            "daily_entry": "",
            "memory_update": "",
            "profile_update": profile,
        }
    )


def _check(agent_path: Path, profile: str, overflow: str, kept: list[str]) -> None:
    for pref in kept:
        assert pref in profile and pref not in overflow
    assert sum(p in overflow for p in PROJECTS) >= 4  # the new machine lines went instead
    # The file says what moved where, once.
    assert profile.count("<!-- memclaw moved ") == 1
    assert "entries to PROFILE.overflow.md on 2026-04-29 (600-character ceiling) -->" in profile
    assert len(profile) <= 600


def test_a_models_rewording_of_a_persons_lines_outranks_new_project_lines(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    clock = Clock()
    agent = model_agent(tmp_path, fake_openai.base_url, clock, profile_max_chars=600)
    agent.write("PROFILE.md", "# Profile\n\n## Preferences\n" + "".join(f"- {p}\n" for p in PREFS))
    clock.advance(days=30)
    reworded = [p.replace("User ", "The user ") for p in PREFS]
    _rewrite(fake_openai, _profile(reworded))
    result = extract_conversation(Scope(agent), CHAT, force=True)
    profile = agent.read("PROFILE.md")
    overflow = (agent.path / "PROFILE.overflow.md").read_text(encoding="utf-8")
    _check(agent.path, profile, overflow, reworded)
    assert any("PROFILE.overflow.md" in note for note in result.notes)


def test_long_confirmed_machine_lines_outrank_new_ones(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    clock = Clock()
    agent = model_agent(tmp_path, fake_openai.base_url, clock, profile_max_chars=600)
    text = "# Profile\n\n## Preferences\n" + "".join(f"- {p}\n" for p in PREFS)
    agent.write("PROFILE.md", text, author=Author.MODEL)
    for pref in PREFS:
        give(Scope(agent), pref, good=True)  # confirmed by the person
    clock.advance(days=30)
    _rewrite(fake_openai, _profile(PREFS))
    extract_conversation(Scope(agent), CHAT, force=True)
    profile = agent.read("PROFILE.md")
    overflow = (agent.path / "PROFILE.overflow.md").read_text(encoding="utf-8")
    _check(agent.path, profile, overflow, PREFS)
    # The next move replaces the note rather than adding another.
    _rewrite(fake_openai, profile.replace("## Projects\n", "## Projects\n- " + KENJI + "\n"))
    extract_conversation(Scope(agent), CHAT, force=True)
    again = agent.read("PROFILE.md")
    assert again.count("<!-- memclaw moved ") == 1 and KENJI in again
    assert KENJI not in profile and all(p in again for p in PREFS)
    overflow = (agent.path / "PROFILE.overflow.md").read_text(encoding="utf-8")
    assert sum(p in overflow for p in PROJECTS) == 5
