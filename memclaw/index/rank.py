"""Ranking pieces of a search: filters, keyword candidates, file grouping, hits.

Ranking is BM25 from FTS5, multiplied by the file's weight (the core files,
MEMORY.md, PROFILE.md and AGENTS.md, above the daily ledger by default) and, when a
half-life is set, by a recency decay of dated blocks. Visibility is enforced
in the SQL itself: a PERSONAL block is only ever read for its own owner.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any

from memclaw.config import Settings
from memclaw.errors import UsageError
from memclaw.facts.ids import fact_id, is_meta
from memclaw.index.snippet import make_snippet, mark
from memclaw.index.storage.packs import FileRow, StoredBlock
from memclaw.text.tokenize import Query
from memclaw.workspace.owners import OWNERS_DIR, OwnerKey, Visibility

SCOPES = ("all", "personal", "team", "global")


@dataclass(frozen=True)
class Hit:
    """One recalled block. ``file`` is relative to the agent folder (or ``_global/``)."""

    agent: str
    file: str
    line: int
    end_line: int
    scope: str
    owner: str | None
    date: str | None
    snippet: str
    score: float
    text: str
    highlights: tuple[tuple[int, int], ...]
    section: str = ""
    hash: str = ""
    relevance: float = 1.0  # the share of the query it holds (``query.relevance``)

    def marked(self, open_: str = "«", close: str = "»") -> str:
        return mark(self.snippet, list(self.highlights), open_, close)

    @property
    def fact(self) -> str | None:
        """The fact id of a one-line hit (what `why`, `forget` and `facts` take); else None."""
        line = self.text.strip()
        if self.end_line != self.line or not line or line.startswith(("#", "|")) or is_meta(line):
            return None
        parts = self.file.split("/")
        owned = len(parts) > 2 and parts[0] == OWNERS_DIR
        return fact_id(line, f"{OWNERS_DIR}/{parts[1]}/" if owned else "")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["highlights"] = [list(span) for span in self.highlights]
        data["score"] = round(self.score, 6)
        data["relevance"] = round(self.relevance, 6)
        data["fact"] = self.fact
        return data


@dataclass(frozen=True)
class Candidate:
    """A ranked block before its snippet is cut; ``key`` names the index it came from."""

    key: str
    block_id: int
    file: str
    line: int
    end_line: int
    section: str
    date: str | None
    hash: str
    text: str
    scope: str
    owner: str | None
    kind: str
    score: float
    tier: int = 0  # coverage level: 0 = every query term, then fewer (see keyword.py)
    reply: bool = False  # the turn answering a ranked question turn (keyword.py)
    turn: bool = False  # a turn of a conversation between people (keyword.py)


@dataclass(frozen=True)
class Filters:
    """Who is asking and what they asked for: one SQL WHERE clause over the files of
    an index (``where``), and the dates a block may have (``dated``)."""

    owner: OwnerKey | None
    scope: str
    since: str | None
    until: str | None

    def where(self, is_global: bool) -> tuple[str, list[Any]] | None:
        """SQL condition over ``f`` (files), or None if nothing is visible."""
        params: list[Any] = []
        if is_global:
            if self.scope not in ("all", "global"):
                return None
            clause = "f.scope = 'global'"
        else:
            personal = self.owner is not None and self.scope in ("all", "personal")
            team = self.scope in ("all", "team")
            if personal and team:
                clause = "(f.scope = 'team' OR (f.scope = 'personal' AND f.owner = ?))"
                params.append(self.owner)
            elif personal:
                clause = "(f.scope = 'personal' AND f.owner = ?)"
                params.append(self.owner)
            elif team:
                clause = "f.scope = 'team'"
            else:
                return None
        return clause, params

    def dated(self, day: str | None) -> bool:
        """Whether a block dated ``day`` is inside ``since``..``until`` (any is, without them)."""
        if self.since is None and self.until is None:
            return True
        if day is None:
            return False
        return (self.since is None or day >= self.since) and (
            self.until is None or day <= self.until
        )


def weights(settings: Settings) -> dict[str, float]:
    """Ranking weight per file kind (see ``store.classify``)."""
    return {
        "memory": settings.weight_memory,
        "entries": settings.weight_memory,
        "daily": settings.weight_daily,
        "profile": settings.weight_profile,
        "agents": settings.weight_agents,
        "other": settings.weight_other,
    }


def decay(day: str | None, today: str, half_life: float) -> float:
    """Recency factor of a block dated ``day``: 1 today, 0.5 one half-life ago."""
    if not day or half_life <= 0:
        return 1.0
    try:
        age = (date.fromisoformat(today) - date.fromisoformat(day)).days
    except ValueError:
        return 1.0
    return float(0.5 ** (max(age, 0) / half_life))


def candidate(
    key: str, file: FileRow, block: StoredBlock, score: float, tier: int = 0
) -> Candidate:
    return Candidate(
        key,
        block.id,
        file.path,
        block.line,
        block.end_line,
        block.section,
        block.date,
        block.hash,
        block.text,
        file.scope,
        file.owner,
        file.kind,
        score,
        tier,
    )


def authoritative_first(candidates: list[Candidate], settings: Settings) -> list[Candidate]:
    """``candidates`` with each line said in several files in its weightiest file first.

    The same line in AGENTS.md and in a daily note ranked by the note's copy: BM25
    normalises by length, and the copies' headings and neighbours differ more than
    the files' weights. The copies keep the places they hold in the ranking, filled
    in order of preference: the asker's personal copy, then the heavier file.
    """
    kind_weight = weights(settings)
    places: dict[str, list[int]] = {}
    for i, cand in enumerate(candidates):
        places.setdefault(_said(cand.text), []).append(i)
    out = list(candidates)
    for where in places.values():
        if len(where) > 1:
            copies = sorted(
                (candidates[i] for i in where),
                key=lambda c: (c.scope != "personal", -kind_weight.get(c.kind, 0.0)),
            )
            for i, cand in zip(where, copies, strict=True):
                out[i] = cand
    return out


_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")


def _said(text: str) -> str:
    """A block's words, whatever its list marker and spacing: what makes two copies one."""
    return " ".join(_MARKER.sub("", text).split()).casefold()


def once_each(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Each line once, where it ranks best: a line a dream copied into MEMORY.md, or said
    again in three daily notes, is one memory, not four hits."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for cand in candidates:  # (best first)
        if (cand.key, cand.hash) not in seen:
            seen.add((cand.key, cand.hash))
            kept.append(cand)
    return kept


def group_files(candidates: Iterable[Candidate], max_files: int) -> list[Candidate]:
    """Keep candidates from the best ``max_files`` files only, in rank order."""
    files: set[tuple[str, str]] = set()
    # (candidates arrive best first)
    kept = []
    for cand in candidates:
        where = (cand.key, cand.file)
        if where not in files:
            if max_files and len(files) >= max_files:
                continue
            files.add(where)
        kept.append(cand)
    return kept


def _iso(value: str | date | None, flag: str) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, date):
        return value.isoformat()
    from memclaw.clock import parse_day, system_clock

    day = parse_day(value, system_clock().date())
    if day is None:
        raise UsageError(
            f"{flag} {value!r} is not a day: use YYYY-MM-DD, today, yesterday, 3d or a weekday"
        )
    return day.isoformat()


def make_filters(
    owner: OwnerKey | None, scope: str, since: str | date | None, until: str | date | None
) -> Filters:
    if scope not in SCOPES:
        raise UsageError(f"scope {scope!r} is not one of {', '.join(SCOPES)}")
    if scope == Visibility.PERSONAL and owner is None:
        raise UsageError("--scope personal needs --owner: personal memory belongs to one owner")
    return Filters(owner, scope, _iso(since, "--since"), _iso(until, "--until"))


def to_hit(cand: Candidate, query: Query, score: float | None = None) -> Hit:
    snippet, spans = make_snippet(cand.text, query)
    return Hit(
        agent=cand.key,
        file=cand.file,
        line=cand.line,
        end_line=cand.end_line,
        scope=cand.scope,
        owner=cand.owner,
        date=cand.date,
        snippet=snippet,
        score=cand.score if score is None else score,
        text=cand.text,
        highlights=tuple(spans),
        section=cand.section,
        hash=cand.hash,
    )
