"""What semantic recall embeds: a dialogue turn after the turn before it, keyed by that text."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fake_openai import FakeOpenAI

from memclaw.index import search, vectors
from memclaw.index.semantic import passages, text_key
from memclaw.index.storage.packs import visible_blocks
from memclaw.index.store import index_path
from memclaw.workspace import Workspace

NOTES = (
    "# 2026-03-02\n\n"
    "## 10:00 Ana and Ravi\n"
    "- Ana: Did you ever go back to Lisbon?\n"
    "- Ravi: Yes, last Friday!\n"
    "- Ana: How was the food?\n\n"
    "## 18:00 Ana and Ravi\n"
    "- Ravi: The ferry was late again.\n"
)
MEMORY = "# Memory\n\n- Ana likes Lisbon.\n- Ravi sails.\n"


def _embedded(root: Path) -> dict[str, str]:
    """Each block's text -> what it is embedded as."""
    with sqlite3.connect(index_path(root / "a")) as conn:
        return {p.block.text: p.text for p in passages(visible_blocks(conn))}


def _workspace(root: Path, **overrides: object) -> Workspace:
    (root / "a" / "memory").mkdir(parents=True)
    (root / "a" / "memory" / "2026-03-02.md").write_text(NOTES, encoding="utf-8")
    (root / "a" / "MEMORY.md").write_text(MEMORY, encoding="utf-8")
    return Workspace.open(root, env={}, overrides=overrides)


def test_a_turn_is_embedded_after_the_turn_before_it(isolated_env: Path) -> None:
    search(_workspace(isolated_env), "Lisbon", log=False)  # builds the index
    embedded = _embedded(isolated_env)
    assert embedded["- Ravi: Yes, last Friday!"] == (
        "Ana: Did you ever go back to Lisbon?\nRavi: Yes, last Friday!"
    )
    assert embedded["- Ana: How was the food?"] == "Ravi: Yes, last Friday!\nAna: How was the food?"
    # The first turn of a session, a heading and lines that are not turns stand alone.
    assert embedded["- Ana: Did you ever go back to Lisbon?"] == (
        "- Ana: Did you ever go back to Lisbon?"
    )
    assert embedded["- Ravi: The ferry was late again."] == "- Ravi: The ferry was late again."
    assert embedded["- Ravi sails."] == "- Ravi sails."
    assert embedded["## 10:00 Ana and Ravi"] == "## 10:00 Ana and Ravi"


def test_vectors_are_keyed_by_the_embedded_text_and_sent_once(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    ws = _workspace(
        isolated_env,
        base_url=fake_openai.base_url,
        api_key="test",
        embedding_model="text-embedding-3-small",
    )
    search(ws, "Lisbon", log=False)
    search(ws, "ferry", log=False)  # embeds only the question
    sent = [
        text
        for request in fake_openai.embedding_requests()
        for text in request.body["input"]
        if text not in ("Lisbon", "ferry")
    ]
    embedded = _embedded(isolated_env)
    assert sorted(sent) == sorted(set(embedded.values()))
    with sqlite3.connect(index_path(isolated_env / "a")) as conn:
        keys = vectors.keys(conn)
    assert keys == {text_key(text) for text in embedded.values()}
    # A block embedded alone keeps its own hash: vectors cached before stay valid.
    assert text_key("- Ravi sails.") in keys
