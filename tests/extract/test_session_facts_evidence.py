"""A model's session-scoped fact is the model's in the facts layer, as its long-term facts are."""

from __future__ import annotations

from pathlib import Path

from fake_openai import FakeOpenAI

from extract.extractkit import model_agent, saying
from memclaw.extract.pipeline import extract_conversation
from memclaw.facts.ledger import facts_of
from memclaw.facts.model import EventKind
from memclaw.workspace.scope import Scope

TODAY = "User is working from the Lisbon office today and wants short answers in this chat"
CHAT = saying("Today I'm working from the Lisbon office; short answers in this chat, please.")


def test_a_session_fact_is_inferred_by_the_model_in_its_session(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    fake_openai.queue_json(
        {
            "should_update": True,
            "reason": "one fact for today",
            "daily_entry": "",
            "facts": [{"text": TODAY, "category": "preference", "scope": "session"}],
        }
    )
    extract_conversation(Scope(agent), CHAT, session_id="s-9", force=True)
    fact = next(f for f in facts_of(Scope(agent)) if f.statement == TODAY)
    assert {p.author for p in fact.places} == {"model"}  # not a person's hand edit
    assert [(e.kind, e.session) for e in fact.events] == [(EventKind.INFERRED, "s-9")]
    assert fact.source.startswith("extract")
