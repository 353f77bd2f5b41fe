"""How much of a query a hit answers, on an absolute scale from 0 to 1.

BM25 scores have no scale: the best hit of "What should I cook for dinner this
weekday?" is the one line that says "weekday", however unrelated, and a cut
relative to the best hit keeps it. Relevance here is the share of the query's
weight that the hit holds, as the index matches it (its words, its headings and
the words its neighbours lend it: a turn is read in its conversation), each
term weighted by its inverse document frequency in the searched indexes: a
word that memory holds nowhere ("cook", "dinner") weighs most, as it is what
the question is about and what nothing answers. The line saying "weekday"
holds under a third of that query's weight; "When is the PostGIS cutover?"
answered by a line holding both words is 1.

Two settings compare with it, the seed's ``searchThreshold`` (0 to 1):
``recall_threshold`` (0.35) for chat's automatic recall, which keeps only the
hits reaching it and so recalls nothing for a message memory knows nothing of;
``search_threshold`` (off by default) for ``search``, which then returns nothing
when no hit reaches it. It is off for search because a question is often
answered by a line holding few of its words ("What extra duty did Hannah get?":
"lead the bear safety talks"): on the conversation benchmark's tuning half, a
threshold of 0.25 cost 0.026 recall@10 and 0.3 cost 0.041, while unrelated chat
messages on the demo agent reach 0.22 to 0.41. Automatic recall is where an
unrelated memory does harm (it is put before the model unasked), so it has one.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence

from memclaw.text.tokenize import Query, parse_query

# Words of asking about memory rather than of what is asked: "Can you remind me what I
# said about the cutover?" is about the cutover. English, as spoken to an assistant.
_ASKING_WORDS = (
    *("hey", "hi", "hello", "please", "thanks", "remind", "tell", "told", "say", "said"),
    *("know", "think", "mean", "recall", "remember", "wonder", "ask", "asked"),
)
_ASKING = frozenset(
    form for word in _ASKING_WORDS for term in parse_query(word).terms for form in term.forms
)
_COUNT = "SELECT count(*) FROM blocks_fts WHERE blocks_fts MATCH ?"
_HELD = "SELECT rowid FROM blocks_fts WHERE blocks_fts MATCH ? AND rowid IN ({})"
_TOTAL = "SELECT coalesce(sum(blocks), 0) FROM files"


def counts(conn: sqlite3.Connection, query: Query) -> list[int]:
    """Blocks in one index, then how many hold each term of ``query``."""
    total = int(conn.execute(_TOTAL).fetchone()[0])
    return [total] + [int(conn.execute(_COUNT, (t.fts(),)).fetchone()[0]) for t in query.terms]


def term_weights(query: Query, per_index: Sequence[Sequence[int]]) -> list[float]:
    """Each term's inverse document frequency over the indexes searched, from their
    ``counts`` (BM25's, always positive: a term found nowhere weighs most); the words
    of talking about memory (``ASKING``) weigh nothing, unless the query is only those."""
    summed = [sum(column) for column in zip(*per_index, strict=True)]
    if not summed:
        return []
    total, found = summed[0], summed[1:]
    weights = [math.log(1 + (total - f + 0.5) / (f + 0.5)) for f in found]
    asking = [bool(_ASKING.intersection(t.forms)) for t in query.terms]
    if all(asking):
        return weights
    return [0.0 if a else w for a, w in zip(asking, weights, strict=True)]


def held(conn: sqlite3.Connection, query: Query, ids: Sequence[int]) -> list[set[int]]:
    """For each term of ``query``, which of the blocks ``ids`` of one index hold it."""
    sql = _HELD.format(",".join("?" * len(ids)))
    return [{int(r[0]) for r in conn.execute(sql, (t.fts(), *ids))} for t in query.terms]


def relevance(block: int, holding: Sequence[set[int]], weights: Sequence[float]) -> float:
    """The share of the query's weight that ``block`` holds (0 to 1), given which blocks
    hold each term (``held``)."""
    whole = sum(weights)
    if whole <= 0:
        return 0.0
    return sum(w for ids, w in zip(holding, weights, strict=True) if block in ids) / whole
