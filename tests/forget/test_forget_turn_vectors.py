"""Forget drops every vector whose embedded text held the fact: a dialogue turn is
embedded with the turn before it, so the reply to a forgotten line held it too."""

from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path

from fake_openai import FakeOpenAI

from forget.forgetkit import planted
from memclaw.erasure import apply_forget, plan_forget
from memclaw.index import search, vectors
from memclaw.index.semantic import text_key
from memclaw.review.scan_index import clean_index
from memclaw.workspace import Agent
from memclaw.workspace.scope import Scope

DIALOGUE = "- Maya: I am pregnant, due in May.\n- Max: Congratulations, that is lovely news!"


def _keys(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return vectors.keys(conn)


def _dialogue_searched(tmp_path: Path, fake_openai: FakeOpenAI) -> Agent:
    """An agent with embeddings on whose dialogue note has been searched (so embedded)."""
    agent = planted(
        tmp_path,
        base_url=fake_openai.base_url,
        api_key="test",
        embedding_model="text-embedding-3-small",
    )
    agent.append_daily(DIALOGUE, day=date(2026, 3, 30))
    search(agent.workspace, "congratulations", agents=["max"], log=False)
    return agent


def test_the_reply_embedded_with_a_forgotten_turn_loses_its_vector(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = _dialogue_searched(tmp_path, fake_openai)
    sent = {t for r in fake_openai.embedding_requests() for t in r.body["input"]}
    reply = "Maya: I am pregnant, due in May.\nMax: Congratulations, that is lovely news!"
    assert reply in sent  # the reply was embedded with the turn it answers
    index = agent.meta_dir / "index.sqlite"
    assert text_key(reply) in _keys(index)
    holding = {text_key(t) for t in sent if "pregnan" in t.lower()}
    plan = plan_forget(Scope(agent), "pregnant")
    assert plan.index.vectors == len(holding & _keys(index))
    apply_forget(plan)
    assert not holding & _keys(index)
    # The reply is still searchable: the next search embeds it again, alone.
    hits = search(agent.workspace, "congratulations", agents=["max"], log=False)
    assert any("Congratulations" in h.text for h in hits)
    assert text_key("- Max: Congratulations, that is lovely news!") in _keys(index)


def test_the_index_scan_drops_a_turn_vector_once_the_turn_before_changes(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = _dialogue_searched(tmp_path, fake_openai)
    reply = "Maya: I am pregnant, due in May.\nMax: Congratulations, that is lovely news!"
    index = agent.meta_dir / "index.sqlite"
    assert text_key(reply) in _keys(index)
    note = agent.path / "memory" / "2026-03-30.md"
    note.write_text(note.read_text().replace("I am pregnant, due in May", "I moved house"))
    clean_index(agent.path, is_global=False, now="2026-03-31T00:00:00")
    assert text_key(reply) not in _keys(index)
