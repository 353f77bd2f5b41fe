"""Undo is one transaction over the files and what memory believes about them.

Evidence (stated, superseded, confirmed), the contradiction inbox and who wrote
each line go back with the files; a forget is final and undo says so instead of
reaching past it.
"""

import json
from pathlib import Path
from typing import Any

import pytest
from ledgerkit import stream_text
from typer.testing import CliRunner

from memclaw.changes.undo import ForgetIsFinalError, undo_last
from memclaw.cli.app import app
from memclaw.entries.memories import Action, remember
from memclaw.facts import inbox
from memclaw.facts.ledger import facts_of
from memclaw.facts.resolve import resolve
from memclaw.workspace import Workspace
from memclaw.workspace.safeguards import journal, provenance
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope


@pytest.fixture
def scope(isolated_env: Path) -> Scope:
    agent, _ = Workspace.open(isolated_env).init_agent("maya")
    return Scope(agent)


def beliefs(scope: Scope) -> list[dict[str, Any]]:
    """What `facts --json` would say, with the inbox beside it."""
    facts = [f.to_dict() for f in facts_of(scope)]
    return [*facts, *[i.to_dict() for i in inbox.load(scope.agent)]]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_undoing_a_correction_restores_the_old_fact_and_its_trust(scope: Scope) -> None:
    remember(scope, "Maya lives in Oslo")
    before = beliefs(scope)
    assert remember(scope, "Correction: Maya lives in Bergen").action is Action.UPDATED
    assert beliefs(scope) != before  # the fact layer believed the correction ...

    undo_last(scope)

    assert beliefs(scope) == before  # ... and believes the old fact again after undo
    (fact,) = [f for f in facts_of(scope) if "Oslo" in f.statement]
    assert not fact.superseded and fact.trust > 0


def test_a_statement_held_in_the_inbox_is_a_change_undo_takes_back(scope: Scope) -> None:
    remember(scope, "Maya lives in Oslo")
    before = beliefs(scope)
    held = remember(scope, "Maya lives in Uppsala", source="tool", by_person=False)
    assert held.action is Action.HELD and inbox.open_items(scope.agent)

    done = undo_last(scope)

    assert done.change.kind == "remember"
    assert beliefs(scope) == before  # the inbox item is gone, Oslo still stands
    assert "Oslo" in "".join(scope.read(f.name) for f in scope.list_files("entries/"))


def test_undoing_an_inbox_choice_reopens_it_and_restores_both_facts(scope: Scope) -> None:
    remember(scope, "Maya lives in Oslo")
    (item,) = remember(scope, "Maya lives in Uppsala", source="tool", by_person=False).inbox
    before = beliefs(scope)
    resolve(scope, item, "new")
    assert inbox.load(scope.agent)[0].status == "resolved"

    done = undo_last(scope)

    assert done.change.kind == "inbox"
    assert beliefs(scope) == before
    assert inbox.open_items(scope.agent)[0].id == item


def test_undo_keeps_evidence_recorded_after_the_change(scope: Scope) -> None:
    from memclaw.facts.model import Event, EventKind
    from memclaw.facts.store import load_events, record

    remember(scope, "Maya lives in Oslo")
    remember(scope, "Correction: Maya lives in Bergen")
    bergen = next(f for f in facts_of(scope) if "Bergen" in f.statement)
    # Evidence no change journalled (a rating from an older memclaw): undo must not eat it.
    record(scope.agent, [bergen.id], Event(EventKind.CONFIRMED, "2026-01-01T00:00:00", "cli"))
    assert undo_last(scope).change.kind == "remember"
    kinds = [e.kind for e in load_events(scope.agent)[bergen.id]]
    assert [str(k) for k in kinds] == ["confirmed"]


def test_a_rating_is_a_change_that_undo_takes_back_first(scope: Scope) -> None:
    from memclaw.facts.feedback import give
    from memclaw.facts.store import load_events

    remember(scope, "Maya lives in Oslo")
    remember(scope, "Correction: Maya lives in Bergen")
    bergen = next(f for f in facts_of(scope) if "Bergen" in f.statement)
    trust = bergen.trust
    give(scope, bergen.id, good=True)
    assert undo_last(scope).change.kind == "confirm"
    kinds = [str(e.kind) for e in load_events(scope.agent)[bergen.id]]
    assert "confirmed" not in kinds
    assert next(f for f in facts_of(scope) if f.id == bergen.id).trust == trust
    assert undo_last(scope).change.kind == "remember"  # then the correction, as before


def test_undo_gives_a_model_line_back_to_the_model(scope: Scope) -> None:
    agent = scope.agent
    with journal.change(agent, "dream"):
        agent.write(
            "MEMORY.md", "# Memory\n- Deploys on Thursdays\n- Ships in May\n", author=Author.MODEL
        )
    with journal.change(agent, "dream"):
        agent.write("MEMORY.md", "# Memory\n- Deploys on Thursdays\n", author=Author.MODEL)
    model_lines = provenance.keys("- Ships in May\n")

    undo_last(scope)

    assert "Ships in May" in agent.read("MEMORY.md")
    assert model_lines <= provenance.load(agent, "MEMORY.md").lines.keys()


def test_undo_refuses_at_a_forget_and_names_what_it_would_undo(scope: Scope) -> None:
    remember(scope, "Maya lives in Oslo")
    remember(scope, "Jonas is a cardiologist in Uppsala")
    code, _, _ = run("forget", "maya", "Jonas cardiologist", "--yes")
    assert code == 0
    files = {p: p.read_bytes() for p in scope.agent.path.rglob("*.md")}

    # The remember before it wrote the file the forget rewrote: undoing it could not work.
    with pytest.raises(ForgetIsFinalError, match=r"wrote entries/.*, which the forget rewrote"):
        undo_last(scope)
    code, _, stderr = run("undo", "maya")
    assert code == 1 and "a forget is final" in stderr and "nothing was undone" in stderr
    assert {p: p.read_bytes() for p in scope.agent.path.rglob("*.md")} == files
    assert "cardiologist" not in stream_text(scope.agent.meta_dir, "changes")


def test_skip_forget_undoes_the_change_before_the_forget(scope: Scope) -> None:
    remember(scope, "Jonas is a cardiologist in Uppsala")
    remember(scope, "Maya lives in Oslo", category="identity")
    run("forget", "maya", "Jonas cardiologist", "--yes")

    code, _, stderr = run("undo", "maya", "--skip-forget")

    assert code == 0, stderr
    assert "undid the remember" in stderr
    assert "Oslo" not in "".join(scope.read(f.name) for f in scope.list_files("entries/"))


def test_the_receipt_after_undo_shows_what_the_undo_did(scope: Scope) -> None:
    remember(scope, "Maya lives in Oslo")
    remember(scope, "Correction: Maya lives in Bergen")

    code, stdout, stderr = run("undo", "maya")

    assert code == 0 and "undid the remember" in stderr
    assert "memory receipt · undo:" in stdout
    assert "Maya lives in Bergen → Maya lives in Oslo" in stdout
    code, stdout, _ = run("undo", "maya", "--json")
    assert code == 0 and json.loads(stdout)["undo"]
