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
from memclaw.index.rank import CANDIDATE_COLUMNS, Candidate, Filters, candidate, decay, weights

if TYPE_CHECKING:
    from memclaw.llm import Embedder

# What both rankings read of a block; the vector is last (index 11).
_VECTOR_COLUMNS = f"{CANDIDATE_COLUMNS}, v.vec"
RRF_K = 60  # the usual constant of reciprocal rank fusion
EMBED_BATCH = 64
MAX_EMBED_CHARS = 4000


def open_embedder(settings: Settings) -> Embedder | None:
    """The configured embedder, or None; openai is imported only when one is configured."""
    if not settings.embedding_model:
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


def embed_missing(
    conn: sqlite3.Connection, embedder: Embedder, model: str, clause: str, params: list[Any]
) -> int:
    """Embed the visible blocks that have no cached vector yet; returns how many."""
    rows = conn.execute(
        "SELECT DISTINCT b.hash, b.text FROM blocks b JOIN files f ON f.id = b.file_id"
        " LEFT JOIN vectors v ON v.model = ? AND v.hash = b.hash"
        f" WHERE v.hash IS NULL AND {clause}",
        [model, *params],
    ).fetchall()
    done = 0
    for start in range(0, len(rows), EMBED_BATCH):
        batch = rows[start : start + EMBED_BATCH]
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
    filters: Filters,
    *,
    is_global: bool,
    settings: Settings,
    model: str,
    today: str,
    limit: int,
    extension: bool = True,
) -> list[Candidate]:
    """The ``limit`` visible blocks nearest to the query, weighted like keyword hits.

    Ranked by sqlite-vec when it can be loaded (``extension``), else by brute force
    in Python; both score a block the same way and so agree.
    """
    where = filters.where(is_global)
    if where is None:
        return []
    clause, params = where
    query = unpack(pack(query_vector))
    kind_weight = weights(settings)
    half_life = settings.recency_half_life_days

    def exact(row: Sequence[Any]) -> float | None:
        vec = unpack(row[11])
        if len(vec) != len(query):
            return None
        similarity = math.fsum(a * b for a, b in zip(query, vec, strict=True))
        score = similarity * kind_weight.get(row[10], settings.weight_other)
        return score * decay(row[5], today, half_life)

    if extension:
        from memclaw.index.nearest.sqlitevec import nearest_rows

        path = Path(conn.execute("PRAGMA database_list").fetchone()[2])
        found = nearest_rows(
            path,
            _VECTOR_COLUMNS,
            model,
            query.tobytes(),
            len(query),
            where,
            kind_weight,
            settings.weight_other,
            lambda row: exact(row) or 0.0,
            limit,
        )
        if found is not None:
            return [candidate(key, row, score) for score, row in found]
    scored: list[tuple[float, int, Candidate]] = []
    rows = conn.execute(
        f"SELECT {_VECTOR_COLUMNS} FROM blocks b JOIN files f ON f.id = b.file_id"
        " JOIN vectors v ON v.model = ? AND v.hash = b.hash"
        f" WHERE {clause}",
        [model, *params],
    )
    for row in rows:
        score = exact(row)
        if score is not None:
            scored.append((score, -row[0], candidate(key, row, score)))
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
