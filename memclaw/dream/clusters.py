"""Mentions in daily notes, and how they group into facts.

A mention is one list item, or one sentence of a plain line. Mentions that
restate one fact, on any days and in any words, form a cluster:

* two mentions are alike when they share salient terms (see ``salience``);
* a mention joins the cluster it is most alike to on average, over all the
  cluster's members, and only above ``SAME_FACT``; averaging keeps a thread
  that drifts from one fact to the next from growing into one blob;
* a note lists different facts, so a cluster takes a second mention from the
  same note only when it is a near copy;
* a mention that corrects a member never joins: the corrected statement must
  stay apart to be dropped.

A cluster speaks through its representative: the newest of its members that
give about as many names, numbers and dates as its fullest member.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from memclaw.dream.salience import Salience
from memclaw.text.likeness import Fingerprint, containment, jaccard, supersedes

_LIST = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-ZÀ-Þ0-9])")
_CORRECTION = re.compile(
    r"\b(actually|correction|corrected|moved to|moved it to|no longer|instead of|changed to|"
    r"not any more|anymore|now is|update:)",
    re.IGNORECASE,
)
MIN_WORDS = 3
# Average likeness a mention needs to join a cluster, and to join one that already
# holds a mention of the same note.
SAME_FACT = 0.37
NEAR_COPY = 0.8
# Members saying at least this share of what the fullest member says may represent it.
COMPLETE = 0.8


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
    if new.fp.measures <= old.fp.measures and containment(old.fp.tokens, new.fp.tokens) >= 0.9:
        return False  # says it all again with no new value: "uv instead of Poetry", restated
    shared = new.fp.subject & old.fp.subject
    # A correction that repeats the old value ("no longer 2026-12-05") or that is
    # about the same subject settles it.
    if new.fp.values & old.fp.values and shared:
        return True
    return len(shared) >= 2 and jaccard(new.fp.subject, old.fp.subject) >= 0.3


def cluster(
    mentions: Sequence[Mention], salience: Salience, threshold: float = SAME_FACT
) -> list[list[Mention]]:
    """Group the mentions into facts, oldest mention first (see the module doc)."""
    clusters: list[list[Mention]] = []
    for mention in sorted(mentions, key=lambda m: m.order):
        home, best = None, threshold
        for group in clusters:
            likeness = [salience.similarity(mention.fp.tokens, m.fp.tokens) for m in group]
            if any(
                other.file == mention.file and score < NEAR_COPY
                for other, score in zip(group, likeness, strict=True)
            ):
                continue
            average = sum(likeness) / len(likeness)
            if average >= best and not any(corrects(mention, other) for other in group):
                home, best = group, average
        if home is None:
            clusters.append([mention])
        else:
            home.append(mention)
    return clusters


def representative(group: Sequence[Mention], salience: Salience) -> Mention:
    """The newest member that gives (nearly) as many concrete details as the fullest one.

    Details are the names and values a member holds (``Salience.detail``); a
    member is complete with at least ``COMPLETE`` of the fullest member's. Among
    complete members the newest wins, so an update beats what it updates.
    """
    details = [salience.detail(m.fp.tokens) for m in group]
    fullest = max(details)
    complete = [m for m, d in zip(group, details, strict=True) if d >= COMPLETE * fullest]
    return max(complete, key=lambda m: m.order)


def recurring_terms(group: Sequence[Mention]) -> frozenset[str]:
    """Terms said on at least two different days: what makes the cluster recur."""
    days: dict[str, set[date]] = {}
    for mention in group:
        for term in mention.fp.tokens:
            days.setdefault(term, set()).add(mention.day)
    return frozenset(term for term, seen in days.items() if len(seen) >= 2)
