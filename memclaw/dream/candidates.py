"""Candidate facts for a dream: read recent daily notes, cluster, score, filter.

Every list item or sentence of the last N days of daily notes is a mention.
Mentions that state the same fact, in whatever words, are clustered by their
shared salient terms (``clusters``, ``salience``); each cluster is scored from
how many distinct days and notes it appears in, how recent it is, and how often
(and by how many distinct queries) search recalled one of its lines. One-offs,
statements later corrected or contradicted, secrets, text that gives the agent
instructions (it stays in the note as a quote), and facts that MEMORY.md or
PROFILE.md already state are not promoted.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from memclaw.dream.budget import Deadline, most_salient
from memclaw.dream.clusters import (
    Mention,
    cluster,
    extract_mentions,
    recurring_terms,
    representative,
)
from memclaw.dream.lookup import Corrections, MemoryLines
from memclaw.dream.memory_md import entry_lines, known, says
from memclaw.dream.salience import Salience
from memclaw.index.recall_log import RecallIndex, load_recall
from memclaw.text.likeness import Fingerprint, mentions_topic
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

DAILY_DIR = "memory"
_DAILY_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")
_LEADING_CORRECTION = re.compile(r"^(?:correction|update|actually)\s*[:,-]\s*", re.IGNORECASE)
_ONE_OFF = re.compile(r"\bone[- ]off\b", re.IGNORECASE)
# Words that tie a statement to the day its note was written: true then, not for good.
_OF_THE_DAY = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|this (?:morning|afternoon|evening|weekend))\b",
    re.IGNORECASE,
)
# A memory line holding this share of a fact's salient weight already says it.
KNOWN_SHARE = 0.7

# Weights of the score (they sum to 1), then the caps that make each part 0..1.
W_DAYS, W_MENTIONS, W_RECENCY, W_RECALL = 0.35, 0.15, 0.20, 0.30
DAYS_CAP, MENTIONS_CAP, QUERIES_CAP, RECALLS_CAP = 4, 5, 3, 5


class Status(StrEnum):
    PROMOTE = "promote"
    KNOWN = "known"  # already in MEMORY.md or PROFILE.md
    LOW = "below-threshold"
    OVER_LIMIT = "over-limit"  # good enough, but past the per-run promotion cap
    ONE_OFF = "one-off"
    CORRECTED = "corrected"
    CONTRADICTS = "contradicts"  # disagrees with a remembered fact: waiting in the inbox
    SECRET = "secret"
    INSTRUCTION = "instruction"  # speaks to the agent ("ignore previous instructions ...")
    OFF_FOCUS = "off-focus"


@dataclass
class Candidate:
    mentions: list[Mention]
    rep: Mention | None = None  # the member that speaks for the cluster; the newest by default
    score: float = 0.0
    parts: dict[str, float] = field(default_factory=dict)
    recalls: int = 0
    queries: int = 0
    status: Status = Status.LOW
    reasons: list[str] = field(default_factory=list)
    corrected_by: Mention | None = None  # the later note that superseded it

    @property
    def newest(self) -> Mention:
        return max(self.mentions, key=lambda m: m.order)

    @property
    def representative(self) -> Mention:
        return self.rep or self.newest

    @property
    def text(self) -> str:
        text = self.representative.text
        stripped = _LEADING_CORRECTION.sub("", text).strip()
        if stripped != text.strip() and stripped[:1].islower():
            stripped = stripped[0].upper() + stripped[1:]  # "Correction: the cutover ..."
        return stripped

    @property
    def fp(self) -> Fingerprint:
        return self.representative.fp

    @property
    def terms(self) -> frozenset[str]:
        return frozenset().union(*(m.fp.tokens for m in self.mentions))

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
            "representative": f"{self.representative.file}:{self.representative.line}",
        }


@dataclass
class CandidateReport:
    notes: list[str]
    start: date
    end: date
    candidates: list[Candidate]
    focus: str | None = None
    skipped: int = 0  # mentions left out past dream_max_mentions

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
            "skipped_mentions": self.skipped,
            "counts": {str(s): self.count(s) for s in Status if self.count(s)},
            "candidates": [c.to_dict() for c in self.candidates],
        }


def note_window(today: date, days: int) -> tuple[date, date]:
    """The last ``days`` full days plus today so far (a 03:00 run sees last week)."""
    return today - timedelta(days=days), today


def daily_notes(scope: Scope, start: date, end: date) -> list[tuple[str, date]]:
    """(relative name, day) of the scope's daily notes dated within [start, end], oldest first."""
    prefix = scope.prefix
    folder = scope.folder / DAILY_DIR
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
        cand.reasons.append(
            f"{plural(len(cand.mentions), 'mention')} in {plural(len(cand.notes), 'note')}"
        )
    cand.reasons.append("seen today" if age == 0 else f"last seen {plural(age, 'day')} ago")
    if cand.recalls:
        cand.reasons.append(f"recalled {cand.recalls}x by {cand.queries} distinct queries")
    if cand.text.endswith("?"):
        score -= 0.1
        cand.reasons.append("penalty: a question, not a fact")
    if (moment := _OF_THE_DAY.search(cand.text)) is not None:
        score -= 0.15
        cand.reasons.append(f"penalty: '{moment.group().lower()}' ties it to one day")
    if len(cand.fp.tokens) > 50:
        score -= 0.05
        cand.reasons.append("penalty: long")
    parts = {k: round(v, 3) for k, v in parts.items()}
    cand.parts, cand.score = parts, round(max(score, 0.0), 3)


def _known_by(cand: Candidate, lines: MemoryLines, salience: Salience) -> str | None:
    """The memory line that already states the candidate's fact, if any.

    Either it is worded alike (``memory_md.known``), or it holds most of the
    salient weight of the representative, or of what recurs across the days.
    Only lines sharing a term with either can (both tests need shared terms).
    """
    core = recurring_terms(cand.mentions)
    best, best_share = None, KNOWN_SHARE
    for source, fp in lines.sharing(cand.fp.tokens | core):
        if known(cand.fp, [fp]):
            if _says_it(source, cand.text):
                return source
            continue  # worded alike, but another value or another thing
        share = salience.coverage(cand.fp.tokens, fp.tokens)
        if len(core) >= 2:
            share = max(share, salience.coverage(core, fp.tokens))
        if share >= best_share and _says_it(source, cand.text):
            best, best_share = source, share
    return best


def _apart(group: list[Mention]) -> list[list[Mention]]:
    """``group`` split where its mentions name different things alike ("server alpha",
    "server beta"): each near twin is a fact of its own (see ``judgement.tells_apart``)."""
    from memclaw.judgement import tells_apart

    parts: list[list[Mention]] = []
    for mention in group:
        home = next((p for p in parts if not tells_apart(p[0].text, mention.text)), None)
        if home is None:
            parts.append([mention])
        else:
            home.append(mention)
    return parts


def _says_it(source: str, text: str) -> bool:
    """Whether the memory line ``source`` ("MEMORY.md: …") says what ``text`` says."""
    return says(source.split(": ", 1)[1], text)


def rank(
    mentions: list[Mention],
    *,
    today: date,
    window_days: int,
    recall: RecallIndex,
    memory_entries: Iterable[str] = (),
    profile_entries: Iterable[str] = (),
    clean_files: frozenset[str] = frozenset(),
    min_days: int = 2,
    min_score: float = 0.35,
    max_promotions: int = 10,
    focus: str | None = None,
    max_mentions: int = 0,
    deadline: Deadline | None = None,
) -> list[Candidate]:
    """Cluster, score, filter and order the mentions; the best promotable first.

    ``memory_entries`` and ``profile_entries`` are the lines of MEMORY.md and
    PROFILE.md: a fact they already state is not promoted again. ``clean_files``
    are notes the secret gate already passed as a whole; their mentions need no
    second look. Past ``max_mentions`` (0: no cap) only the most salient mentions
    are weighed; ``deadline`` is checked as the work goes on.
    """
    from memclaw.gates import concerns_the_assistant, contains_secret

    check = deadline.check if deadline is not None else _no_limit
    lines = [(f"MEMORY.md: {e}", Fingerprint.of(e)) for e in memory_entries]
    lines += [(f"PROFILE.md: {e}", Fingerprint.of(e)) for e in profile_entries]
    salience = Salience.of(
        [(m.text, m.fp.tokens, m.day) for m in mentions]
        + [(s, fp.tokens, None) for s, fp in lines],
        check,
    )
    mentions = most_salient(mentions, salience, recall, max_mentions, check)
    check()
    candidates = [
        Candidate(twins, rep=representative(twins, salience))
        for group in cluster(mentions, salience, check=check)
        for twins in _apart(group)
    ]
    for cand in candidates:
        hits = [recall.queries_for(m.file, m.line) for m in cand.mentions]
        cand.recalls = sum(len(h) for h in hits)
        cand.queries = len({q for h in hits for q in h})
        _score(cand, today, window_days)

    corrections = Corrections(mentions)
    memory_lines = MemoryLines(lines)
    for cand in candidates:
        check()
        by = corrections.first_correcting(cand.newest, cand.mentions)
        if any(m.file not in clean_files and contains_secret(m.text) for m in cand.mentions):
            cand.status, cand.reasons = Status.SECRET, ["the secret gate flagged it"]
        elif any(concerns_the_assistant(m.text) for m in cand.mentions):
            cand.status = Status.INSTRUCTION
            cand.reasons = [
                "it gives the assistant instructions or speaks of it: a dream leaves it in"
                " the note as a quote (remember it to keep it)"
            ]
        elif by is not None:
            cand.status = Status.CORRECTED
            cand.corrected_by = by
            cand.reasons.append(f"corrected later by {by.file}:{by.line}")
        elif any(_ONE_OFF.search(m.text) for m in cand.mentions):
            cand.status = Status.ONE_OFF
            cand.reasons.append("marked as a one-off in the note")
        elif focus and not mentions_topic(cand.terms, focus):
            cand.status = Status.OFF_FOCUS
        elif (where := _known_by(cand, memory_lines, salience)) is not None:
            cand.status = Status.KNOWN
            cand.reasons.append(f"already in {_clip(where)}")
        elif len(cand.days) < min_days and cand.queries < 2:
            cand.status = Status.ONE_OFF
            cand.reasons.append(f"on fewer than {min_days} days, not recalled twice")
        elif cand.score < min_score:
            cand.status = Status.LOW
            cand.reasons.append(f"score below {min_score}")
        else:
            cand.status = Status.PROMOTE
            cand.reasons.append(f"promoted: score {cand.score:.2f} ≥ {min_score}")

    order = list(Status)
    candidates.sort(key=lambda c: (order.index(c.status), -c.score, c.text))
    promoted = [c for c in candidates if c.status is Status.PROMOTE]
    for extra in promoted[max(max_promotions, 0) :]:
        extra.status = Status.OVER_LIMIT
        extra.reasons[-1] = f"more than {max_promotions} promotions in one run"
    candidates.sort(key=lambda c: (order.index(c.status), -c.score, c.text))
    return candidates


def _no_limit() -> None:
    return None


def _clip(text: str, limit: int = 72) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def build_candidates(
    scope: Scope,
    *,
    days: int | None = None,
    focus: str | None = None,
    memory_text: str | None = None,
    deadline: Deadline | None = None,
) -> CandidateReport:
    """Scored candidates of one scope (TEAM, or one owner's PERSONAL memory).

    ``deadline`` (see ``budget``) may stop the work with ``StoppedEarly``.
    """
    agent = scope.agent
    settings = agent.settings
    window = settings.dream_days if days is None else days
    today = agent.now().date()
    start, end = note_window(today, window)
    notes = daily_notes(scope, start, end)
    from memclaw.gates import contains_secret

    mentions: list[Mention] = []
    clean = set()
    for rel, day in notes:
        if deadline is not None:
            deadline.check()
        text = agent.read(rel)
        check = deadline.check if deadline is not None else None
        mentions.extend(extract_mentions(text, rel, day, check))
        if not contains_secret(text):
            clean.add(rel)
    memory = scope.read("MEMORY.md") if memory_text is None else memory_text
    profile = scope.read("PROFILE.md")
    candidates = rank(
        mentions,
        today=today,
        window_days=window,
        recall=load_recall(agent) if mentions else RecallIndex({}),
        memory_entries=entry_lines(memory),
        profile_entries=entry_lines(profile),
        clean_files=frozenset(clean),
        min_days=settings.dream_min_days,
        min_score=settings.dream_min_score,
        max_promotions=settings.dream_max_promotions,
        focus=focus,
        max_mentions=settings.dream_max_mentions,
        deadline=deadline,
    )
    weighed = sum(len(c.mentions) for c in candidates)
    return CandidateReport(
        [rel for rel, _ in notes], start, end, candidates, focus, len(mentions) - weighed
    )
