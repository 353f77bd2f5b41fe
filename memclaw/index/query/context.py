"""The lines around a hit, like ``grep -C``: the turn before the answer often explains it.

Read from the file itself (files are the truth), only for the hits shown, and
only within the same file. Lines that no longer exist (the file changed since
it was indexed) are simply not there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from memclaw.errors import UsageError
from memclaw.workspace.paths import GLOBAL_DIR

if TYPE_CHECKING:
    from memclaw.index.rank import Hit
    from memclaw.workspace import Workspace

MAX_CONTEXT = 20
BUDGET_LIMIT = 200  # hits a budgeted search may hand over when no --limit is given
_HEADING = "#"  # context stops at a heading: the next section is another conversation


@dataclass(frozen=True)
class Around:
    """Up to N numbered lines before a hit's first line and after its last one."""

    before: tuple[tuple[int, str], ...]
    after: tuple[tuple[int, str], ...]

    def to_dict(self) -> dict[str, list[list[object]]]:
        return {
            "before": [[n, text] for n, text in self.before],
            "after": [[n, text] for n, text in self.after],
        }


def around(workspace: Workspace, hit: Hit, lines: int) -> Around:
    """The ``lines`` lines before and after ``hit`` in its file (blank lines included)."""
    if not 0 <= lines <= MAX_CONTEXT:
        raise UsageError(f"--context must be between 0 and {MAX_CONTEXT}, got {lines}")
    if lines == 0:
        return Around((), ())
    text = _lines(workspace, hit)
    first = max(1, hit.line - lines)
    last = min(len(text), hit.end_line + lines)
    before = tuple((n, text[n - 1]) for n in range(first, min(hit.line, len(text) + 1)))
    after = tuple((n, text[n - 1]) for n in range(hit.end_line + 1, last + 1))
    return Around(before, after)


def within_budget(
    workspace: Workspace, hits: list[Hit], budget: int
) -> tuple[list[Hit], list[Around]]:
    """What to hand over in ``budget`` characters (a line costs its length plus one).

    First the hits, whole, best first: a hit that does not fit is passed over for the
    next. Then, while characters remain, the lines around them, one line further on
    each side per round, best hit first, up to the section's heading: an answer
    often sits in the turn after the one that matched ("When was the gig?" matches
    "the reunion gig"; the next turn says "Saturday the 20th of May"). A line
    already handed over, as a hit or around one, is not handed over twice.
    """
    if budget < 1:
        raise UsageError(f"--budget must be at least 1 character, got {budget}")
    kept: list[Hit] = []
    spent = 0
    for hit in hits:
        cost = len(hit.text) + 1
        if spent + cost <= budget:
            kept.append(hit)
            spent += cost
    taken = {(h.agent, h.file, n) for h in kept for n in range(h.line, h.end_line + 1)}
    texts: dict[tuple[str, str], list[str]] = {}
    before: list[list[tuple[int, str]]] = [[] for _ in kept]
    after: list[list[tuple[int, str]]] = [[] for _ in kept]
    open_ = [[True, True] for _ in kept]  # may still grow upwards, downwards
    for step in range(1, MAX_CONTEXT + 1):
        grew = False
        for i, hit in enumerate(kept):
            key = (hit.agent, hit.file)
            if key not in texts:
                texts[key] = _lines(workspace, hit)
            lines = texts[key]
            for side, n in ((0, hit.line - step), (1, hit.end_line + step)):
                if not open_[i][side]:
                    continue
                if not 1 <= n <= len(lines) or lines[n - 1].startswith(_HEADING):
                    open_[i][side] = False
                    continue
                if (*key, n) in taken:
                    open_[i][side] = False  # another hit (or its context) hands it over
                    continue
                cost = len(lines[n - 1]) + 1
                if spent + cost > budget:
                    return kept, _arounds(before, after)
                spent += cost
                taken.add((*key, n))
                (before if side == 0 else after)[i].append((n, lines[n - 1]))
                grew = True
        if not grew:
            break
    return kept, _arounds(before, after)


def _arounds(
    before: list[list[tuple[int, str]]], after: list[list[tuple[int, str]]]
) -> list[Around]:
    return [Around(tuple(reversed(b)), tuple(a)) for b, a in zip(before, after, strict=True)]


def _lines(workspace: Workspace, hit: Hit) -> list[str]:
    base = workspace.global_dir if hit.agent == GLOBAL_DIR else workspace.agent(hit.agent).path
    try:
        text = (base / hit.file).read_text(encoding="utf-8", errors="replace").split("\n")
    except OSError:
        return []
    if text and text[-1] == "":
        text.pop()
    return text


def handed_over(
    workspace: Workspace, hits: list[Hit], *, context: int = 0, budget: int | None = None
) -> tuple[list[Hit], list[Around] | None]:
    """The hits to show and the lines around each (None when neither was asked for):
    ``context`` lines on each side (``--context``), or what fits in ``budget``."""
    if budget is not None:
        if context:
            raise UsageError("pass --context or --budget, not both: a budget picks the lines")
        return within_budget(workspace, hits, budget)
    if context:
        return hits, [around(workspace, hit, context) for hit in hits]
    return hits, None
