"""Optional semantic recall through an embeddings endpoint.

Blocks are embedded once: vectors are cached in the index by model and
content hash, so an unchanged block is never embedded again (not even after
``reindex``). Keyword and vector rankings are fused by reciprocal rank.
"""

from __future__ import annotations

import heapq
import math
import sqlite3
from array import array
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.config import Settings
from memclaw.index.rank import Candidate, Filters, candidate, decay, weights
from memclaw.index.storage.packs import FileRow, StoredBlock, visible_blocks

if TYPE_CHECKING:
    from memclaw.llm import Embedder

_ONE_VECTOR = "SELECT hash, vec FROM vectors WHERE model = ? AND hash = ?"
RRF_K = 60  # the usual constant of reciprocal rank fusion
EMBED_BATCH = 64
MAX_EMBED_CHARS = 4000


def open_embedder(settings: Settings) -> Embedder | None:
    """The configured embedder, or None; openai is imported only when one is configured."""
    if not settings.embedding_configured:
        return None
    from memclaw.llm import open_embedder as _open

    return _open(settings)


def pack(vector: Sequence[float]) -> bytes:
    """A unit-length float32 blob, so cosine similarity is a dot product."""
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return array("f", (x / norm for x in vector)).tobytes()


def unpack(blob: bytes) -> array[float]:
    values = array("f")
    values.frombytes(blob)
    return values


def _cached(conn: sqlite3.Connection, model: str) -> set[str]:
    return {str(h) for (h,) in conn.execute("SELECT hash FROM vectors WHERE model = ?", (model,))}


Visible = list[tuple[FileRow, StoredBlock]]


def visible(conn: sqlite3.Connection, filters: Filters, *, is_global: bool) -> Visible:
    """Every block of one index that ``filters`` let the asker see, with its file."""
    where = filters.where(is_global)
    if where is None:
        return []
    return [(f, b) for f, b in visible_blocks(conn, *where) if filters.dated(b.date)]


def embed_missing(
    conn: sqlite3.Connection, embedder: Embedder, blocks: Visible, *, batch_size: int = EMBED_BATCH
) -> int:
    """Embed those of ``blocks`` that have no vector cached under ``embedder.key``;
    returns how many."""
    model = embedder.key
    have = _cached(conn, model)
    missing: dict[str, str] = {}
    for _, block in blocks:
        if block.hash not in have:
            missing.setdefault(block.hash, block.text)
    rows = list(missing.items())
    done = 0
    for start in range(0, len(rows), batch_size):
        batch = rows[start : start + batch_size]
        vectors = embedder.embed([text[:MAX_EMBED_CHARS] for _, text in batch])
        records = [
            (model, digest, len(vec), pack(vec))
            for (digest, _), vec in zip(batch, vectors, strict=True)
        ]
        # One short transaction per batch: a failure later keeps what was paid for.
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)", records)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        done += len(batch)
    return done


def vector_candidates(
    conn: sqlite3.Connection,
    key: str,
    query_vector: Sequence[float],
    blocks: Visible,
    *,
    settings: Settings,
    model: str,
    today: str,
    limit: int,
    extension: bool = True,
) -> list[Candidate]:
    """The ``limit`` of ``blocks`` (``visible``) nearest to the query, weighted like
    keyword hits.

    Every cached vector is compared by sqlite-vec when it can be loaded
    (``extension``), else in Python; the best are scored exactly either way (the
    float64 dot product times the file's weight and decay), so both paths agree.
    """
    if not blocks:
        return []
    query = unpack(pack(query_vector))
    kind_weight = weights(settings)
    half_life = settings.recency_half_life_days
    vectors: dict[str, array[float]] = {}

    def read_vectors(sql: str, params: Sequence[Any]) -> None:
        for digest, blob in conn.execute(sql, params):
            vec = unpack(blob)
            if len(vec) == len(query):
                vectors[str(digest)] = vec

    def exact(file: FileRow, block: StoredBlock) -> float | None:
        if block.hash not in vectors:
            read_vectors(_ONE_VECTOR, (model, block.hash))
        vec = vectors.get(block.hash)
        if vec is None:
            return None
        similarity = math.fsum(a * b for a, b in zip(query, vec, strict=True))
        score = similarity * kind_weight.get(file.kind, settings.weight_other)
        return score * decay(block.date, today, half_life)

    near = None
    if extension:
        from memclaw.index.nearest.sqlitevec import similarities

        path = Path(conn.execute("PRAGMA database_list").fetchone()[2])
        near = similarities(path, model, query.tobytes(), len(query))
    scored: list[tuple[float, int, Candidate]] = []
    if near is None:  # brute force: every vector of the model, read at once
        read_vectors("SELECT hash, vec FROM vectors WHERE model = ?", (model,))
        for file, block in blocks:
            score = exact(file, block)
            if score is not None:
                scored.append((score, -block.id, candidate(key, file, block, score)))
        return [c for _, _, c in heapq.nlargest(limit, scored, key=lambda t: (t[0], t[1]))]
    from memclaw.index.nearest.sqlitevec import SLACK

    # In order of the float32 similarity times the weight: decay never raises a positive
    # score, so once ``limit`` exact scores reach the next bound, no later block can win.
    bounds = [
        (near[b.hash] * kind_weight.get(f.kind, settings.weight_other), -b.id, f, b)
        for f, b in blocks
        if b.hash in near
    ]
    bounds.sort(key=lambda t: (-t[0], -t[1]))
    top: list[float] = []  # the best ``limit`` exact scores so far, lowest first
    for bound, _, file, block in bounds:
        # (decay can raise a negative score towards 0: the bound is at least 0)
        if len(top) >= limit and top[0] >= max(bound, 0.0) + SLACK:
            break
        score = exact(file, block)
        if score is not None:
            scored.append((score, -block.id, candidate(key, file, block, score)))
            heapq.heappush(top, score)
            if len(top) > limit:
                heapq.heappop(top)
    return [c for _, _, c in heapq.nlargest(limit, scored, key=lambda t: (t[0], t[1]))]


def fuse(rankings: Sequence[Sequence[Candidate]]) -> list[Candidate]:
    """Reciprocal rank fusion: a block ranked high by either list rises to the top."""
    fused: dict[tuple[str, int], float] = {}
    first: dict[tuple[str, int], Candidate] = {}
    for ranking in rankings:
        for rank, cand in enumerate(ranking, start=1):
            ident = (cand.key, cand.block_id)
            fused[ident] = fused.get(ident, 0.0) + 1.0 / (RRF_K + rank)
            first.setdefault(ident, cand)
    order = sorted(fused, key=lambda i: (-fused[i], first[i].file, first[i].line))
    return [replace(first[i], score=fused[i]) for i in order]
