"""Candidate facts for a dream: read recent daily notes, cluster, score, filter.

Every list item or sentence of the last N days of daily notes is a mention.
Mentions that state the same fact are clustered; each cluster is scored from
how many distinct days and notes it appears in, how recent it is, and how often
(and by how many distinct queries) search recalled one of its lines. One-offs,
statements later corrected or contradicted, and secrets are filtered out.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from memclaw.lifecycle.memory_md import entry_lines, known
from memclaw.lifecycle.recall import RecallIndex, load_recall
from memclaw.lifecycle.similarity import (
    Fingerprint,
    jaccard,
    mentions_topic,
    near_duplicate,
    supersedes,
)

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent

DAILY_DIR = "memory"
_DAILY_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")
_LIST = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-ZÀ-Þ0-9])")
_CORRECTION = re.compile(
    r"\b(actually|correction|corrected|moved to|no longer|instead of|changed to|not any more|"
    r"anymore|now is|update:)",
    re.IGNORECASE,
)
_LEADING_CORRECTION = re.compile(r"^(?:correction|update|actually)\s*[:,-]\s*", re.IGNORECASE)
_ONE_OFF = re.compile(r"\bone[- ]off\b", re.IGNORECASE)
MIN_WORDS = 3

# Weights of the score (they sum to 1), then the caps that make each part 0..1.
W_DAYS, W_MENTIONS, W_RECENCY, W_RECALL = 0.35, 0.15, 0.20, 0.30
DAYS_CAP, MENTIONS_CAP, QUERIES_CAP, RECALLS_CAP = 4, 5, 3, 5


class Status(StrEnum):
    PROMOTE = "promote"
    KNOWN = "known"  # already in MEMORY.md
    LOW = "below-threshold"
    OVER_LIMIT = "over-limit"  # good enough, but past the per-run promotion cap
    ONE_OFF = "one-off"
    CORRECTED = "corrected"
    SECRET = "secret"
    OFF_FOCUS = "off-focus"


@dataclass(frozen=True)
class Mention:
    file: str  # relative to the agent folder
    line: int  # 1-based
    day: date
    text: str
    fp: Fingerprint
    correction: bool

    @property
    def order(self) -> tuple[date, str, int]:
        return (self.day, self.file, self.line)


@dataclass
class Candidate:
    mentions: list[Mention]
    score: float = 0.0
    parts: dict[str, float] = field(default_factory=dict)
    recalls: int = 0
    queries: int = 0
    status: Status = Status.LOW
    reasons: list[str] = field(default_factory=list)

    @property
    def newest(self) -> Mention:
        return max(self.mentions, key=lambda m: m.order)

    @property
    def text(self) -> str:
        return _LEADING_CORRECTION.sub("", self.newest.text).strip()

    @property
    def fp(self) -> Fingerprint:
        return self.newest.fp

    @property
    def days(self) -> list[date]:
        return sorted({m.day for m in self.mentions})

    @property
    def notes(self) -> list[str]:
        return sorted({m.file for m in self.mentions})

    @property
    def id(self) -> str:
        return hashlib.sha1(" ".join(self.text.split()).encode()).hexdigest()[:8]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text if self.status is not Status.SECRET else "(withheld: secret)",
            "score": self.score,
            "status": str(self.status),
            "days": [d.isoformat() for d in self.days],
            "notes": self.notes,
            "mentions": len(self.mentions),
            "recalls": self.recalls,
            "queries": self.queries,
            "parts": self.parts,
            "reasons": self.reasons,
            "sources": [f"{m.file}:{m.line}" for m in sorted(self.mentions, key=lambda m: m.order)],
        }


@dataclass
class CandidateReport:
    notes: list[str]
    start: date
    end: date
    candidates: list[Candidate]
    focus: str | None = None

    @property
    def promoted(self) -> list[Candidate]:
        return [c for c in self.candidates if c.status is Status.PROMOTE]

    def count(self, status: Status) -> int:
        return sum(1 for c in self.candidates if c.status is status)

    def to_dict(self) -> dict[str, Any]:
        return {
            "window": {"start": self.start.isoformat(), "end": self.end.isoformat()},
            "notes": self.notes,
            "focus": self.focus,
            "counts": {str(s): self.count(s) for s in Status if self.count(s)},
            "candidates": [c.to_dict() for c in self.candidates],
        }


def note_window(today: date, days: int) -> tuple[date, date]:
    """The last ``days`` full days plus today so far (a 03:00 run sees last week)."""
    return today - timedelta(days=days), today


def daily_notes(agent: Agent, owner: str | None, start: date, end: date) -> list[tuple[str, date]]:
    """(relative name, day) of the scope's daily notes dated within [start, end], oldest first."""
    prefix = agent.owner_prefix(owner)
    folder = agent.path / prefix / DAILY_DIR
    if not folder.is_dir():
        return []
    found = []
    for path in folder.iterdir():
        match = _DAILY_NAME.match(path.name)
        if not match or not path.is_file():
            continue
        try:
            day = date.fromisoformat(match.group(1))
        except ValueError:
            continue
        if start <= day <= end:
            found.append((f"{prefix}{DAILY_DIR}/{path.name}", day))
    return sorted(found, key=lambda item: item[1])


def extract_mentions(text: str, rel: str, day: date) -> list[Mention]:
    """Each list item, or each sentence of a plain text line, that says something."""
    mentions = []
    in_fence = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence or not line or line.startswith(("#", "|", "<!--", "> ✂")):
            continue
        match = _LIST.match(raw)
        pieces = [raw[match.end() :].strip()] if match else _SENTENCE_END.split(line)
        for piece in pieces:
            fp = Fingerprint.of(piece)
            if len(fp.tokens) < MIN_WORDS:
                continue
            correction = bool(_CORRECTION.search(piece))
            mentions.append(Mention(rel, number, day, piece.strip(), fp, correction))
    return mentions


def corrects(new: Mention, old: Mention) -> bool:
    """``new`` (later) corrects or contradicts ``old``."""
    if old.order >= new.order:
        return False
    if supersedes(new.fp, old.fp):
        return True
    if not new.correction:
        return False
    shared = new.fp.subject & old.fp.subject
    # A correction that repeats the old value ("no longer 2026-12-05") or that is
    # about the same subject settles it.
    if new.fp.values & old.fp.values and shared:
        return True
    return len(shared) >= 2 and jaccard(new.fp.subject, old.fp.subject) >= 0.3


def cluster(mentions: list[Mention]) -> list[list[Mention]]:
    """Greedy clustering of near-duplicate mentions, oldest first."""
    clusters: list[list[Mention]] = []
    for mention in sorted(mentions, key=lambda m: m.order):
        home = None
        for group in clusters:
            if any(mention.correction and corrects(mention, other) for other in group):
                continue
            if any(near_duplicate(mention.fp, other.fp) for other in group):
                home = group
                break
        if home is None:
            clusters.append([mention])
        else:
            home.append(mention)
    return clusters


def _score(cand: Candidate, today: date, window_days: int) -> None:
    days = len(cand.days)
    age = (today - cand.newest.day).days
    parts = {
        "days": min(days, DAYS_CAP) / DAYS_CAP,
        "mentions": min(len(cand.mentions), MENTIONS_CAP) / MENTIONS_CAP,
        "recency": max(0.0, 1 - age / (window_days + 1)),
        "recall": 0.7 * min(cand.queries, QUERIES_CAP) / QUERIES_CAP
        + 0.3 * min(cand.recalls, RECALLS_CAP) / RECALLS_CAP,
    }
    score = (
        W_DAYS * parts["days"]
        + W_MENTIONS * parts["mentions"]
        + W_RECENCY * parts["recency"]
        + W_RECALL * parts["recall"]
    )
    when = ", ".join(d.strftime("%m-%d") for d in cand.days)
    cand.reasons.append(f"on {days} day{'s' if days != 1 else ''} ({when})")
    if len(cand.notes) > 1 or len(cand.mentions) > days:
        cand.reasons.append(f"{len(cand.mentions)} mentions in {len(cand.notes)} notes")
    cand.reasons.append("seen today" if age == 0 else f"last seen {age} day(s) ago")
    if cand.recalls:
        cand.reasons.append(f"recalled {cand.recalls}x by {cand.queries} distinct queries")
    if cand.text.endswith("?"):
        score -= 0.1
        cand.reasons.append("penalty: a question, not a fact")
    if len(cand.fp.tokens) > 50:
        score -= 0.05
        cand.reasons.append("penalty: long")
    parts = {k: round(v, 3) for k, v in parts.items()}
    cand.parts, cand.score = parts, round(max(score, 0.0), 3)


def rank(
    mentions: list[Mention],
    *,
    today: date,
    window_days: int,
    recall: RecallIndex,
    memory_entries: Iterable[str] = (),
    clean_files: frozenset[str] = frozenset(),
    min_days: int = 2,
    min_score: float = 0.35,
    max_promotions: int = 10,
    focus: str | None = None,
) -> list[Candidate]:
    """Cluster, score, filter and order the mentions; the best promotable first.

    ``clean_files`` are notes the secret gate already passed as a whole; their
    mentions need no second look.
    """
    from memclaw.gates import contains_secret

    known_prints = [Fingerprint.of(e) for e in memory_entries]
    candidates = [Candidate(group) for group in cluster(mentions)]
    for cand in candidates:
        hits = [recall.queries_for(m.file, m.line) for m in cand.mentions]
        cand.recalls = sum(len(h) for h in hits)
        cand.queries = len({q for h in hits for q in h})
        _score(cand, today, window_days)

    corrections = [m for m in mentions if m.correction or m.fp.values]
    for cand in candidates:
        newest = cand.newest
        by = next((m for m in corrections if m not in cand.mentions and corrects(m, newest)), None)
        if any(m.file not in clean_files and contains_secret(m.text) for m in cand.mentions):
            cand.status, cand.reasons = Status.SECRET, ["the secret gate flagged it"]
        elif by is not None:
            cand.status = Status.CORRECTED
            cand.reasons.append(f"corrected later by {by.file}:{by.line}")
        elif any(_ONE_OFF.search(m.text) for m in cand.mentions):
            cand.status = Status.ONE_OFF
            cand.reasons.append("marked as a one-off in the note")
        elif len(cand.days) < min_days and cand.queries < 2:
            cand.status = Status.ONE_OFF
            cand.reasons.append(f"one-off: fewer than {min_days} days and not recalled twice")
        elif focus and not mentions_topic(cand.fp.tokens, focus):
            cand.status = Status.OFF_FOCUS
        elif known(cand.fp, known_prints):
            cand.status = Status.KNOWN
            cand.reasons.append("already in MEMORY.md")
        elif cand.score < min_score:
            cand.status = Status.LOW
            cand.reasons.append(f"score below {min_score}")
        else:
            cand.status = Status.PROMOTE

    order = list(Status)
    candidates.sort(key=lambda c: (order.index(c.status), -c.score, c.text))
    promoted = [c for c in candidates if c.status is Status.PROMOTE]
    for extra in promoted[max(max_promotions, 0) :]:
        extra.status = Status.OVER_LIMIT
        extra.reasons.append(f"more than {max_promotions} promotions in one run")
    candidates.sort(key=lambda c: (order.index(c.status), -c.score, c.text))
    return candidates


def build_candidates(
    agent: Agent,
    owner: str | None = None,
    *,
    days: int | None = None,
    focus: str | None = None,
    memory_text: str | None = None,
) -> CandidateReport:
    """Scored candidates of one scope (TEAM, or ``owner``'s PERSONAL memory)."""
    settings = agent.settings
    window = settings.dream_days if days is None else days
    today = agent.now().date()
    start, end = note_window(today, window)
    notes = daily_notes(agent, owner, start, end)
    from memclaw.gates import contains_secret

    mentions: list[Mention] = []
    clean = set()
    for rel, day in notes:
        text = agent.read(rel)
        mentions.extend(extract_mentions(text, rel, day))
        if not contains_secret(text):
            clean.add(rel)
    memory = agent.read("MEMORY.md", owner) if memory_text is None else memory_text
    candidates = rank(
        mentions,
        today=today,
        window_days=window,
        recall=load_recall(agent) if mentions else RecallIndex({}),
        memory_entries=entry_lines(memory),
        clean_files=frozenset(clean),
        min_days=settings.dream_min_days,
        min_score=settings.dream_min_score,
        max_promotions=settings.dream_max_promotions,
        focus=focus,
    )
    return CandidateReport([rel for rel, _ in notes], start, end, candidates, focus)
