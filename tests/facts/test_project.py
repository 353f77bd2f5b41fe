"""Projection: list items of memory files (the team's and each owner's) become facts."""

from pathlib import Path

from extract.extractkit import make_agent

from memclaw.entries.memories import remember
from memclaw.facts.ids import fact_id
from memclaw.facts.ledger import facts_of
from memclaw.facts.model import Kind
from memclaw.facts.project import project_scope, project_text, subject_of
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope


def test_list_items_with_their_section_line_and_kind() -> None:
    text = "# Memory\n\n## Work\n- Maya works at *Acme*.\n\nprose is not a fact\n```\n- code\n```\n"
    (place,) = project_text("MEMORY.md", text)
    assert place.statement == "Maya works at *Acme*." and place.line == 4
    assert place.kind is Kind.MEMORY and place.category == "work"
    assert place.fact == fact_id("Maya works at Acme")
    daily = project_text("memory/2026-11-02.md", "# 2026-11-02\n\n- Picked uv\n")
    assert daily[0].kind is Kind.DAILY and str(daily[0].day) == "2026-11-02"
    assert project_text("AGENTS.md", "- Be brief\n") == []


def test_an_owner_fact_has_an_id_of_its_own() -> None:
    team = project_text("MEMORY.md", "- Likes tea\n")[0]
    owned = project_text("owners/user%3Amaya/MEMORY.md", "- Likes tea\n")[0]
    assert team.fact != owned.fact == fact_id("Likes tea", "owners/user%3Amaya/")


def test_subjects() -> None:
    assert subject_of("Maya lives in Oslo") == "maya"
    assert subject_of("Editor: Helix") == "editor"
    assert subject_of("The Atlas cutover is on 2026-12-12") == "the atlas cutover"


def test_one_fact_in_several_places_and_who_wrote_each(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    scope = Scope(agent)
    remember(scope, "Maya prefers uv")
    agent.write("MEMORY.md", "# Memory\n- Maya prefers uv\n", author=Author.MODEL)
    agent.write("PROFILE.md", "# Profile\n- Name: Maya\n")
    agent.append_daily("- Maya prefers uv")
    facts = {f.statement: f for f in facts_of(scope)}
    uv = facts["Maya prefers uv"]
    assert sorted(p.kind for p in uv.places) == ["daily", "entry", "memory"]
    assert {p.author for p in uv.places} == {"model", "person", "note"}
    assert facts["Name: Maya"].places[0].author == "person"
    maya = Scope.resolve(agent, "user:maya")
    maya.write("MEMORY.md", "- Maya's own note\n")
    assert [p.statement for p in project_scope(maya)] == ["Maya's own note"]
    assert "Maya's own note" not in {p.statement for p in project_scope(scope)}


def test_a_daily_notes_time_heading_is_not_a_category() -> None:
    note = (
        "# 2026-12-08\n\n## 08:31\n- Correction: the office lease moved to 2026-12-21.\n"
        "## 14:05 standup\n- The standup ran long.\n## Decisions\n- Maya picked Grafana.\n"
    )
    found = project_text("memory/2026-12-08.md", note)
    assert [p.category for p in found] == ["", "", "decisions"]
