"""Search: bring the indexes up to date, rank, fuse, cut snippets, log the recall."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING

from memclaw.errors import ModelError, UsageError
from memclaw.index.damage import IndexDamaged, damaged_again
from memclaw.index.facts.signal import TrustSignal
from memclaw.index.keyword import MAX_RANKED, keyword_candidates
from memclaw.index.query.answer import answer_pattern
from memclaw.index.query.compounds import with_compounds
from memclaw.index.query.people import by_person
from memclaw.index.query.when import read_when
from memclaw.index.rank import (
    Candidate,
    Filters,
    Hit,
    authoritative_first,
    group_files,
    make_filters,
    once_each,
    to_hit,
)
from memclaw.index.recall_log import log_recall
from memclaw.index.sources import Source, Sources
from memclaw.text.tokenize import Query, parse_query

if TYPE_CHECKING:
    from memclaw.config import Settings
    from memclaw.index.semantic import Recall
    from memclaw.llm import ChatModel, Embedder
    from memclaw.workspace import OwnerKey, Workspace


# More hits than anyone reads; SQLite takes no larger number.
MAX_LIMIT = 100_000


class Searcher:
    """Searches a workspace, keeping its indexes open between searches.

    ``search()`` uses one for a single call. A long-running process (chat)
    keeps one open; with a ``WorkspaceWatcher`` re-indexing edits it can pass
    ``sync=False`` and each search is just the query.
    """

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._sources = Sources(workspace)
        self._recall: list[Recall | None] = []  # opened on the first semantic search
        self._reranker: list[ChatModel | None] = []  # opened on the first re-ranked search

    def embedder(self) -> Embedder | None:
        """The configured embedder (None without one); created once per searcher."""
        recall = self.recall()
        return None if recall is None else recall.embedder

    def recall(self) -> Recall | None:
        """Semantic recall's state (None without an embedder); created once per searcher."""
        if not self._recall:
            from memclaw.index.semantic import Recall, open_embedder

            embedder = open_embedder(self.workspace.settings)
            self._recall.append(None if embedder is None else Recall(embedder))
        return self._recall[0]

    def reranker(self) -> ChatModel | None:
        """The chat model that re-ranks (None when none is configured); created once."""
        if not self._reranker:
            from memclaw.llm import open_model_if_configured

            self._reranker.append(open_model_if_configured(self.workspace.settings))
        return self._reranker[0]

    def __enter__(self) -> Searcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._sources.close()

    def search(
        self,
        query: str,
        *,
        agents: Sequence[str] | None = None,
        owner: OwnerKey | None = None,
        scope: str = "all",
        since: str | date | None = None,
        until: str | date | None = None,
        limit: int | None = None,
        log: bool = True,
        sync: bool = True,
    ) -> list[Hit]:
        """See ``search``."""
        healed: set[str] = set()
        while True:
            try:
                return self._search(query, agents, owner, scope, since, until, limit, log, sync)
            except IndexDamaged as damaged:
                if damaged.key in healed:
                    path = self._sources.path(damaged.key)
                    raise damaged_again(path, damaged.detail) from damaged
                # The index is derived data: set it aside and search again on a rebuilt one.
                healed.add(damaged.key)
                self._sources.heal(damaged)

    def _search(
        self,
        query: str,
        agents: Sequence[str] | None,
        owner: OwnerKey | None,
        scope: str,
        since: str | date | None,
        until: str | date | None,
        limit: int | None,
        log: bool,
        sync: bool,
    ) -> list[Hit]:
        workspace = self.workspace
        settings = workspace.settings
        filters = make_filters(owner, scope, since, until)
        limit = settings.search_limit if limit is None else limit
        if not 1 <= limit <= MAX_LIMIT:
            raise UsageError(f"limit must be from 1 to {MAX_LIMIT}, got {limit}")
        parsed = parse_query(query)
        sources = self._sources.select(agents, filters, bring_up_to_date=sync)
        if parsed.empty:
            return []
        parsed = with_compounds(parsed, _holding(sources))
        pool = _pool(settings, limit)
        trust = TrustSignal(settings.trust_weight)  # one per search: trust is computed now
        ranked = _rank(self, sources, parsed, filters, pool=pool, trust=trust)
        if settings.search_dates:
            dated = _dated(self, sources, query, filters, pool=pool, trust=trust)
            ranked = _dated_first(dated, ranked)
        ranked = by_person(query, ranked)
        if settings.search_rerank:
            model = self.reranker()
            if model is not None:
                from memclaw.index.query.rerank import rerank

                ranked = rerank(model, query, ranked, settings.search_rerank)
        ranked = authoritative_first(ranked, settings)
        chosen = group_files(once_each(ranked), settings.search_max_files)[:limit]
        hits = [to_hit(c, parsed) for c in chosen]
        if hits:
            rated = _relevance(sources, _asked(query, parsed, _today(sources, workspace)), chosen)
            hits = [replace(h, relevance=r) for h, r in zip(hits, rated, strict=True)]
            if max(rated) < settings.search_threshold:
                hits = []  # the best of an unrelated search is still unrelated
        if log and hits:
            log_recall(workspace, query, hits, owner=filters.owner, scope=filters.scope)
        return hits


def search(
    workspace: Workspace,
    query: str,
    *,
    agents: Sequence[str] | None = None,
    owner: OwnerKey | None = None,
    scope: str = "all",
    since: str | date | None = None,
    until: str | date | None = None,
    limit: int | None = None,
    log: bool = True,
    sync: bool = True,
) -> list[Hit]:
    """Find the blocks that best answer ``query``, best first.

    ``agents`` None means every agent; GLOBAL files are searched too unless
    ``scope`` excludes them. PERSONAL blocks are visible only when ``owner``
    (the reader, normalised at the edge) is their owner. ``since``/``until``
    (inclusive, YYYY-MM-DD) keep dated blocks only. ``sync`` False skips the
    freshness check (a watcher keeps the index current). Searches with hits
    are appended to each agent's recall log unless ``log`` is False.
    """
    with Searcher(workspace) as searcher:
        return searcher.search(
            query,
            agents=agents,
            owner=owner,
            scope=scope,
            since=since,
            until=until,
            limit=limit,
            log=log,
            sync=sync,
        )


def _today(sources: list[Source], workspace: Workspace) -> date:
    """The day a search runs on: the searched agents' own when they agree (an agent may
    be pinned to a day, as the demo is), else the workspace clock's."""
    days = {src.agent.now().date() for src in sources if src.agent is not None}
    return days.pop() if len(days) == 1 else workspace.clock().date()


def _asked(query: str, parsed: Query, today: date) -> Query:
    """What a hit must hold of ``query`` to be relevant: its words but those naming a day
    ("on 3 June", "last week"), which a block answers by its date, not its words."""
    when = read_when(query, today)
    if when is None:
        return parsed
    rest = parse_query(when.rest)
    return rest if not rest.empty else parsed


def _relevance(sources: list[Source], query: Query, chosen: list[Candidate]) -> list[float]:
    """How much of ``query`` each of ``chosen`` holds, from 0 to 1 (``query.relevance``)."""
    from memclaw.index.query.relevance import counts, held, relevance, term_weights

    per_index, holding = [], {}
    for src in sources:
        with src.reading() as conn:
            per_index.append(counts(conn, query))
            ids = [c.block_id for c in chosen if c.key == src.key]
            if ids:
                holding[src.key] = held(conn, query, ids)
    weights = term_weights(query, per_index)
    return [relevance(c.block_id, holding[c.key], weights) for c in chosen]


def _holding(sources: list[Source]) -> Callable[[str], bool]:
    """Whether any of ``sources`` holds a word (asked once per word and search)."""

    @functools.cache
    def holds(token: str) -> bool:
        return any(src.holds(token) for src in sources)

    return holds


def _pool(settings: Settings, limit: int) -> int:
    """Candidates to fetch: just ``limit``, unless file grouping or fusion may drop some."""
    if settings.embedding_model:
        return max(limit * 5, 50)
    if settings.search_rerank:
        return max(limit * 3, settings.search_rerank)
    # Three times the limit: people (query.people) and dates reorder the best candidates.
    return limit * 3


def _dated(
    searcher: Searcher,
    sources: list[Source],
    query: str,
    filters: Filters,
    *,
    pool: int,
    trust: TrustSignal,
) -> list[Candidate]:
    """The blocks of the days the query names, ranked for its other words (see ``when``).

    They come before the whole query's ranking: a question anchored in time is
    answered by the notes of that time, which rarely repeat the date itself.
    """
    when = read_when(query, _today(sources, searcher.workspace))
    if when is None:
        return []
    rest = with_compounds(parse_query(when.rest), _holding(sources))
    since, until = when.window()
    since = max(since, filters.since or since)
    until = min(until, filters.until or until)
    if rest.empty or since > until:
        return []
    narrowed = replace(filters, since=since, until=until)
    # (the vectors of the whole question serve: one embedding request per search)
    return _rank(searcher, sources, rest, narrowed, pool=pool, trust=trust, asked=query)


def _dated_first(dated: list[Candidate], ranked: list[Candidate]) -> list[Candidate]:
    """The blocks of the days the query names before the others holding as much of it.

    Not before those holding more: "What extra duty did Hannah get this summer?"
    is answered by "lead the bear safety talks this summer", said in April; a
    summer turn holding only "Hannah" ("Smart woman.") does not outrank it.
    """
    if not dated:
        return ranked
    first = {(c.key, c.block_id) for c in dated}
    merged = dated + [c for c in ranked if (c.key, c.block_id) not in first]
    # (sorting is stable: each group keeps its own order within a level)
    return sorted(merged, key=lambda c: (c.tier, (c.key, c.block_id) not in first))


def _rank(
    searcher: Searcher,
    sources: list[Source],
    query: Query,
    filters: Filters,
    *,
    pool: int,
    trust: TrustSignal,
    asked: str | None = None,
) -> list[Candidate]:
    workspace = searcher.workspace
    settings = workspace.settings
    today = _today(sources, workspace).isoformat()
    answer = answer_pattern(query.text) if settings.search_answers else None
    keyword: list[Candidate] = []
    for src in sources:
        with src.reading() as conn:
            found = keyword_candidates(
                conn,
                src.key,
                query,
                filters,
                is_global=src.is_global,
                settings=settings,
                today=today,
                limit=pool,
                groups=src.groups(MAX_RANKED),
                answer=answer,
                blocks=src.reader(),
            )
            keyword += trust.adjust(src.key, conn, src.agent, found)
    # (trust moves scores inside a coverage level only: the tier still sorts first)
    keyword.sort(key=lambda c: (c.tier, -c.score, c.key, c.file, c.line))
    if not settings.embedding_model:
        return keyword
    try:
        vector = _vector_ranking(
            searcher, sources, asked or query.text, filters, today=today, pool=pool, trust=trust
        )
    except ModelError as exc:
        # Recall must keep working when the endpoint is down: keyword results stand, and
        # the searcher rests the endpoint a while (one warning, not one per search).
        recall = searcher.recall()
        if recall is not None:
            recall.failed(exc)
        return keyword
    if vector is None:
        return keyword
    from memclaw.index.semantic import fuse

    return fuse(keyword[:pool], vector, weight=settings.embedding_weight)


def _vector_ranking(
    searcher: Searcher,
    sources: list[Source],
    text: str,
    filters: Filters,
    *,
    today: str,
    pool: int,
    trust: TrustSignal,
) -> list[Candidate] | None:
    from memclaw.index.semantic import says_little, vector_candidates

    settings = searcher.workspace.settings
    recall = searcher.recall()
    if recall is None or recall.resting():
        return None
    query_vector = recall.query_vector(text)
    found: list[Candidate] = []
    for src in sources:
        reader = src.reader()
        with src.reading() as conn:
            blocks = recall.blocks(
                conn,
                src.key,
                reader,
                filters,
                is_global=src.is_global,
                batch_size=settings.embedding_batch_size,
            )
            near = vector_candidates(
                conn,
                src.key,
                query_vector,
                blocks,
                settings=settings,
                model=recall.embedder.key,
                today=today,
                limit=pool,
            )
            found += trust.adjust(src.key, conn, src.agent, near)
    found.sort(key=lambda c: (says_little(c.text, c.kind), -c.score, c.key, c.file, c.line))
    return found[:pool]
