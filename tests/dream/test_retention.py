"""Retention by category: ttl_days and immutable, honoured by consolidation, dreams and the card."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from dream.dreamkit import Clock, day, note, workspace
from memclaw.config import load_settings
from memclaw.dream.consolidate import consolidate_agent
from memclaw.dream.run import dream_agent
from memclaw.errors import ConfigError
from memclaw.facts.feedback import give
from memclaw.facts.settle import record_written
from memclaw.workspace.entries import Entry, format_entries, load_entries
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

RETENTION = {"project": {"ttl_days": 30}, "identity": {"immutable": True}}
FILLER = [f"Maya keeps plant number {n} on the office window sill." for n in range(7)]


def test_retention_is_read_and_checked(tmp_path: Path) -> None:
    (tmp_path / "memclaw.yaml").write_text(
        "retention:\n  project:\n    ttl_days: 30\n  identity:\n    immutable: true\n"
    )
    settings = load_settings(tmp_path, env={})
    assert settings.ttl_days("project") == 30 and settings.immutable("identity")
    assert settings.ttl_days("identity") == 0 and not settings.immutable("project")
    for bad in (
        "{project: {ttl_days: -1}}",
        "{project: {keep: 3}}",
        "{x: {ttl_days: 3, immutable: true}}",
    ):
        (tmp_path / "memclaw.yaml").write_text(f"retention: {bad}\n")
        with pytest.raises(ConfigError, match=r"retention|ttl_days"):
            load_settings(tmp_path, env={})


def test_consolidation_drops_expired_and_never_merges_immutable(tmp_path: Path) -> None:
    agent, _ = workspace(tmp_path, retention=RETENTION).init_agent("demo")
    old = Entry("m-old", "The lotsen pilot runs in the Malmö office.", "project",
                date(2026, 9, 1), date(2026, 9, 1))  # fmt: skip
    fresh = Entry("m-new", "The lotsen beta runs in the Oslo office.", "project",
                  date(2026, 11, 20), date(2026, 11, 20))  # fmt: skip
    names = [
        Entry("m-id1", "Maya Lindqvist is a platform engineer.", "identity"),
        Entry("m-id2", "Maya Lindqvist is a platform engineer at Aurora.", "identity"),
    ]
    scope = Scope(agent)
    scope.write("entries/project.md", format_entries([old, fresh], "Projects"))
    scope.write("entries/identity.md", format_entries(names, "Identity"))
    other = [Entry(f"m-p{n}", t, "preference") for n, t in enumerate(FILLER)]
    scope.write("entries/preference.md", format_entries(other, "Preferences"))
    consolidate_agent(agent)
    kept = {e.id: e.text for e in load_entries(scope)}
    assert "m-old" not in kept and "m-new" in kept  # 88 days old, ttl 30
    assert kept["m-id1"] == names[0].text and kept["m-id2"] == names[1].text


def test_a_dream_drops_an_expired_machine_line_and_keeps_an_immutable_one(tmp_path: Path) -> None:
    clock = Clock()
    clock.advance(days=-60)
    agent, _ = workspace(tmp_path, clock, retention=RETENTION).init_agent("demo")
    lines = (
        "# Memory\n\n## Active projects\n- The lotsen pilot runs in the Malmö office\n"
        "- The garden project has raised beds\n\n## Identity\n- Maya is a platform engineer\n"
        "\n## Notes\n" + "".join(f"- {line}\n" for line in FILLER)
    )
    agent.write("MEMORY.md", lines, author=Author.MODEL)
    for line in ("The lotsen pilot runs in the Malmö office", "Maya is a platform engineer"):
        record_written(Scope(agent), line, source="extract", by_person=False)
    clock.advance(days=59)
    give(Scope(agent), "Maya is a platform engineer", good=False)  # under the trust floor
    record_written(Scope(agent), "The garden project has raised beds", source="x", by_person=False)
    clock.advance(days=1)
    note(agent, day(1), "Lunch was good")
    result = dream_agent(Scope(agent))
    memory = agent.read("MEMORY.md")
    assert "Malmö" not in memory and "Maya is a platform engineer" in memory
    assert "The lotsen pilot runs in the Malmö office" in result.facts.dropped
    card = (agent.path / (result.report_path or "")).read_text(encoding="utf-8")
    assert "Maya is a platform engineer" not in card  # immutable: never offered to forget
