"""Semantic recall through the fake embeddings endpoint: fusion, caching, fallback."""

import math
import sqlite3
from array import array
from pathlib import Path
from typing import Any

from fake_openai import FakeOpenAI

from index.schemakit import float32_vectors
from memclaw.config import Settings
from memclaw.index import reindex, search
from memclaw.index.query.people import by_person
from memclaw.index.rank import Candidate
from memclaw.index.semantic import fuse
from memclaw.index.store import index_path
from memclaw.index.vectors import pack, read, unpack
from memclaw.workspace import Workspace

LINES = (
    "- Joined the photography club at the library\n"
    "- Bought new tyres for the bike\n"
    "- The kayak permit costs 300 kronor\n"
)


def _ws(root: Path, fake: FakeOpenAI, **extra: Any) -> Workspace:
    overrides = {
        "base_url": fake.base_url,
        "api_key": "test",
        "embedding_model": "text-embedding-3-small",
        "max_retries": 0,
        **extra,
    }
    return Workspace.open(root, overrides=overrides)


def _setup(root: Path) -> None:
    (root / "a").mkdir()
    (root / "a" / "MEMORY.md").write_text(LINES, encoding="utf-8")


def _vectors(root: Path) -> int:
    conn = sqlite3.connect(index_path(root / "a"))
    try:
        return int(conn.execute("SELECT count(*) FROM vectors").fetchone()[0])
    finally:
        conn.close()


def test_vectors_find_what_keywords_miss(isolated_env: Path, fake_openai: FakeOpenAI) -> None:
    _setup(isolated_env)
    assert search(Workspace.open(isolated_env), "photographers") == []  # no shared stem
    hits = search(_ws(isolated_env, fake_openai), "photographers")
    assert hits and hits[0].text == "- Joined the photography club at the library"


def test_keyword_hits_stay_on_top_after_fusion(isolated_env: Path, fake_openai: FakeOpenAI) -> None:
    _setup(isolated_env)
    hits = search(_ws(isolated_env, fake_openai), "kayak permit")
    assert hits[0].text == "- The kayak permit costs 300 kronor"
    assert "«kayak»" in hits[0].marked()


def test_blocks_are_embedded_once(isolated_env: Path, fake_openai: FakeOpenAI) -> None:
    _setup(isolated_env)
    ws = _ws(isolated_env, fake_openai)
    search(ws, "bike")
    embedded = sum(len(r.body["input"]) for r in fake_openai.embedding_requests())
    assert embedded == 3 + 1  # three blocks, one query
    assert _vectors(isolated_env) == 3
    fake_openai.reset()
    search(ws, "library")
    reindex(ws.agent("a"))  # rebuilding the index keeps the vectors
    search(ws, "tyres")
    inputs = [r.body["input"] for r in fake_openai.embedding_requests()]
    assert inputs == [["library"], ["tyres"]]
    with open(isolated_env / "a" / "MEMORY.md", "a", encoding="utf-8") as handle:
        handle.write("- A new line about sailing\n")
    fake_openai.reset()
    search(ws, "sailing")
    inputs = [r.body["input"] for r in fake_openai.embedding_requests()]
    assert inputs == [["sailing"], ["- A new line about sailing"]]


def test_endpoint_failure_falls_back_to_keywords(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    _setup(isolated_env)
    fake_openai.queue_embedding_error(500, "boom")
    hits = search(_ws(isolated_env, fake_openai), "kayak")
    assert [h.text for h in hits] == ["- The kayak permit costs 300 kronor"]


def test_no_embedding_model_means_no_requests(isolated_env: Path, fake_openai: FakeOpenAI) -> None:
    _setup(isolated_env)
    search(_ws(isolated_env, fake_openai, embedding_model=""), "kayak")
    assert fake_openai.embedding_requests() == []


def test_vectors_pack_to_one_byte_a_value_and_unpack_to_unit_length() -> None:
    assert len(pack([3.0, 4.0])) == 2
    values = unpack(pack([3.0, 4.0]))
    assert math.isclose(math.fsum(v * v for v in values), 1.0)
    assert math.dist(values, [0.6, 0.8]) < 0.5 / 127  # the direction, to half a step


def _cand(block_id: int, tier: int = 0, text: str = "t") -> Candidate:
    return Candidate(
        "a",
        block_id,
        "M.md",
        block_id,
        block_id,
        "",
        None,
        "h",
        text,
        "team",
        None,
        "memory",
        1.0,
        tier=tier,
    )


def test_rank_fusion_rewards_agreement() -> None:
    fused = fuse([_cand(1), _cand(2), _cand(3)], [_cand(3), _cand(1)], weight=1.0)
    assert [c.block_id for c in fused] == [1, 3, 2]


def test_vectors_weigh_less_than_keywords() -> None:
    # The vector ranking's first block, unknown to keyword search, comes after keyword's
    # first two; keyword's third, which the vectors agree with, rises to the top.
    keyword = [_cand(1), _cand(2), _cand(3)]
    fused = fuse(keyword, [_cand(9), _cand(3)], weight=0.7)
    assert [c.block_id for c in fused] == [3, 1, 2, 9]


def test_people_ranking_after_fusion_keeps_keyword_hits_first() -> None:
    # Keyword's hits cover part of the query (tier 1); a vector-only block has no tier of
    # its own. Ranking by person afterwards sorts by tier: a vector-only block must not
    # jump above keyword's best hits because of it (LoCoMo recall fell to 0.24 so).
    keyword = [_cand(1, 1, "Ana: the kayak"), _cand(2, 1, "Ana: a permit")]
    vector = [_cand(7, 0, "Ana: boats"), _cand(8, 0, "Ana: rivers"), _cand(1, 1)]
    ranked = by_person("what did Ana buy", fuse(keyword, vector, weight=0.7))
    assert [c.block_id for c in ranked][:2] == [1, 2]


def test_by_default_the_vectors_first_block_counts_as_much_as_keywords_first() -> None:
    # Tuned on the conversation benchmark's dev half with a real model: a block only the
    # vectors rank first ties keyword's first and comes before keyword's second.
    keyword = [_cand(1), _cand(2), _cand(3)]
    fused = fuse(keyword, [_cand(9), _cand(3)], weight=Settings().embedding_weight)
    assert [c.block_id for c in fused] == [3, 1, 9, 2]


def test_an_index_of_float32_vectors_is_packed_on_upgrade_not_embedded_again(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    _setup(isolated_env)
    ws = _ws(isolated_env, fake_openai)
    before = [h.text for h in search(ws, "photographers")]
    # The vectors as schema 6 kept them: a row per model and key, float32, unit length.
    conn = sqlite3.connect(index_path(isolated_env / "a"))
    model = "text-embedding-3-small"
    rows = [(model, key, len(vec), array("f", vec).tobytes()) for key, vec in read(conn, model)]
    with conn:
        float32_vectors(conn, rows)
        conn.execute("PRAGMA user_version = 6")
    conn.close()
    fake_openai.reset()
    after = [h.text for h in search(_ws(isolated_env, fake_openai), "photographers")]
    assert after == before
    assert [r.body["input"] for r in fake_openai.embedding_requests()] == [["photographers"]]
    conn = sqlite3.connect(index_path(isolated_env / "a"))
    packed = conn.execute("SELECT count(*), max(length(vec)) FROM vectors").fetchone()
    conn.close()
    assert packed == (len(rows), rows[0][2])  # one byte a value
