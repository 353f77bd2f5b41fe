"""Keyword retrieval: blocks with more of the query's words first, then best BM25.

Two promises shape this module.

* Coverage first. Blocks containing every query term rank above blocks
  containing at least two, which rank above blocks containing one; inside
  each level the order is BM25 times the file's weight (times recency decay
  when enabled). Besides being what people expect, this keeps searches fast:
  the looser levels, where common words can match a good share of a big
  workspace, are only consulted when the stricter ones cannot fill the result.
* Exact weighting. Block ids carry their file kind, so each kind (one
  ranking weight) is ranked alone by FTS5 and only its best rows are looked
  up. With recency decay, a row beyond the first ``n`` scores at most the
  ``n``-th raw score times the kind's weight, so ``n`` grows until the
  ``limit``-th score reaches that bound.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from itertools import combinations

from memclaw.config import Settings
from memclaw.index.layout import kind_range
from memclaw.index.rank import CANDIDATE_COLUMNS, Candidate, Filters, candidate, decay, weights
from memclaw.index.tokenize import Query

# Column weights of bm25(): the block's own words count more than its headings.
BODY_WEIGHT, CONTEXT_WEIGHT = 1.0, 0.3
_TOP = (
    f"SELECT rowid, bm25(blocks_fts, {BODY_WEIGHT}, {CONTEXT_WEIGHT}) AS raw FROM blocks_fts"
    " WHERE blocks_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY raw LIMIT ?"
)
_ROWS = (
    f"SELECT {CANDIDATE_COLUMNS} FROM blocks b JOIN files f ON f.id = b.file_id"
    " WHERE b.id IN (SELECT value FROM json_each(?)) AND {where}"
)
_NEWEST = (
    "SELECT rowid FROM blocks_fts WHERE blocks_fts MATCH ? AND rowid BETWEEN ? AND ?"
    " ORDER BY rowid DESC LIMIT 1 OFFSET ?"
)
# A level of one kind matching more blocks than this is ranked among its most recently
# indexed ones only: BM25 barely separates thousands of one-line hits of a common word,
# and ranking them all would make such a search cost as much as a scan of the files.
MAX_RANKED = 1000
FIRST_ROUND = 64
GROWTH = 4
MAX_PAIR_TERMS = 6  # pairs of at most this many terms (15 pairs) in the multi-term level


def levels(query: Query) -> list[str]:
    """MATCH expressions from most to least demanding: every term, two terms, any term."""
    terms = list(query.terms)
    if len(terms) < 2:
        return [query.match()]
    every = " AND ".join(t.fts() for t in terms)
    if len(terms) == 2:
        return [every, query.match()]
    pairs = combinations(terms[:MAX_PAIR_TERMS], 2)
    both = " OR ".join(f"({a.fts()} AND {b.fts()})" for a, b in pairs)
    return [every, both, query.match()]


def keyword_candidates(
    conn: sqlite3.Connection,
    key: str,
    query: Query,
    filters: Filters,
    *,
    is_global: bool,
    settings: Settings,
    today: str,
    limit: int,
    kinds: list[str],
) -> list[Candidate]:
    """The best ``limit`` visible blocks of one index for ``query``, best first.

    ``kinds`` are the file kinds that have blocks in this index (``present_kinds``).
    """
    where = filters.where(is_global)
    if where is None or query.empty:
        return []
    clause, params = where
    rows_sql = _ROWS.format(where=clause)
    kind_weight = weights(settings)
    kinds = [k for k in kinds if kind_weight.get(k, settings.weight_other) > 0]
    chosen: list[Candidate] = []
    seen: set[int] = set()
    for level, match in enumerate(levels(query)):
        found: list[Candidate] = []
        for kind in kinds:
            found += _rank_kind(
                conn,
                key,
                match,
                kind,
                kind_weight.get(kind, settings.weight_other),
                rows_sql,
                params,
                seen,
                today=today,
                half_life=settings.recency_half_life_days,
                limit=limit - len(chosen),
            )
        found.sort(key=lambda c: (-c.score, c.file, c.line))
        found = [replace(c, tier=level) for c in found[: limit - len(chosen)]]
        chosen += found  # a later level ranks below an earlier one whatever its BM25
        seen.update(c.block_id for c in found)
        if len(chosen) >= limit:
            break
    return chosen[:limit]


def _rank_kind(
    conn: sqlite3.Connection,
    key: str,
    match: str,
    kind: str,
    weight: float,
    rows_sql: str,
    params: list[object],
    seen: set[int],
    *,
    today: str,
    half_life: float,
    limit: int,
) -> list[Candidate]:
    """The best ``limit`` visible, not yet chosen blocks of one kind for ``match``."""
    lo, hi = kind_range(kind)
    newest = conn.execute(_NEWEST, (match, lo, hi, MAX_RANKED - 1)).fetchone()
    if newest is not None:  # at least MAX_RANKED matches: rank the newest of them only
        lo = int(newest[0])
    n = max(limit, FIRST_ROUND)
    while True:
        top = conn.execute(_TOP, (match, lo, hi, n)).fetchall()
        raw = {int(rowid): -float(score) for rowid, score in top if rowid not in seen}
        found = []
        for row in conn.execute(rows_sql, [json.dumps(list(raw)), *params]):
            score = raw[row[0]] * weight * decay(row[5], today, half_life)
            found.append(candidate(key, row, score))
        found.sort(key=lambda c: (-c.score, c.file, c.line))
        if len(top) < n:
            return found[:limit]  # every match of this kind has been ranked
        if len(found) >= limit and found[limit - 1].score >= -float(top[-1][1]) * weight:
            return found[:limit]
        n *= GROWTH
