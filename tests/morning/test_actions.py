"""The card's Confirm / Edit / Forget go through the fact layer: trust, forget everywhere."""

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from memclaw.changes.timeline import timeline
from memclaw.changes.why import why
from memclaw.dream.run import dream_agent
from memclaw.entries.memories import remember
from memclaw.extract.forgotten import forgotten_checker
from memclaw.facts.feedback import give
from memclaw.facts.ledger import facts_of
from memclaw.facts.model import EventKind
from memclaw.facts.store import load_events
from memclaw.morning import actions, soul
from memclaw.morning.card import latest, review
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope

NOW = datetime.fromisoformat("2026-11-29T10:30:00+01:00")
TRAIN = "The release train leaves every Sunday"


def open_ws(root: Path, when: datetime = NOW, **settings: object) -> Workspace:
    return Workspace.open(root, overrides={**settings}, clock=lambda: when)


@pytest.fixture
def scope(isolated_env: Path) -> Scope:
    agent, _ = open_ws(isolated_env, soul_update_interval=2).init_agent("pal")
    scope = Scope(agent)
    for back in (1, 2):
        scope.append_daily(f"- {TRAIN}.", day=NOW.date() - timedelta(days=back))
    assert str(dream_agent(scope, model=None).status) == "updated"
    return scope


def _train(scope: Scope) -> str:
    card = latest(scope)
    assert card is not None
    return next(i["fact"] for i in card.items("promoted") if TRAIN in i["text"])


def test_confirm_on_the_card_is_fact_layer_evidence(scope: Scope) -> None:
    fid = _train(scope)
    before = next(f for f in facts_of(scope) if f.id == fid).trust
    card = latest(scope)
    assert card is not None
    review(scope, card, confirm=[fid])
    fact = next(f for f in facts_of(scope) if f.id == fid)
    assert [(e.kind, e.source) for e in fact.events][-1] == (EventKind.CONFIRMED, "card")
    assert fact.trust > before
    assert not (scope.agent.meta_dir / "logs" / "feedback.jsonl").exists()


def test_forget_on_the_card_forgets_everywhere(scope: Scope) -> None:
    fid = _train(scope)
    give(scope, fid, good=True)  # evidence that must go with it
    card = latest(scope)
    assert card is not None
    done = review(scope, card, forget=[fid])
    assert any(f.startswith("memory/") for f in done.outcomes[0].files)
    # Not only MEMORY.md: the daily notes that said it, and its evidence.
    notes = [scope.read(f"memory/{NOW.date() - timedelta(days=d)}.md") for d in (1, 2)]
    assert all("release train" not in n for n in [scope.read("MEMORY.md"), *notes])
    assert fid not in load_events(scope.agent)
    assert forgotten_checker(scope)(TRAIN)
    # The timeline says a forget happened; its rewrites are not taken for hand edits.
    kinds = [e.kind for e in timeline(scope)]
    assert "forget" in kinds and "hand edit" not in kinds


def test_edit_records_the_new_wording_as_stated_by_the_person(scope: Scope) -> None:
    fid = _train(scope)
    card = latest(scope)
    assert card is not None
    done = review(scope, card, edit={fid: "The release train leaves every Monday."})
    new = done.outcomes[0].fact
    events = load_events(scope.agent)
    assert [(e.kind, e.source) for e in events[new]] == [(EventKind.STATED, "card-edit")]
    assert events[fid][-1].kind is EventKind.SUPERSEDED
    fact = next(f for f in facts_of(scope) if f.id == new)
    assert fact.trust >= 0.7  # the person's own words start higher than an inference


def test_soul_counts_the_fact_layers_confirmations(scope: Scope) -> None:
    remember(scope, "Maya prefers short answers", category="preference")
    remember(scope, "Never book Friday meetings", category="rule")
    # Confirmed outside the card (`memclaw facts confirm`): SOUL evolution still counts them.
    give(scope, "Maya prefers short answers", good=True, source="cli")
    assert soul.evolve(scope).status == "waiting"
    give(scope, "Never book Friday meetings", good=True, source="cli")
    assert soul.evolve(scope).status == "updated"


def test_why_shows_trust_over_time_and_the_fact_layers_confirmations(scope: Scope) -> None:
    fid = _train(scope)
    later = Scope(open_ws(scope.agent.workspace.root, NOW + timedelta(days=3)).agent("pal"))
    give(later, fid, good=True, source="cli")
    give(later, fid, good=False, source="chat")
    chain = why(later, fid)
    steps = [(s.kind, s.text) for s in chain.steps if s.kind in ("confirmed", "rejected")]
    assert steps == [
        ("confirmed", "confirmed by the person (cli)"),
        ("rejected", "rejected by the person (chat)"),
    ]
    history = chain.trust_history
    assert [e for _t, e, _v in history][-3:] == ["confirmed (cli)", "rejected (chat)", "now"]
    confirmed, rejected = history[-3][2], history[-2][2]
    assert rejected < confirmed and chain.trust == history[-1][2]
    assert chain.trust == pytest.approx(next(f for f in facts_of(later) if f.id == fid).trust)
    assert chain.to_dict()["trust_history"][-1]["event"] == "now"


def test_confirming_what_memory_does_not_hold_changes_nothing(scope: Scope) -> None:
    with pytest.raises(Exception, match="no fact"):
        actions.confirm(scope, "f00000000")
    assert load_events(scope.agent) == {}
