"""Keyword retrieval: blocks with more of the query's words first, then best BM25.

Two promises shape this module.

* Coverage first. Blocks containing every query term rank above blocks
  containing at least two, which rank above blocks containing one; inside
  each level the order is BM25 times the file's weight (times recency decay
  when enabled). Besides being what people expect, this keeps searches fast:
  the looser levels, where common words can match a good share of a big
  workspace, are only consulted when the stricter ones cannot fill the result.
* Exact weighting. Block ids carry their file kind, so daily notes and the
  other files are ranked apart by FTS5 and only their best rows are looked
  up. A row beyond the first ``n`` of a group scores at most the ``n``-th raw
  score times the group's largest weight (decay never raises a score), so
  ``n`` grows until the ``limit``-th score reaches that bound.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import replace
from itertools import combinations

from memclaw.config import Settings
from memclaw.index.blocks import ROLES, file_date, speaker_of
from memclaw.index.layout import Group
from memclaw.index.query.answer import ANSWER_BOOST
from memclaw.index.rank import Candidate, Filters, candidate, decay, weights
from memclaw.index.storage.packs import FILE_COLUMNS, FILE_OF, FileRow, Reader, StoredBlock
from memclaw.text.tokenize import STOPWORD_WORDS, Query, parse_query, tokens

# Column weights of bm25(): the block's own words count more than its headings.
BODY_WEIGHT, CONTEXT_WEIGHT = 1.0, 0.3
# The best ``n`` rows of an id range by raw BM25, with their file and whether the asker
# may see them (rows they may not see still come back: they count for the bound).
_RANKED = f"""
SELECT t.id, {FILE_COLUMNS}, ({{where}}) AS visible, t.raw FROM (
    SELECT rowid AS id, bm25(blocks_fts, {BODY_WEIGHT}, {CONTEXT_WEIGHT}) AS raw
    FROM blocks_fts WHERE blocks_fts MATCH ? AND rowid BETWEEN ? AND ?
    ORDER BY raw LIMIT ?
) AS t JOIN files f ON f.id = {FILE_OF.format("t.id")}
ORDER BY t.raw, t.id
"""
_NEWEST = (
    "SELECT rowid FROM blocks_fts WHERE blocks_fts MATCH ? AND rowid BETWEEN ? AND ?"
    " ORDER BY rowid DESC LIMIT 1 OFFSET ?"
)
# A level of one group matching more blocks than this is ranked among its most recently
# indexed ones only: BM25 barely separates thousands of one-line hits of a common word,
# and ranking them all would make such a search cost as much as a scan of the files.
MAX_RANKED = 500
FIRST_ROUND = 32
GROWTH = 4
# A reply ranks just below the question it answers: 0.8 to 1 measured the same on the
# conversation benchmark's tuning half (recall@10 0.772 against 0.744 without replies).
REPLY_SHARE = 0.9
# A turn matching by its neighbours' words only (``_as_hit``): its share of its score, and
# the length below which it scores less still. On the conversation benchmark's tuning half,
# each conversation its own agent, shares of 0.01 to 0.5 measured the same (0.844), and
# lengths of 8 words 0.839, of 15 or 30 words 0.844.
LENT_SHARE, FULL_TURN = 0.5, 15
MAX_PAIR_TERMS = 6  # pairs of at most this many terms (15 pairs) in the two-term level
# A block holding another word of the stem of a capitalised word of the query ("port"
# for "Porto"), and not the name as written, scores this share of its score: the name
# ranks first. On the conversation benchmark's tuning half recall@10 went from 0.791 to
# 0.795 (each conversation its own agent: 0.820 both); search_quality is unchanged.
OTHER_FORM_SHARE = 0.5


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
    groups: list[Group],
    answer: re.Pattern[str] | None = None,
    blocks: Reader | None = None,
) -> list[Candidate]:
    """The best ``limit`` visible blocks of one index for ``query``, best first.

    ``groups`` are the index's id ranges to rank (``layout.groups``). A block whose
    text matches ``answer`` (what the question asks for, ``query.answer``) scores
    ``ANSWER_BOOST`` times more. ``blocks`` reads the blocks (a long-lived one keeps
    the packs it read).
    """
    where = filters.where(is_global)
    if where is None or query.empty:
        return []
    clause, params = where
    ranked_sql = _RANKED.format(where=clause)
    kind_weight = weights(settings)
    personal = settings.weight_personal if filters.owner is not None else 1.0
    chosen: list[Candidate] = []
    seen: set[int] = set()
    taken: set[int] = set()  # (a reply may also have been found on its own words)
    said = _said(query)
    names = _names(query)
    blocks = blocks or Reader(conn)
    for level, match in enumerate(levels(query)):
        found: list[Candidate] = []
        for group in groups:
            found += _rank_group(
                blocks,
                filters,
                key,
                match,
                group,
                kind_weight,
                ranked_sql,
                params,
                seen,
                level=level,
                today=today,
                half_life=settings.recency_half_life_days,
                limit=limit - len(chosen),
                answer=answer,
                names=names,
                personal=personal,
            )
        seen.update(c.block_id for c in found)
        found = [c for cand in found if (c := _as_hit(cand, query, said)) is not None]
        found.sort(key=lambda c: (-c.score, c.file, c.line))
        for cand in found:  # a later level ranks below an earlier one
            if len(chosen) >= limit:
                break
            if cand.block_id not in taken:
                chosen.append(cand)
                taken.add(cand.block_id)
        if len(chosen) >= limit:
            break
    return chosen


def _as_hit(cand: Candidate, query: Query, said: re.Pattern[str] | None) -> Candidate | None:
    """``cand`` as a hit of its level, or None when only its neighbours match.

    Neighbour words lift a block that holds some of the query to the level of
    the whole query. A block holding none of it is a hit only as the reply to a
    question that matched (``_replies``) or as a turn of a conversation between
    people: there the answer is often the turn after the one the question is
    worded like ("What did Zara play at the concert?" is answered by "Ode to
    Joy, with only two mistakes", two turns after "she played at the school
    concert"). Such a turn scores ``LENT_SHARE`` of its score, less when it is
    shorter than ``FULL_TURN`` words: a short turn ("Team work.", "Coward.")
    seldom holds an answer, and BM25 favours it for its length alone. In a
    file of notes (no speakers, or a person and an assistant) a line matching
    only its neighbours is never a hit: the neighbour is, and ``--context``
    shows both. On the conversation benchmark's tuning half recall@10 went from
    0.815 to 0.821 (0.828 to 0.844 with each conversation its own agent, as in
    LoCoMo); ``benchmarks/search_quality.py`` is unchanged.
    """
    if cand.reply or _own_match(cand, query, said):
        return cand
    if not cand.turn:
        return None
    words = len(_said_part(cand.text).split())
    return replace(cand, score=cand.score * LENT_SHARE * min(1.0, words / FULL_TURN))


def _own_match(cand: Candidate, query: Query, said: re.Pattern[str] | None) -> bool:
    """Whether the block's own words or headings hold a query term, not just its neighbours'
    (so it has a word to highlight)."""
    own = f"{cand.section} {cand.text}"
    if said is not None and said.search(own):
        return True  # a word of the query as written: no need to stem the block
    return any(query.matches(t) for t in tokens(own))


def _said(query: Query) -> re.Pattern[str] | None:
    """The query's plain words (letters only, not stopwords) as a whole-word pattern.

    A block holding one of them holds a query term: the query stems each word in
    every language and the block in its own, one of the same. Tokenising a block
    (stemming every word) cost a quarter of a warm search; this check is a regex.
    A word that is not written the same way in the block ("Straße", "strasse") is
    left to the tokens.
    """
    words = {w.casefold() for w in re.findall(r"\b[^\W\d_]+\b", query.text)}
    words -= STOPWORD_WORDS
    if not words:
        return None
    return re.compile(r"\b(?:" + "|".join(sorted(words)) + r")\b", re.IGNORECASE)


Name = tuple[str, frozenset[str], re.Pattern[str]]  # as written, its stems, their words


def _names(query: Query) -> list[Name]:
    """The query's capitalised words ("Porto", "Fig"): names, which stemming folds into
    common words ("port" is Porto stemmed as Portuguese, "fig"). Each with its stems in
    every language, as the query matches them, and a pattern of the words holding one."""
    words = {w for w in re.findall(r"\b[^\W\d_]+\b", query.text) if w[0].isupper()}
    out = []
    for word in sorted(words - {w for w in words if w.casefold() in STOPWORD_WORDS}):
        terms = parse_query(word).terms
        if len(terms) != 1:
            continue
        stems = frozenset(f[0] for f in terms[0].forms if len(f) == 1)
        family = "|".join(re.escape(s) for s in sorted(stems))
        out.append((word, stems, re.compile(rf"\b(?:{family})\w*", re.IGNORECASE)))
    return out


def _misnamed(text: str, names: list[Name]) -> bool:
    """Whether ``text`` holds a word of a name's stem ("port") but never the name as
    written ("Porto"): it matched the query by a word that is not the name."""
    for name, stems, family in names:
        found = {w for w in family.findall(text) if stems.intersection(tokens(w))}
        if found and not found & {name, name.upper()}:  # ("PORTO!" is the name too)
            return True
    return False


def _replies(
    blocks: Reader,
    filters: Filters,
    key: str,
    scored: list[tuple[float, str, int, FileRow, StoredBlock]],
    level: int,
) -> list[Candidate]:
    """The turn after each asking turn of ``scored``: what answers it.

    "Who won?" matches a question about the game; the next turn, "My dad, somehow",
    is the answer and shares no word with it. It ranks just below the question, at
    its coverage level: the one hit that need not hold a word of the query. Only the
    next turn of the same section, by someone else (a speaker going on is not a reply).
    """
    have: set[int] = set()
    out = []
    for neg, _, _, file, block in scored:
        if block.kind not in ("item", "paragraph") or "?" not in _said_part(block.text):
            continue
        nxt = blocks.block(file, block.id + 1)
        if nxt is None or nxt.id in have or nxt.section != block.section:
            continue
        if not filters.dated(nxt.date):
            continue
        if nxt.kind not in ("item", "paragraph") or speaker_of(nxt.text) == speaker_of(block.text):
            continue
        have.add(nxt.id)
        out.append(replace(candidate(key, file, nxt, -neg * REPLY_SHARE, tier=level), reply=True))
    return out


def _in_dialogue(blocks: Reader, file: FileRow, block: StoredBlock) -> bool:
    """Whether ``block`` is a turn of a conversation between people: its speaker speaks
    again within two turns, and someone else in between. Labelled notes ("- Cause: ...",
    "- Fix: ...") name each label once; a person's talk with an assistant is not one."""
    speaker = speaker_of(block.text)
    if speaker is None or speaker.casefold() in ROLES:
        return False
    again, others = False, False
    for step in (-2, -1, 1, 2):
        near = blocks.block(file, block.id + step)
        if near is None or near.section != block.section:
            continue
        said = speaker_of(near.text)
        again = again or said == speaker
        others = others or (said is not None and said != speaker and said.casefold() not in ROLES)
    return again and others


def _said_part(text: str) -> str:
    speaker = speaker_of(text)
    return text.split(":", 1)[1] if speaker else text


def _rank_group(
    blocks: Reader,
    filters: Filters,
    key: str,
    match: str,
    group: Group,
    kind_weight: dict[str, float],
    ranked_sql: str,
    params: list[object],
    seen: set[int],
    *,
    level: int,
    today: str,
    half_life: float,
    limit: int,
    answer: re.Pattern[str] | None,
    names: list[Name] | None = None,
    personal: float = 1.0,
) -> list[Candidate]:
    """The best ``limit`` visible, not yet chosen blocks of one group for ``match``; the
    asker's own personal files weigh ``personal`` times more (the seed: recall prefers
    the person's own memory)."""
    heaviest = max(kind_weight.get(k, 0.0) for k in group.kinds) * max(personal, 1.0)
    if answer is not None:
        heaviest *= ANSWER_BOOST  # (for the bound below: a later row may hold the answer)
    if heaviest <= 0:
        return []
    lo = group.lo
    if not group.small:
        newest = blocks.conn.execute(_NEWEST, (match, lo, group.hi, MAX_RANKED - 1)).fetchone()
        if newest is not None:  # at least MAX_RANKED matches: rank the newest of them only
            lo = int(newest[0])
    n = max(limit, FIRST_ROUND)
    while True:
        rows = blocks.conn.execute(ranked_sql, [*params, match, lo, group.hi, n]).fetchall()
        scored = []
        for row in rows:
            file = FileRow(*row[1:7])
            weight = kind_weight.get(file.kind, 0.0)
            if file.scope == "personal":
                weight *= personal  # (visible, so the asker's own)
            if not row[7] or weight <= 0 or row[0] in seen:
                continue
            dates = filters.since or filters.until
            if dates and file.kind == "daily" and not filters.dated(file_date(file.path)):
                continue  # every block of a daily note has its date: no need to read it
            # (a block is read only once its file is known visible to the asker)
            block = blocks.block(file, row[0])
            if block is None or not filters.dated(block.date):
                continue
            score = -float(row[8]) * weight * decay(block.date, today, half_life)
            if answer is not None and answer.search(block.text):
                score *= ANSWER_BOOST
            if names and _misnamed(block.text, names):
                score *= OTHER_FORM_SHARE
            scored.append((-score, file.path, block.line, file, block))
        scored.sort(key=lambda s: s[:3])
        best = [
            replace(candidate(key, f, b, -neg, tier=level), turn=_in_dialogue(blocks, f, b))
            for neg, _, _, f, b in scored[:limit]
        ]
        if len(rows) < n:  # every (newest) match of this group has been ranked
            return best + _replies(blocks, filters, key, scored[:limit], level)
        if len(best) >= limit and best[-1].score >= -float(rows[-1][8]) * heaviest:
            return best + _replies(blocks, filters, key, scored[:limit], level)
        n *= GROWTH
