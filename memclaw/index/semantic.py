"""Optional semantic recall through an embeddings endpoint.

Blocks are embedded once: vectors are cached in the index by model and the hash
of the text embedded (``passages``: a dialogue turn with the turn before it), so
an unchanged block is never embedded again (not even after ``reindex``). Keyword
and vector rankings are fused by reciprocal rank; in the vector ranking, blocks that
say little (headings, bookkeeping, short replies: ``says_little``) come last.
"""

from __future__ import annotations

import hashlib
import heapq
import logging
import re
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import memclaw.index.vectors as vectors
from memclaw.config import Settings
from memclaw.facts.ids import is_meta
from memclaw.index.blocks import NEIGHBOUR_CHARS, speaker_of
from memclaw.index.rank import Candidate, Filters, candidate, decay, weights
from memclaw.index.schema import rollback
from memclaw.index.storage.packs import FileRow, StoredBlock, visible_blocks

if TYPE_CHECKING:
    from memclaw.llm import Embedder

# Fusion constant: 60 is the usual one, but it flattens ranks so much that a vector-only
# block ties keyword's tenth hit. Tuned on benchmarks/conversations/dev with
# multilingual-e5-small (recall@10, keyword alone 0.787): k 60 weight 0.5 gave 0.800,
# k 10 weight 0.5 0.853, k 5 weight 0.7 0.867 with the best recall@5 (0.827). Checked again
# with ``says_little`` (weight 1.0, keyword alone 0.821): k 3 / 5 / 10 / 20 gave 0.892 /
# 0.892 / 0.892 / 0.877 (R@5 0.836 / 0.831 / 0.841 / 0.810, MRR 0.642 / 0.647 / 0.641 / 0.630).
RRF_K = 5
EMBED_BATCH = 64
MAX_EMBED_CHARS = 4000


# A search embeds at most this many blocks itself (what a chat or a remember just wrote);
# beyond that (embeddings newly turned on, a large import) it ranks the blocks that have a
# vector, says once how many wait, and ``memclaw reindex`` embeds them with a progress bar:
# a first search used to embed a whole agent in silence (762 s for 1,865 turns).
SEARCH_EMBEDS = EMBED_BATCH
QUERY_CACHE = 512  # query vectors a searcher keeps (a chat asks about the same things)
# After a failed request the endpoint rests this long: a chat or MCP server keeps
# answering from keywords at full speed instead of waiting out a timeout every turn.
REST_SECONDS = 60.0


class Recall:
    """What a long-lived searcher keeps for semantic recall: the embedder, the vectors of
    recent queries, and, per index, which blocks are embedded and visible.

    Without it every search would read every block and every cached hash again; with
    it a search costs one embedding request (none for a repeated query) and one pass
    of sqlite-vec, until the index changes (a new ``Reader`` of the source).
    """

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._rest_until = 0.0
        self._queries: OrderedDict[str, list[float]] = OrderedDict()
        # index key -> (the reader the entries belong to, visible blocks by filter)
        self._blocks: dict[str, tuple[object, dict[tuple[Any, ...], Visible]]] = {}
        self._told: set[str] = set()  # indexes whose waiting blocks were mentioned

    def failed(self, error: Exception) -> None:
        """Say once that semantic recall is skipped, and rest the endpoint."""
        logging.getLogger("memclaw.index").warning(
            "semantic recall skipped, keyword results only: %s", error
        )
        self._rest_until = time.monotonic() + REST_SECONDS

    def resting(self) -> bool:
        return time.monotonic() < self._rest_until

    def query_vector(self, text: str) -> list[float]:
        found = self._queries.get(text)
        if found is None:
            found = self.embedder.embed([text], kind="query")[0]
            self._queries[text] = found
            if len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
        else:
            self._queries.move_to_end(text)
        return found

    def blocks(
        self,
        conn: sqlite3.Connection,
        key: str,
        reader: object,
        filters: Filters,
        *,
        is_global: bool,
        batch_size: int,
    ) -> Visible:
        """The blocks ``filters`` let the asker see, each embedded (missing ones now)."""
        seen = self._blocks.get(key)
        if seen is None or seen[0] is not reader:
            seen = self._blocks[key] = (reader, {})
        where = filters.where(is_global)
        if where is None:
            return []
        shown = seen[1].get((where[0], *where[1]))
        if shown is None:
            shown = passages(visible_blocks(conn, *where))
            waiting = missing(conn, self.embedder.key, shown)
            if len(waiting) <= SEARCH_EMBEDS:
                embed_texts(conn, self.embedder, waiting, batch_size=batch_size)
            elif key not in self._told:
                self._told.add(key)
                logging.getLogger("memclaw.index").warning(
                    "semantic recall covers %d of %d blocks of %s; `memclaw reindex %s` "
                    "embeds the rest",
                    len(shown) - len(waiting),
                    len(shown),
                    key,
                    key,
                )
            seen[1][(where[0], *where[1])] = shown
        if filters.since is None and filters.until is None:
            return shown  # (most searches: no list of thousands rebuilt)
        return [p for p in shown if filters.dated(p.block.date)]


def open_embedder(settings: Settings) -> Embedder | None:
    """The configured embedder, or None; openai is imported only when one is configured."""
    if not settings.embedding_configured:
        return None
    from memclaw.llm import open_embedder as _open

    return _open(settings)


class Passage(NamedTuple):
    """What is embedded for one block, and the key its vector is cached under."""

    file: FileRow
    block: StoredBlock
    text: str  # the block, after the turn before it when it is a dialogue turn
    key: str  # the hash of ``text``: the block's own hash when it is embedded alone
    little: bool = False  # ``says_little``: found once, not on every search


Visible = list[Passage]
_MARKER = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+")


def _turn(block: StoredBlock) -> bool:
    return block.kind in ("item", "paragraph") and speaker_of(block.text) is not None


def _bare(text: str) -> str:
    """A turn without its list marker: "- Ana: hi" is embedded as "Ana: hi"."""
    marker = _MARKER.match(text)
    return text[marker.end() :] if marker else text


_SPEAKER_LABEL = re.compile(r"[^\W\d][\w .'’-]{0,40}?:[ \t]+")
_BRACKETS = re.compile(r"\[[^\]]*\]")
_WORD = re.compile(r"\w+")
_HEADING = re.compile(r"#{1,6}(?:[ \t]|$)")
# A turn of at most this many words of its own (a photo's caption left out) says little:
# its vector is mostly the turn before it (``passages``), which is ranked already. Measured
# on dev with multilingual-e5-small (R@10, keyword alone 0.821, hybrid before 0.864): headings,
# meta lines and caption-only turns alone 0.864 (R@5 0.810 -> 0.815); with the turns of
# 1 word 0.864, 2 words 0.869, 3 0.879, 4 0.887, 5 0.892 (R@5 0.831, MRR 0.647, the best),
# 6 0.897 (MRR 0.632), 8 0.892. A floor on vector scores relative to the best (0.9 / 0.95 /
# 0.97: R@10 0.897 / 0.900 / 0.900) was left out: the scores carry the file's weight, so a
# MEMORY.md hit would shut out every daily note.
SHORT_TURN = 5
_CURATED = frozenset(("memory", "entries", "profile", "agents"))


def says_little(text: str, kind: str) -> bool:
    """Whether a block's ``text`` (in a file of ``kind``, ``layout.classify``) states
    nothing a question could be answered by: a heading (a session's time and speakers, a
    daily note's date), a bookkeeping line (``- created: 2026-12-01``, ``is_meta``), a
    turn that is only a photo's caption in brackets, or a turn of a few words ("Coward.",
    ``SHORT_TURN``).

    Such a block has so little of its own that its vector sits near many questions
    (or, for a short reply, is the turn before it again): the vectors rank it after
    every block that says something (``vector_candidates``). In the files a person
    curates (MEMORY.md, entries, PROFILE.md, AGENTS.md) a short "Label: value" line
    is a fact ("- Birthday: 12 March"), not a reply: only its caption-only form counts.
    """
    text = text.strip()
    if _HEADING.match(text) or is_meta(text):
        return True
    if speaker_of(text) is None:
        return False
    said = _bare(text)
    label = _SPEAKER_LABEL.match(said)
    said = said[label.end() :] if label else said
    words = len(_WORD.findall(_BRACKETS.sub(" ", said)))
    return words <= (0 if kind in _CURATED else SHORT_TURN)


def text_key(text: str) -> str:
    """The key of a vector: as ``StoredBlock.hash``, so a block embedded alone keeps it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def passages(blocks: Iterable[tuple[FileRow, StoredBlock]]) -> Visible:
    """What each of ``blocks`` (file by file, in order, as ``visible_blocks`` yields them)
    is embedded as.

    A dialogue turn ("Ana: ...") is embedded after the turn before it in the same
    section: a reply such as "Yes, last Friday!" means nothing alone (the keyword side
    lends neighbours' words for the same reason, ``blocks.lent_words``). Its vector is
    keyed by that text, so editing or forgetting either turn leaves the old vector
    unused; ``unused_vectors`` finds it for forget and the index scan.
    """
    out: Visible = []
    before: tuple[int, StoredBlock] | None = None
    for file, block in blocks:
        text = block.text
        prev = before[1] if before is not None and before[0] == file.id else None
        if (
            prev is not None
            and prev.id == block.id - 1
            and prev.section == block.section
            and _turn(prev)
            and _turn(block)
        ):
            text = f"{_bare(prev.text)[:NEIGHBOUR_CHARS]}\n{_bare(block.text)}"
        out.append(Passage(file, block, text, text_key(text), says_little(block.text, file.kind)))
        before = (file.id, block)
    return out


def unused_vectors(conn: sqlite3.Connection) -> list[str]:
    """The keys of cached vectors no block of the index is embedded as any more."""
    used = {p.key for p in passages(visible_blocks(conn))}
    return sorted(vectors.keys(conn) - used)


def visible(conn: sqlite3.Connection, filters: Filters, *, is_global: bool) -> Visible:
    """Every block of one index that ``filters`` let the asker see, as it is embedded."""
    where = filters.where(is_global)
    if where is None:
        return []
    return [p for p in passages(visible_blocks(conn, *where)) if filters.dated(p.block.date)]


def missing(conn: sqlite3.Connection, model: str, blocks: Visible) -> dict[str, str]:
    """The texts of ``blocks`` with no vector cached under ``model``, by key (a text held
    by several blocks once)."""
    have = vectors.keys(conn, model)
    return {p.key: p.text for p in blocks if p.key not in have}


def embed_missing(
    conn: sqlite3.Connection,
    embedder: Embedder,
    blocks: Visible,
    *,
    batch_size: int = EMBED_BATCH,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Embed those of ``blocks`` that have no vector cached under ``embedder.key``;
    returns how many (a text held by several blocks is embedded once)."""
    waiting = missing(conn, embedder.key, blocks)
    return embed_texts(conn, embedder, waiting, batch_size=batch_size, progress=progress)


def embed_texts(
    conn: sqlite3.Connection,
    embedder: Embedder,
    texts: dict[str, str],
    *,
    batch_size: int = EMBED_BATCH,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Embed ``texts`` (by key) and cache their vectors, a batch per transaction: work
    stopped midway (Ctrl-C, a failed request) keeps every batch done, and the next run
    embeds only the rest. ``progress(done, total)`` is called after each batch."""
    model = embedder.key
    rows = list(texts.items())
    done = 0
    for start in range(0, len(rows), batch_size):
        batch = rows[start : start + batch_size]
        made = embedder.embed([text[:MAX_EMBED_CHARS] for _, text in batch])
        records = [(digest, vec) for (digest, _), vec in zip(batch, made, strict=True)]
        # One short transaction per batch: a failure later keeps what was paid for.
        conn.execute("BEGIN IMMEDIATE")
        try:
            vectors.add(conn, model, records)
        except BaseException:
            rollback(conn)
            raise
        conn.execute("COMMIT")
        done += len(batch)
        if progress is not None:
            progress(done, len(rows))
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

    The question is packed as the vectors are (``vectors.pack``), and its cosine to each
    cached vector is computed by sqlite-vec when it can be loaded (``extension``), else
    in Python (``vectors.similarity``): the same figure either way, times the file's
    weight and decay. (Packing both moves a cosine by 0.0016 at most: ``make bench-real``.)
    """
    if not blocks:
        return []
    packed = vectors.pack(query_vector)
    near = None
    if extension:
        from memclaw.index.nearest.sqlitevec import similarities

        path = Path(conn.execute("PRAGMA database_list").fetchone()[2])
        near = similarities(path, model, packed, len(query_vector))
    if near is None:  # brute force: every vector of the model, read at once
        query = vectors.unpack(packed)
        near = {
            digest: vectors.similarity(query, vec)
            for digest, vec in vectors.read(conn, model)
            if len(vec) == len(query)
        }
    kind_weight = weights(settings)
    decays: dict[str | None, float] = {}  # by day: most blocks share one with many

    def aged(day: str | None) -> float:
        if day not in decays:
            decays[day] = decay(day, today, settings.recency_half_life_days)
        return decays[day]

    def nearest(among: Visible, want: int) -> list[Candidate]:
        scored = [
            (
                near[digest] * kind_weight.get(file.kind, settings.weight_other) * aged(block.date),
                -block.id,
                file,
                block,
            )
            for file, block, _, digest, _ in among
            if digest in near
        ]
        best = heapq.nlargest(want, scored, key=lambda t: (t[0], t[1]))
        return [candidate(key, file, block, score) for score, _, file, block in best]

    # Headings, bookkeeping and short turns only after every block that says something
    # (``says_little``): on dev they crowded answers out of the top 10 (``SHORT_TURN``).
    said = nearest([p for p in blocks if not p.little], limit)
    if len(said) < limit:
        said += nearest([p for p in blocks if p.little], limit - len(said))
    return said


def fuse(
    keyword: Sequence[Candidate], vector: Sequence[Candidate], *, weight: float, k: int = RRF_K
) -> list[Candidate]:
    """Weighted reciprocal rank fusion of the keyword ranking with the vector ranking.

    A block scores ``1/(k + keyword rank) + weight/(k + vector rank)``: with ``weight``
    below 1 the vectors reorder keyword's hits and add the blocks keyword missed without
    pushing its strong hits down. Keyword's coverage tiers are kept monotone along the
    fused order (each block takes the highest tier of the keyword hits at or above it),
    so the re-ranking that sorts by tier afterwards (people, ``query.people``) keeps the
    fused order instead of lifting every vector-only block (tier 0) above keyword's.
    """
    fused: dict[tuple[str, int], float] = {}
    first: dict[tuple[str, int], Candidate] = {}
    for ranking, scale in ((keyword, 1.0), (vector, weight)):
        for rank, cand in enumerate(ranking, start=1):
            ident = (cand.key, cand.block_id)
            fused[ident] = fused.get(ident, 0.0) + scale / (k + rank)
            first.setdefault(ident, cand)
    tiers = {(c.key, c.block_id): c.tier for c in keyword}
    order = sorted(fused, key=lambda i: (-fused[i], first[i].file, first[i].line))
    tier = min(tiers.values(), default=0)
    out = []
    for ident in order:
        tier = max(tier, tiers.get(ident, tier))
        out.append(replace(first[ident], score=fused[ident], tier=tier))
    return out
