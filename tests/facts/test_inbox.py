"""Newer values: a person's replaces the old fact in every file; a model's change of a
person's line waits in the inbox, and is resolved there in every file."""

import json
from pathlib import Path

import pytest
from extract.extractkit import make_agent

from memclaw.entries.lookup import list_memories
from memclaw.entries.memories import Action, RememberResult, remember
from memclaw.errors import UsageError, WorkspaceError
from memclaw.facts import inbox
from memclaw.facts.ledger import facts_of, find_fact
from memclaw.facts.resolve import resolve
from memclaw.facts.settle import Outcome, settle
from memclaw.workspace import ledger
from memclaw.workspace.safeguards import history
from memclaw.workspace.scope import Scope


def _told_by_a_model(scope: Scope, text: str) -> RememberResult:
    return remember(scope, text, source="tool", by_person=False)


def _agent_with_oslo(tmp_path: Path) -> Scope:
    agent = make_agent(tmp_path)
    scope = Scope(agent)
    remember(scope, "Maya lives in Oslo")  # an entry, and the same fact in MEMORY.md
    agent.write("MEMORY.md", "# Memory\n\n## People\n- Maya lives in Oslo\n- Maya likes tea\n")
    return scope


@pytest.mark.parametrize(
    ("old", "new"),
    [("Maya lives in Oslo", "Maya lives in Bergen"), ("Maya is vegetarian", "Maya eats meat")],
)
def test_a_models_newer_value_of_a_persons_fact_waits_in_the_inbox(
    tmp_path: Path, old: str, new: str
) -> None:
    scope = Scope(make_agent(tmp_path))
    remember(scope, old)
    result = remember(scope, new, source="tool", by_person=False)
    assert result.action is Action.HELD and result.entry is None
    assert "a person's words" in result.reason and "memclaw inbox" in result.reason
    assert [e.text for e in list_memories(scope)] == [old]
    (item,) = inbox.open_items(scope.agent)
    assert (item.old, item.new, item.source) == (old, new, "tool")
    assert item.old_where[0].startswith("entries/")
    said_again = remember(scope, new, source="tool", by_person=False)
    assert said_again.inbox == [item.id]  # the same item, not a second
    assert len(inbox.open_items(scope.agent)) == 1


def test_a_persons_newer_value_replaces_the_fact_in_every_file(tmp_path: Path) -> None:
    scope = _agent_with_oslo(tmp_path)
    agent = scope.agent
    held = remember(scope, "Maya lives in Bergen", source="tool", by_person=False)
    assert held.action is Action.HELD
    result = remember(scope, "Maya lives in Bergen")  # the person says it: it wins
    assert result.action is Action.UPDATED
    memory = agent.read("MEMORY.md")
    assert "- Maya lives in Bergen\n" in memory and "Oslo" not in memory
    assert "Maya likes tea" in memory
    assert [e.text for e in list_memories(scope)] == ["Maya lives in Bergen"]
    assert inbox.open_items(agent) == []  # the newer value settled what was waiting
    evidence = ledger.load(agent.meta_dir, "evidence")[0]
    assert "Oslo" not in json.dumps(evidence) and "Bergen" not in json.dumps(evidence)
    old = held.previous
    assert old is not None
    kinds = [e["kind"] for e in evidence["facts"][old.id]]
    assert kinds[-1] == "superseded"


@pytest.mark.parametrize("keep", ["new", "old", "both"])
def test_resolve_applies_the_choice_to_every_file(tmp_path: Path, keep: str) -> None:
    scope = _agent_with_oslo(tmp_path)
    agent = scope.agent
    (item,) = _told_by_a_model(scope, "Maya lives in Bergen").inbox and inbox.open_items(agent)
    done = resolve(scope, item.id, keep)
    memory, entries = agent.read("MEMORY.md"), agent.read("entries/identity.md")
    has = {
        "new": ("Bergen" in memory and "Bergen" in entries),
        "old": ("Oslo" in memory and "Oslo" in entries),
    }
    if keep == "new":
        assert has["new"] and not has["old"]
        assert sorted(done.changed) == ["MEMORY.md", "entries/identity.md"]
    elif keep == "old":
        assert has["old"] and "Bergen" not in memory + entries and done.changed == []
    else:
        assert has["new"] and has["old"] and memory.index("Oslo") < memory.index("Bergen")
    assert inbox.open_items(agent) == [] and inbox.get(agent, item.id).keep == keep
    kept = [history.read(agent, v) or "" for v in history.versions(agent, "MEMORY.md")]
    assert keep == "old" or any("Oslo" in text for text in kept)
    with pytest.raises(WorkspaceError, match="already resolved"):
        resolve(scope, item.id, keep)


def test_resolve_refuses_bad_input_and_writes_nothing(tmp_path: Path) -> None:
    scope = _agent_with_oslo(tmp_path)
    (item,) = _told_by_a_model(scope, "Maya lives in Bergen").inbox and inbox.open_items(
        scope.agent
    )
    before = scope.agent.read("MEMORY.md")
    with pytest.raises(UsageError, match="--keep"):
        resolve(scope, item.id, "newest")
    with pytest.raises(WorkspaceError, match="no contradiction"):
        resolve(scope, "c000000", "new")
    with pytest.raises(WorkspaceError, match="--owner"):
        resolve(Scope.resolve(scope.agent, "user:maya"), item.id, "new")
    assert scope.agent.read("MEMORY.md") == before and inbox.open_items(scope.agent) == [item]


def test_settle_only_judges_without_apply(tmp_path: Path) -> None:
    scope = _agent_with_oslo(tmp_path)
    settled = settle(scope, "Maya lives in Bergen", source="test", by_person=False, apply=False)
    assert settled.outcome is Outcome.HELD and inbox.open_items(scope.agent) == []
    fixed = settle(scope, "Maya lives in Bergen", source="t", by_person=True, apply=False)
    assert fixed.outcome is Outcome.REPLACED and fixed.merged == "Maya lives in Bergen"
    assert "Oslo" in scope.agent.read("MEMORY.md")
    again = settle(scope, "Maya lives in Oslo", source="test", by_person=True)
    assert again.outcome is Outcome.RESTATED
    assert settle(scope, "Maya has a cat", source="t", by_person=True).outcome is Outcome.NEW


def test_find_fact_by_id_or_words(tmp_path: Path) -> None:
    scope = _agent_with_oslo(tmp_path)
    fact = find_fact(scope, "lives in Oslo")
    assert find_fact(scope, fact.id) == fact
    with pytest.raises(WorkspaceError, match="no fact"):
        find_fact(scope, "f00000000")
    with pytest.raises(WorkspaceError, match="no fact matches"):
        find_fact(scope, "completely unrelated words")
    with pytest.raises(UsageError, match="2 facts match"):
        find_fact(scope, "Maya")
    assert len(facts_of(scope)) == 2


def test_forgetting_a_fact_can_remove_its_evidence_and_inbox_items(tmp_path: Path) -> None:
    from memclaw.facts import store
    from memclaw.facts.ids import fact_id

    scope = _agent_with_oslo(tmp_path)
    agent = scope.agent
    _told_by_a_model(scope, "Maya lives in Bergen")
    bergen = fact_id("Maya lives in Bergen")
    assert inbox.drop_about(agent, {bergen}) == [
        inbox.item_id(fact_id("Maya lives in Oslo"), bergen)
    ]
    assert inbox.load(agent) == [] and "Bergen" not in json.dumps(
        ledger.load(agent.meta_dir, "inbox")[0]
    )
    oslo = fact_id("Maya lives in Oslo")
    assert oslo in store.load_events(agent)
    store.drop(agent, {oslo})
    assert oslo not in store.load_events(agent)
