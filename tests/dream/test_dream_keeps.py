"""What dreams keep: lines a correction outdates, and a ceiling that spares a person's lines."""

from __future__ import annotations

from pathlib import Path

from dream.dreamkit import day, note, workspace
from memclaw.changes.undo import undo_last
from memclaw.dream.run import dream_agent
from memclaw.facts import inbox
from memclaw.facts.ids import fact_id
from memclaw.facts.store import load_events
from memclaw.judgement import superseded_by
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

ON_TRACK = "The lotsen migration is on track for the 2026-12-12 cutover"
FIX = "The PostGIS cutover moved to 2026-12-19"
OTHER = "Kenji Morita is a GIS contractor in Osaka"


def test_a_correction_outdates_a_line_about_another_subject() -> None:
    assert superseded_by(ON_TRACK, FIX)
    assert superseded_by(f"As of 2026-11-20, user is migrating lotsen, {ON_TRACK[4:]}", FIX)
    assert not superseded_by("The PostGIS training for Kenji is on 2026-12-01", FIX)
    assert not superseded_by("The cutover window is 02:00 to 04:00", FIX)
    assert not superseded_by(FIX, FIX)
    assert not superseded_by(ON_TRACK, "We held a cutover planning session on 2026-11-27")


def test_a_correction_of_server_alphas_upgrade_outdates_neither_betas_nor_alphas_invoice() -> None:
    fix = "Correction: the Postgres 16 upgrade of server alpha was postponed to 2027-01-03."
    upgrade = "The Postgres 16 upgrade of server {} is planned for 2026-12-{}, owned by Karin."
    assert superseded_by(upgrade.format("alpha", 20), fix)
    assert not superseded_by(upgrade.format("beta", 27), fix)
    assert not superseded_by(
        "Invoice 7781 from Hetzner (server alpha hosting) is due 2026-12-31.", fix
    )


def test_a_dream_rewrites_a_machine_line_a_correction_outdates(tmp_path: Path) -> None:
    agent, _ = workspace(tmp_path).init_agent("demo")
    before = f"# Memory\n\n## Projects\n- {ON_TRACK}\n- {OTHER}\n"
    agent.write("MEMORY.md", before, author=Author.MODEL)
    note(agent, day(1), FIX)
    result = dream_agent(Scope(agent))
    memory = agent.read("MEMORY.md")
    assert "2026-12-12" not in memory and f"- {FIX}\n" in memory and OTHER in memory
    assert FIX in result.facts.corrected
    assert load_events(agent)[fact_id(ON_TRACK)][-1].kind == "superseded"
    again = dream_agent(Scope(agent))
    assert agent.read("MEMORY.md") == memory and again.facts.corrected == []
    undo_last(Scope(agent))  # the second dream changed nothing: the first is undone
    undo_last(Scope(agent))
    assert agent.read("MEMORY.md") == before


def test_the_correction_already_there_means_the_old_line_just_goes(tmp_path: Path) -> None:
    agent, _ = workspace(tmp_path).init_agent("demo")
    agent.write("MEMORY.md", f"# Memory\n\n- {ON_TRACK}\n- {FIX}\n", author=Author.MODEL)
    note(agent, day(1), FIX)
    dream_agent(Scope(agent))
    memory = agent.read("MEMORY.md")
    assert "2026-12-12" not in memory and memory.count(FIX) == 1


def test_a_persons_outdated_line_waits_in_the_inbox(tmp_path: Path) -> None:
    agent, _ = workspace(tmp_path).init_agent("demo")
    agent.write("MEMORY.md", f"# Memory\n\n- {ON_TRACK}\n")  # typed by the person
    note(agent, day(1), FIX)
    result = dream_agent(Scope(agent))
    assert ON_TRACK in agent.read("MEMORY.md")  # never changed silently
    (item,) = inbox.open_items(agent)
    assert (item.old, item.new) == (ON_TRACK, FIX) and result.facts.held == [item.id]
    inbox.close(agent, item.id, "old", "2026-11-28T09:00:00")
    assert dream_agent(Scope(agent)).facts.held == []  # the person decided: not asked again
    assert inbox.open_items(agent) == []
