"""Keyword against hybrid (keyword + a real embedding model) on the same questions.

Used by ``conversation_recall`` and ``locomo_recall`` (``--embeddings URL`` or
``--embeddings real``, which starts multilingual-e5-small on loopback with
``benchmarks.embed_server``). Each lane keeps one ``Searcher`` open, as chat and
``mcp`` do, and times the build (the keyword index, and embedding every block as
``memclaw reindex`` does) apart from the searches that follow.
"""

from __future__ import annotations

import contextlib
import functools
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

KEYWORD, HYBRID = "memclaw keyword", "memclaw hybrid (e5)"


class Asked(Protocol):
    text: str
    evidence: set[tuple[str, int]]


@dataclass
class Lane:
    """One system's totals over every question it was asked."""

    name: str
    first: float = 0.0  # seconds of the first search (the build)
    seconds: float = 0.0  # seconds of every other search
    embedding: float = 0.0  # of ``seconds``, those spent waiting for query vectors
    asked: int = 0
    sums: Counter[str] = field(default_factory=Counter)
    own: list[float] = field(default_factory=list)  # each search less its query's embedding
    parts: dict[str, Counter[str]] = field(default_factory=dict)  # recall@10 by part

    def part(self, name: str) -> float:
        got = self.parts.get(name, Counter())
        return got["recall@10"] / max(got["asked"], 1)

    def row(self) -> str:
        n = max(self.asked, 1)
        r5, r10, mrr, s10 = (
            self.sums[k] / n for k in ("recall@5", "recall@10", "mrr", "session@10")
        )
        p50 = statistics.median(self.own) * 1000 if self.own else 0.0
        return (
            f"  {self.name:<22} {r5:>6.3f} {r10:>6.3f} {mrr:>6.3f} {s10:>6.3f}"
            f" {self.seconds:>9.1f} {self.embedding:>8.1f} {p50:>8.1f} {self.first:>14.1f}"
        )


# "search s" is every search after the first, "(embed)" the part of it spent waiting
# for the questions' vectors, "p50 ms" the median search less its question's embedding.
HEAD = (
    f"  {'system':<22} {'R@5':>6} {'R@10':>6} {'MRR':>6} {'S@10':>6} {'search s':>9}"
    f" {'(embed)':>8} {'p50 ms':>8} {'first build s':>14}"
)


def session_recall(folder: Path, hits: Sequence[Any], evidence: set[tuple[str, int]]) -> float:
    """Session-level recall@10, as other local-first memories report LoCoMo: the share of
    the evidence's sessions (a note's ``##`` section) among the sessions of the top ten
    hits."""
    wanted = {_session(folder, file, line) for file, line in evidence}
    found = {_session(folder, h.file, h.line) for h in hits[:10]}
    return len(wanted & found) / max(len(wanted), 1)


@functools.cache
def _headings(path: Path) -> tuple[int, ...]:
    lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    return tuple(n for n, line in enumerate(lines, 1) if line.startswith("## "))


def _session(folder: Path, file: str, line: int) -> tuple[str, int]:
    """A line's session: its file and the line of the ``##`` heading above it (0: none)."""
    above = [n for n in _headings(folder / file) if n <= line]
    return file, above[-1] if above else 0


def hybrid_settings(url: str) -> dict[str, Any]:
    from benchmarks.embed_server import SETTINGS

    return {**SETTINGS, "embedding_base_url": url}


@contextlib.contextmanager
def embedding_url(given: str) -> Iterator[str]:
    """``given``, or a real e5 server started for the block when it is ``real``."""
    if given != "real":
        yield given
        return
    from benchmarks.embed_server import serving

    with serving() as url:
        yield url


def ask(
    lane: Lane,
    root: Path,
    agent: str,
    now: datetime,
    questions: Sequence[Asked],
    overrides: dict[str, Any],
    part: Callable[[Any], str] | None = None,
) -> None:
    """Ask every question of one agent's memory; add the figures to ``lane`` (and to
    its ``part(question)`` when given)."""
    from benchmarks.conversation_recall import Hit, rank_scores
    from memclaw.index import Searcher, embed_index
    from memclaw.workspace import Workspace

    ws = Workspace.open(root, env={}, overrides=overrides, clock=lambda: now)
    with Searcher(ws) as searcher:
        started = time.perf_counter()
        embed_index(ws.agent(agent))  # as `memclaw reindex` does (none in the keyword lane)
        searcher.search("warm the index", agents=[agent], limit=1, log=False)
        lane.first += time.perf_counter() - started
        recall = searcher.recall()
        if recall is not None:  # time the query vectors' requests apart
            embed = recall.embedder.embed

            def timed(texts: list[str], **kw: Any) -> list[list[float]]:
                began = time.perf_counter()
                try:
                    return embed(texts, **kw)
                finally:
                    lane.embedding += time.perf_counter() - began

            recall.embedder.embed = timed  # type: ignore[method-assign]
        for q in questions:
            started, embedded = time.perf_counter(), lane.embedding
            found = searcher.search(q.text, agents=[agent], limit=10, log=False)
            took = time.perf_counter() - started
            lane.seconds += took
            lane.own.append(took - (lane.embedding - embedded))
            hits = [Hit(h.file, h.line, h.end_line, h.text) for h in found]
            got = rank_scores(hits, q.evidence)
            got["session@10"] = session_recall(root / agent, hits, q.evidence)
            lane.sums.update(got)
            lane.asked += 1
            if part is not None:
                lane.parts.setdefault(part(q), Counter()).update(
                    {"recall@10": got["recall@10"], "asked": 1}
                )


def vector_size(root: Path, agents: Sequence[str]) -> str:
    """What the agents' vectors take on disk (their table's pages, as SQLite's dbstat
    counts them) against the markdown they cover."""
    import sqlite3

    from memclaw.index.store import index_path

    text = stored = count = 0
    for agent in agents:
        folder = root / agent
        text += sum(p.stat().st_size for p in folder.rglob("*.md") if ".memclaw" not in p.parts)
        conn = sqlite3.connect(f"{index_path(folder).as_uri()}?mode=ro", uri=True)
        try:
            pages = "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name LIKE '%vectors%'"
            stored += int(conn.execute(pages).fetchone()[0])
            count += int(conn.execute("SELECT count(*) FROM vectors").fetchone()[0])
        finally:
            conn.close()
    return (
        f"  vectors: {count} in {stored / 1024:.0f} KB for {text / 1024:.0f} KB of markdown"
        f" ({stored / max(text, 1):.1f}x the text)"
    )


def packing_error(url: str, questions: Sequence[str], passages: Sequence[str]) -> str:
    """How far packing (``memclaw.index.vectors``) moves what the model said: the cosine
    of every question to every passage, from the model's float vectors and from packed
    ones (the question packed too, as a search packs it), and how many of each
    question's ten nearest stay."""
    from memclaw.index.semantic import open_embedder
    from memclaw.index.vectors import pack, unit, unpack
    from memclaw.workspace import Workspace

    with tempfile.TemporaryDirectory() as tmp:
        settings = Workspace.open(Path(tmp), env={}, overrides=hybrid_settings(url)).settings
    embedder = open_embedder(settings)
    assert embedder is not None
    asked = embedder.embed(list(questions), kind="query")
    stored = embedder.embed(list(passages))
    wide, packed = [unit(v) for v in stored], [unpack(pack(v)) for v in stored]
    worst = total = kept = 0.0
    for question in asked:
        q, small = unit(question), unpack(pack(question))
        exact = [sum(a * b for a, b in zip(q, v, strict=True)) for v in wide]
        near = [sum(a * b for a, b in zip(small, v, strict=True)) for v in packed]
        gaps = [abs(x - y) for x, y in zip(exact, near, strict=True)]
        worst, total = max(worst, *gaps), total + sum(gaps)
        top = sorted(range(len(wide)), key=lambda i: -exact[i])[:10]
        kept += len(set(top) & set(sorted(range(len(wide)), key=lambda i: -near[i])[:10]))
    pairs = len(asked) * len(wide)
    return (
        f"  packed vectors: cosine moved {total / pairs:.5f} on average, {worst:.5f} at most"
        f" ({pairs} pairs); {kept / (10 * len(asked)):.3f} of each question's 10 nearest kept"
    )


def throughput(url: str, texts: Sequence[str], batch: int = 64) -> str:
    """Passages a second through memclaw (``semantic.embed_texts``: requests, packing and
    storing, as ``memclaw reindex`` embeds) against a plain client sending the same
    batches to the same server, timed before and after memclaw's run."""
    import openai

    from benchmarks.embed_server import MODEL
    from memclaw.index.semantic import embed_texts, open_embedder, text_key
    from memclaw.index.store import open_index
    from memclaw.workspace import Workspace

    client = openai.OpenAI(base_url=url, api_key="local")

    def plain() -> float:
        started = time.perf_counter()
        for start in range(0, len(texts), batch):
            chunk = list(texts[start : start + batch])
            client.embeddings.create(model=MODEL, input=chunk, extra_body={"input_type": "passage"})
        return time.perf_counter() - started

    with tempfile.TemporaryDirectory() as tmp:
        settings = Workspace.open(Path(tmp), env={}, overrides=hybrid_settings(url)).settings
        embedder = open_embedder(settings)
        assert embedder is not None
        plain_first = plain()
        conn = open_index(Path(tmp))
        try:
            started = time.perf_counter()
            embed_texts(conn, embedder, {text_key(t): t for t in texts}, batch_size=batch)
            through = time.perf_counter() - started
        finally:
            conn.close()
        plain_seconds = (plain_first + plain()) / 2
    return (
        f"  embedding {len(texts)} passages: plain client {len(texts) / plain_seconds:.1f}/s,"
        f" memclaw {len(texts) / through:.1f}/s ({plain_seconds / through:.0%} of plain)"
    )


def lanes(url: str) -> list[tuple[Lane, dict[str, Any]]]:
    return [(Lane(KEYWORD), {}), (Lane(HYBRID), hybrid_settings(url))]
