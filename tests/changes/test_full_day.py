"""A full day: chat, receipt, undo, dream, morning card, confirm and forget, why, timeline."""

import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from chat.chatkit import EXTRACTION, OpenChat, fixed_clock
from fake_openai import FakeOpenAI
from typer.testing import CliRunner

from memclaw.changes.records import all_changes, find
from memclaw.changes.undo import NothingToUndoError, UndoRefusedError, undo_last
from memclaw.changes.why import why
from memclaw.cli.app import app
from memclaw.dream.run import dream_agent
from memclaw.facts.ids import fact_id
from memclaw.morning.card import latest
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope

THURSDAYS = "Deploys go out on Thursdays after the standup"
STAGING = "The staging cluster is rebuilt every Monday night"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def answers(fake_openai: FakeOpenAI) -> FakeOpenAI:
    fake_openai.default_reply = lambda request: (
        json.dumps(EXTRACTION) if "response_format" in request else "Sure, noted."
    )
    return fake_openai


def chat_once(open_chat: OpenChat) -> Any:
    conversation = open_chat({"extract_cooldown_minutes": 0})
    conversation.turn("I switched my editor to Helix last week.")
    conversation.turn("Helix is my editor now, please keep that in mind.")
    result = conversation.close(wait=10)
    return conversation, result


def test_a_full_day(open_chat: OpenChat, answers: FakeOpenAI, isolated_env: Path) -> None:
    # --- chat, and the receipt of what it wrote -------------------------------------------
    conversation, result = chat_once(open_chat)
    scope = conversation.session.scope
    agent = scope.agent
    assert str(result.status) == "written" and result.change
    receipt = next(n for n in conversation.drain() if n.startswith("memory receipt"))
    helix = "- Editor: Helix."
    assert f"+ {helix}  [{fact_id(helix)}]" in receipt
    assert "MEMORY.md" in receipt and "memory/2026-11-29.md (new)" in receipt
    change = find(scope, result.change)
    assert change is not None and change.kind == "extract"
    assert {f.rel for f in change.files} == {"PROFILE.md", "MEMORY.md", "memory/2026-11-29.md"}

    # --- why: the session and the turn that said it, quoted ----------------------------------
    chain = why(scope, "Editor: Helix.")
    (step,) = [s for s in chain.steps if s.kind == "extract" and s.detail.get("quote")]
    assert step.detail["session"] == conversation.session.id and step.detail["turn"] in (1, 2)
    assert "Helix" in step.detail["quote"] and step.detail["change"] == result.change
    assert ("MEMORY.md", 3, helix) in chain.places

    # --- undo reverts every file of the extraction, then walks further back ------------------
    memory_before = "# Memory\n- Project Atlas ships in December.\n"
    done = undo_last(scope)
    assert done.change.id == result.change
    assert agent.read("MEMORY.md") == memory_before
    assert "Helix" not in agent.read("PROFILE.md")
    assert not (agent.path / "memory/2026-11-29.md").exists()
    again = undo_last(scope)  # the extraction is undone: the next undo is the edit before it
    assert again.change.kind == "edit" and again.change.id != result.change

    # --- undo never reverts over a later hand edit ---------------------------------------------
    _, second = chat_once(open_chat)
    assert second.change
    edited = agent.read("MEMORY.md") + "- A line typed by hand.\n"
    (agent.path / "MEMORY.md").write_text(edited)
    with pytest.raises(UndoRefusedError, match=r"MEMORY\.md was edited after the extract"):
        undo_last(scope)
    assert agent.read("MEMORY.md") == edited
    assert "Helix" in agent.read("PROFILE.md")  # nothing at all was undone

    # --- a dream, offline, with its structured report ----------------------------------------
    offline = Workspace.open(isolated_env, clock=fixed_clock)
    team = Scope(offline.agent("pal"))
    for back in (1, 2, 3):
        day = date(2026, 11, 29) - timedelta(days=back)
        team.append_daily(f"- {THURSDAYS}.\n- {STAGING}.", day=day)
    dreamed = dream_agent(team, model=None)
    assert str(dreamed.status) == "updated" and dreamed.report_path
    assert THURSDAYS in team.read("MEMORY.md")

    # --- the morning card: confirm one fact, forget another ---------------------------------
    card = latest(team)
    assert card is not None
    on_card = {item["text"]: item["fact"] for item in card.items("promoted")}
    keep = next(fid for text, fid in on_card.items() if THURSDAYS in text)
    drop = next(fid for text, fid in on_card.items() if STAGING in text)
    code, stdout, _ = run("morning", "pal", "--json")
    assert code == 0 and keep in {i["fact"] for i in json.loads(stdout)["promoted"]}
    code, stdout, _ = run("morning", "pal", "--confirm", keep, "--forget", drop)
    assert code == 0 and f"confirmed {keep}" in stdout and f"forgotten {drop}" in stdout
    assert STAGING not in team.read("MEMORY.md") and THURSDAYS in team.read("MEMORY.md")
    assert latest(team) is None  # reviewed: not shown again
    code, _, stderr = run("morning", "pal", "--confirm", keep)
    assert code == 2 and "no morning card" in stderr

    # --- why: the dream that promoted it and the confirmation --------------------------------
    chain = why(team, keep)
    kinds = [step.kind for step in chain.steps]
    assert "dream" in kinds and "confirmed" in kinds
    assert any(place[0] == "MEMORY.md" for place in chain.places)
    code, stdout, _ = run("why", "pal", keep, "--json")
    assert code == 0 and json.loads(stdout)["fact"] == keep

    # --- the timeline, newest first -------------------------------------------------------------
    code, stdout, _ = run("timeline", "pal", "--json", "--diff")
    events = json.loads(stdout)
    kinds = [e["kind"] for e in events]
    for expected in ("extract", "undo", "dream", "forget", "dream report", "hand edit"):
        assert expected in kinds, expected
    times = [e["time"] for e in events if e["kind"] != "hand edit"]
    assert times == sorted(times, reverse=True)
    code, stdout, _ = run("timeline", "pal", "--since", "2026-11-29")
    assert code == 0 and "forget" in stdout


def test_undo_with_nothing_to_undo_and_the_cli(open_chat: OpenChat, answers: FakeOpenAI) -> None:
    conversation, _ = chat_once(open_chat)
    scope = conversation.session.scope
    code, stdout, stderr = run("undo", "pal")
    assert code == 0 and "undid the extract" in stderr and "MEMORY.md" in stdout
    while True:
        try:
            undo_last(scope)
        except NothingToUndoError:
            break
    code, _, stderr = run("undo", "pal")
    assert code == 1 and "no memory change to undo" in stderr
    assert all(c.undone_by or c.kind == "undo" for c in all_changes(scope))
