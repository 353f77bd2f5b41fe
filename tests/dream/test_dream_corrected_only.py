"""A dream whose only change to MEMORY.md is a correction from the notes still changed it.

It says so (updated, with the diff), its diary says so, and `dream undo` puts back the
MEMORY.md from before the dream, as `memclaw undo` does.
"""

from __future__ import annotations

from pathlib import Path

from dream.dreamkit import day, note, workspace
from memclaw.dream.run import DreamStatus, dream_agent
from memclaw.dream.runlog import dream_undo
from memclaw.facts.ledger import facts_of
from memclaw.workspace import Agent
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

OLD = "The PostGIS cutover is scheduled for 2026-12-12."
FIX = "Correction: the PostGIS cutover moved to 2026-12-19."


def _corrected_in_the_notes(tmp_path: Path) -> tuple[Agent, str]:
    """An agent whose MEMORY.md holds OLD (a model's line) and whose notes say FIX."""
    agent, _ = workspace(tmp_path).init_agent("demo")
    before = f"# Memory\n\n## Active projects\n- {OLD}\n"
    agent.write("MEMORY.md", before, author=Author.MODEL)
    note(agent, day(1), FIX)
    return agent, before


def test_a_dream_that_only_applied_a_correction_is_an_update_dream_undo_reverts(
    tmp_path: Path,
) -> None:
    agent, before = _corrected_in_the_notes(tmp_path)
    result = dream_agent(Scope(agent))
    assert "2026-12-12" not in agent.read("MEMORY.md")
    assert result.status is DreamStatus.UPDATED
    assert f"-- {OLD}" in result.diff and result.removed == 1
    assert "changed in memory.md:** nothing" not in agent.read("DREAMS.md").casefold()
    dream_undo(Scope(agent))
    assert agent.read("MEMORY.md") == before


def test_dream_undo_takes_back_what_the_dream_believed_so_the_next_dream_corrects_again(
    tmp_path: Path,
) -> None:
    agent, _ = _corrected_in_the_notes(tmp_path)
    dream_agent(Scope(agent))
    dream_undo(Scope(agent))
    old = next(f for f in facts_of(Scope(agent)) if f.statement == OLD)
    assert not old.superseded  # the file and the facts layer agree again
    dream_agent(Scope(agent))
    assert "2026-12-12" not in agent.read("MEMORY.md")


def test_a_correction_to_an_entry_is_named_while_memory_md_is_unchanged(tmp_path: Path) -> None:
    """MEMORY.md is untouched, the entry the note corrects is rewritten: the dream's line
    says which file, not just "unchanged"."""
    from io import StringIO

    from rich.console import Console

    from memclaw.cli.dream.candidates import say_dream
    from memclaw.entries.memories import remember

    agent, _ = workspace(tmp_path).init_agent("demo")
    remember(Scope(agent), "The dentist appointment is on 2026-12-10 at 14:00")
    note(agent, day(0), "Correction: the dentist appointment was postponed to 2026-12-17.")
    result = dream_agent(Scope(agent))
    assert result.facts.rewritten == ["entries/project.md"]
    assert "2026-12-17" in agent.read("entries/project.md")
    said = StringIO()
    say_dream(result, Console(file=said, width=400))
    assert said.getvalue().startswith("demo: MEMORY.md unchanged: ")
    assert "applied 1 correction from the notes to entries/project.md" in said.getvalue()


def test_a_dry_run_says_which_correction_it_would_apply_and_writes_nothing(
    tmp_path: Path,
) -> None:
    from memclaw.entries.memories import remember

    agent, before = _corrected_in_the_notes(tmp_path)
    remember(Scope(agent), "The dentist appointment is on 2026-12-10 at 14:00")
    note(agent, day(0), "Correction: the dentist appointment was postponed to 2026-12-17.")
    entries = agent.read("entries/project.md")
    result = dream_agent(Scope(agent), dry_run=True)
    assert "would apply 2 corrections from the notes" in result.reason
    assert sorted(result.facts.rewritten) == ["MEMORY.md", "entries/project.md"]
    assert agent.read("MEMORY.md") == before and agent.read("entries/project.md") == entries
    assert not any(f.superseded for f in facts_of(Scope(agent)))
    assert "applied 2 corrections" in dream_agent(Scope(agent)).reason
