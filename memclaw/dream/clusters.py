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

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from memclaw.dream.salience import MIN_SHARED_TERMS as MIN_SHARED
from memclaw.dream.salience import Salience
from memclaw.text.likeness import Fingerprint, containment, jaccard, supersedes
from memclaw.workspace.entries import CATEGORIES

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


_TAG = re.compile(rf"^\[(?:{'|'.join(CATEGORIES)})\]\s*")


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


def extract_mentions(
    text: str, rel: str, day: date, check: Callable[[], None] | None = None
) -> list[Mention]:
    """Each list item, or each sentence of a plain text line, that says something.

    ``check`` is called every few thousand lines (it may raise to stop).
    """
    mentions = []
    in_fence = False
    seen: dict[str, Fingerprint] = {}  # long notes repeat themselves: fingerprint each text once
    for number, raw in enumerate(text.splitlines(), start=1):
        if check is not None and number % 4096 == 0:
            check()
        line = raw.strip()
        if line.startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence or not line or line.startswith(("#", "|", "<!--", "> ✂")):
            continue
        match = _LIST.match(raw)
        if match:
            # The category extraction files a note's line under ("- [relationship] ...") is
            # no part of the fact, nor a label posing as the prompt's own.
            pieces = [_TAG.sub("", raw[match.end() :].strip(), count=1)]
        else:
            pieces = _SENTENCE_END.split(line)
        for piece in pieces:
            fp = seen.get(piece)
            if fp is None:
                fp = seen[piece] = Fingerprint.of(piece)
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


@dataclass
class _Variant:
    """The members of a cluster that have one set of terms: alike to a mention alike."""

    first: Mention  # the earliest; corrects() looks at terms and at order only
    files: set[str]
    count: int


@dataclass
class _Group:
    members: list[Mention]
    variants: dict[frozenset[str], _Variant]
    terms: set[str]
    min_mass: float = math.inf  # the lightest variant's likeness mass


# Float slack for the likeness bound, which sums the same weights in another order.
_SLACK = 1e-9
# Up to this size a cluster's average likeness is summed member by member, as it always
# was; a bigger one (a line pasted thousands of times) sums per variant.
_EXACT_SUM = 64


def cluster(
    mentions: Sequence[Mention],
    salience: Salience,
    threshold: float = SAME_FACT,
    check: Callable[[], None] | None = None,
) -> list[list[Mention]]:
    """Group the mentions into facts, oldest mention first (see the module doc).

    A mention is only compared with clusters that hold two of its terms that
    are not proper nouns (``Salience.similarity`` is 0 with fewer), found
    through an index from terms to clusters, and once per distinct set of terms
    in a cluster. A cluster whose likeness cannot reach the best one found so
    far is not compared at all: no member shares more than the terms the whole
    cluster shares, nor weighs less than its lightest variant. ``check`` is
    called once per mention (it may raise to stop).
    """
    groups: list[_Group] = []
    by_term: dict[str, list[int]] = {}  # term -> clusters holding it, in creation order
    for mention in sorted(mentions, key=lambda m: m.order):
        if check is not None:
            check()
        terms = mention.fp.tokens
        own = salience.likeness_mass(terms)
        home, best = None, threshold
        for index, shared in _reachable(terms, salience, by_term, len(groups), threshold):
            group = groups[index]
            bound = own * group.min_mass
            if bound > 0 and shared / math.sqrt(bound) * (1 + _SLACK) < best:
                continue
            likeness = {key: salience.similarity(terms, key) for key in group.variants}
            if any(
                mention.file in variant.files and likeness[key] < NEAR_COPY
                for key, variant in group.variants.items()
            ):
                continue
            if len(group.members) <= _EXACT_SUM:
                average = sum(likeness[m.fp.tokens] for m in group.members) / len(group.members)
            else:
                total = sum(likeness[key] * v.count for key, v in group.variants.items())
                average = total / len(group.members)
            if average >= best and not any(
                v.first.order < mention.order and corrects(mention, v.first)
                for v in group.variants.values()
            ):
                home, best = index, average
        if home is None:
            home = len(groups)
            groups.append(_Group([], {}, set()))
        _join(groups[home], home, mention, by_term, salience)
    return [group.members for group in groups]


def _reachable(
    terms: frozenset[str],
    salience: Salience,
    by_term: dict[str, list[int]],
    count: int,
    threshold: float,
) -> list[tuple[int, float]]:
    """Clusters holding at least two of ``terms`` other than proper nouns, oldest first,
    with the likeness mass of all the ``terms`` each holds."""
    if threshold <= 0:  # every cluster qualifies, even one sharing nothing
        return [(index, math.inf) for index in range(count)]
    seen: dict[int, int] = {}
    mass: dict[int, float] = {}
    for term in terms:
        weight = salience.likeness_weight(term)
        counts = term not in salience.proper
        for index in by_term.get(term, ()):
            mass[index] = mass.get(index, 0.0) + weight
            if counts:
                seen[index] = seen.get(index, 0) + 1
    return sorted((i, mass[i]) for i, n in seen.items() if n >= MIN_SHARED)


def _join(
    group: _Group,
    index: int,
    mention: Mention,
    by_term: dict[str, list[int]],
    salience: Salience,
) -> None:
    terms = mention.fp.tokens
    variant = group.variants.get(terms)
    if variant is None:
        for term in terms - group.terms:
            by_term.setdefault(term, []).append(index)
        group.terms.update(terms)
        group.variants[terms] = _Variant(mention, {mention.file}, 1)
        group.min_mass = min(group.min_mass, salience.likeness_mass(terms))
    else:
        variant.files.add(mention.file)
        variant.count += 1
    group.members.append(mention)


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
