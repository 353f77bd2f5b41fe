"""Vector search through sqlite-vec and by brute force give the same hits, scored the same
(sqlite-vec computes in float32: to a millionth)."""

from __future__ import annotations

import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI, trigram_embedding

from memclaw.index import embed_index, search, vectors
from memclaw.index.nearest.sqlitevec import available, similarities
from memclaw.index.rank import make_filters
from memclaw.index.semantic import vector_candidates, visible
from memclaw.index.store import index_path
from memclaw.workspace import Workspace, normalise_owner

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
MODEL = "text-embedding-3-small"
TOPICS = [
    "kayak",
    "permit",
    "harbour",
    "ferry",
    "sourdough",
    "oven",
    "basil",
    "garden",
    "marathon",
    "pace",
    "knee",
    "physio",
]


def _workspace(root: Path, fake: FakeOpenAI, half_life: float) -> Workspace:
    agent = root / "a"
    (agent / "memory").mkdir(parents=True)
    (agent / "MEMORY.md").write_text("".join(f"- {t} notes kept for later\n" for t in TOPICS))
    (agent / "PROFILE.md").write_text("- likes the harbour ferry at dawn\n")
    for day in range(1, 29):
        lines = [
            f"- {TOPICS[(day + i) % len(TOPICS)]} and {TOPICS[i]} on day {day}"
            for i in (0, 3, 5, 7, 9)
        ]
        (agent / "memory" / f"2026-11-{day:02d}.md").write_text("\n".join(lines) + "\n")
    personal = agent / "owners" / "maya" / "MEMORY.md"
    personal.parent.mkdir(parents=True)
    personal.write_text("- Maya keeps the kayak permit in the red folder\n")
    overrides = {
        "base_url": fake.base_url,
        "api_key": "test",
        "embedding_model": MODEL,
        "max_retries": 0,
        "recency_half_life_days": half_life,
    }
    ws = Workspace.open(root, env={}, overrides=overrides, clock=lambda: NOW)
    assert embed_index(ws.agent("a")) == 154  # every text once; a search embeds only questions
    return ws


def _both(ws: Workspace, query: str, limit: int, owner: str | None) -> tuple[list, list]:  # type: ignore[type-arg]
    conn = sqlite3.connect(index_path(ws.root / "a"))
    filters = make_filters(normalise_owner(owner) if owner else None, "all", None, None)
    try:
        runs = []
        blocks = visible(conn, filters, is_global=False)
        for extension in (True, False):
            found = vector_candidates(
                conn,
                "a",
                trigram_embedding(query),
                blocks,
                settings=ws.settings,
                model=MODEL,
                today="2026-12-01",
                limit=limit,
                extension=extension,
            )
            runs.append([(c.file, c.line, c.score) for c in found])
        return runs[0], runs[1]
    finally:
        conn.close()


needs_vec = pytest.mark.skipif(not available(), reason="sqlite-vec cannot be loaded here")


@needs_vec
@pytest.mark.parametrize("half_life", [0.0, 2.0])
def test_sqlite_vec_and_brute_force_agree(
    isolated_env: Path, fake_openai: FakeOpenAI, half_life: float
) -> None:
    ws = _workspace(isolated_env, fake_openai, half_life)
    for query, limit, owner in [
        ("kayak permit", 5, None),
        ("kayak permit", 5, "maya"),
        ("harbour ferry at dawn", 10, None),
        ("knee physio pace", 3, None),
        ("sourdough", 100, "maya"),
    ]:
        with_vec, brute = _both(ws, query, limit, owner)
        assert [hit[:2] for hit in with_vec] == [hit[:2] for hit in brute], (query, limit, owner)
        assert all(abs(a[2] - b[2]) < 1e-6 for a, b in zip(with_vec, brute, strict=True))
        assert len(brute) == min(limit, 155 if owner else 154)


@needs_vec
def test_sqlite_vec_is_the_path_taken_when_it_loads(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    ws = _workspace(isolated_env, fake_openai, 0.0)
    query = trigram_embedding("kayak")
    from memclaw.index.vectors import pack

    found = similarities(index_path(ws.root / "a"), MODEL, pack(query), len(query))
    assert found is not None
    conn = sqlite3.connect(index_path(ws.root / "a"))
    cached = vectors.keys(conn, MODEL)
    conn.close()
    assert set(found) == cached
    best = max(found, key=found.__getitem__)
    assert found[best] > 0.5 > min(found.values())


def test_without_sqlite_vec_brute_force_answers(
    isolated_env: Path, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = _workspace(isolated_env, fake_openai, 0.0)
    monkeypatch.setitem(sys.modules, "sqlite_vec", None)  # import fails: not installed
    assert not available()
    with_vec, brute = _both(ws, "kayak permit", 5, None)
    assert with_vec == brute and len(brute) == 5  # both brute force here: the very same
    hits = search(ws, "photographs of the harbour ferry", log=False)
    assert hits and "ferry" in hits[0].text
