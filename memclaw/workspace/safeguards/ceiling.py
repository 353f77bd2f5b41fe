"""Keep PROFILE.md and MEMORY.md under their ceilings without losing a line.

Over the ceiling, the oldest lines a model wrote (see ``provenance``) move to
``<name>.overflow.md`` next to the file: still indexed and searchable, never
injected into the prompt. A line a person wrote never moves, nor does a line of
a section marked kept (``(hand-edited)`` heading or a ``memclaw:keep`` line),
and a section keeps its last entry unless nothing else can go; headings always
stay. When only such text is left the file stays over its ceiling and the
writer warns: the person decides what to trim.

Lines with standing move only after every plain machine line, however new:
first a model's rewording of a line a person wrote (it is still the person's
fact), then the lines the writer names as established (facts the person
stated or confirmed, or that were restated on several days: the caller knows
the evidence, this layer does not). When anything moves, the file ends with a
one-line comment saying how many entries went to which overflow file and when,
so a reader of the file (a person, or the model it is injected into) knows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from memclaw.workspace.atomic import atomic_write
from memclaw.workspace.paths import resolve_inside
from memclaw.workspace.safeguards import journal, provenance
from memclaw.workspace.safeguards.provenance import Author, Provenance, line_key
from memclaw.workspace.sections import KEEP_MARKER, KEEP_SUFFIX

if TYPE_CHECKING:
    from memclaw.workspace.folder import Folder

_H2 = re.compile(r"^## +(.*?)[ \t]*#*[ \t]*$")
_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
# The note a ceiling leaves in the file; replaced, never repeated, by the next move.
_MOVED_NOTE = re.compile(r"^<!-- memclaw moved \d+ entr(?:y|ies) to \S+ on [\d-]+.*-->\n?", re.M)
# Standing of a line when the ceiling must choose (higher moves later; 0: a plain machine line).
ESTABLISHED = 1  # the writer says the fact is established (stated, confirmed, restated)
REWORDED_PERSON = 2  # a model's rewording of a line a person wrote
# This much word overlap with a person's dropped line makes a new line its rewording.
_REWORDING = 0.5


@dataclass(frozen=True)
class CeilingResult:
    text: str  # what the file holds after the moves
    moved: tuple[str, ...]  # the moved text, one unit (an entry and its sub-lines) each
    ceiling: int
    original_chars: int
    overflow: str | None = None  # the overflow file (relative to the agent) once written
    sections: tuple[str, ...] = ()  # heading of each moved unit, '' for the preamble

    @property
    def over(self) -> bool:
        return 0 < self.ceiling < len(self.text)

    @property
    def noteworthy(self) -> bool:
        return bool(self.moved) or self.over


@dataclass(frozen=True)
class _Unit:
    start: int  # first line index
    end: int  # one past the last line
    section: int
    movable: bool
    age: int
    standing: int = 0


def overflow_name(rel: str) -> str:
    """``owners/x/MEMORY.md`` -> ``owners/x/MEMORY.overflow.md``."""
    path = PurePosixPath(rel)
    return str(path.with_name(f"{path.stem}.overflow.md"))


def _units(
    lines: list[str], model: dict[str, int], standing: Mapping[str, int]
) -> tuple[list[_Unit], list[str]]:
    """Entry units of the file (a line plus its more-indented sub-lines) and section headings."""
    headings = [""]
    section_of: list[int] = []
    for line in lines:
        match = _H2.match(line.rstrip("\n"))
        if match:
            headings.append(match.group(1))
        section_of.append(len(headings) - 1)
    kept = {i for i, heading in enumerate(headings) if heading.lower().endswith(KEEP_SUFFIX)}
    kept |= {section_of[n] for n, line in enumerate(lines) if KEEP_MARKER in line}
    kept.discard(0)  # like dreaming, only a '## ' section can be marked kept
    units: list[_Unit] = []
    in_fence, i = False, 0
    while i < len(lines):
        stripped = lines[i].strip()
        if stripped.startswith("```") or in_fence:
            in_fence = in_fence != stripped.startswith("```")
            i += 1
            continue
        if not stripped or stripped.startswith("#") or _COMMENT.match(stripped):
            i += 1
            continue
        indent = len(lines[i]) - len(lines[i].lstrip())
        end = i + 1
        while end < len(lines):
            nxt = lines[end]
            if not nxt.strip() or nxt.lstrip().startswith(("#", "```")):
                break
            if len(nxt) - len(nxt.lstrip()) <= indent:
                break
            end += 1
        ages = [model.get(line_key(line)) for line in lines[i:end]]
        movable = section_of[i] not in kept and all(age is not None for age in ages)
        age = max((a for a in ages if a is not None), default=0)
        rank = max((standing.get(line_key(line), 0) for line in lines[i:end]), default=0)
        units.append(_Unit(i, end, section_of[i], movable, age, rank))
        i = end
    return units, headings


def fit(
    text: str, ceiling: int, model: dict[str, int], standing: Mapping[str, int] | None = None
) -> CeilingResult:
    """Move the oldest model-written units out of ``text`` until it fits ``ceiling``.

    ``model`` maps line keys to the write that introduced them (see provenance);
    lines not in it are the person's and stay. ``standing`` maps line keys to
    their standing: lower standing moves first, then older. 0 = no ceiling.
    """
    if ceiling <= 0 or len(text) <= ceiling:
        return CeilingResult(text, (), ceiling, len(text))
    lines = text.splitlines(keepends=True)
    units, headings = _units(lines, model, standing or {})
    left: dict[int, int] = {}
    for unit in units:
        left[unit.section] = left.get(unit.section, 0) + 1
    size, moving, chosen = len(text), list[_Unit](), set[int]()
    candidates = sorted((u for u in units if u.movable), key=lambda u: (u.standing, u.age, u.start))
    # First pass: a section keeps its last entry, so sections thin out rather than
    # vanish. Only if that is not enough do last entries go too (headings always stay).
    for spare_last in (True, False):
        for unit in candidates:
            if size <= ceiling:
                break
            if unit.start in chosen or (spare_last and left[unit.section] <= 1):
                continue
            left[unit.section] -= 1
            chosen.add(unit.start)
            moving.append(unit)
            size -= sum(len(line) for line in lines[unit.start : unit.end])
    if not moving:
        return CeilingResult(text, (), ceiling, len(text))
    gone = {n for unit in moving for n in range(unit.start, unit.end)}
    kept: list[str] = []
    skipped = False
    for n, line in enumerate(lines):
        if n in gone:
            skipped = True
            continue
        # A paragraph line between blank lines leaves one blank line behind, not two.
        if skipped and not line.strip() and kept and not kept[-1].strip():
            continue
        skipped = False
        kept.append(line)
    moving.sort(key=lambda u: u.start)
    return CeilingResult(
        "".join(kept),
        tuple("".join(lines[u.start : u.end]) for u in moving),
        ceiling,
        len(text),
        sections=tuple(headings[u.section] for u in moving),
    )


def plan(
    agent: Folder,
    rel: str,
    old: str,
    new: str,
    author: Author,
    established: frozenset[str] = frozenset(),
) -> tuple[CeilingResult | None, Provenance | None]:
    """``new`` fitted under the ceiling of ``rel``, and the provenance record to store with it.

    ``established`` holds the line keys of facts the writer knows to be
    established: they move only after every plain machine line.
    """
    ceiling = agent.ceiling_of(rel)
    if ceiling is None:
        return None, None
    before = provenance.load(agent, rel)
    record = before.after(old, new, author)
    if ceiling <= 0 or len(new) <= ceiling:
        return fit(new, ceiling, record.lines), record
    standing = dict.fromkeys(established, ESTABLISHED)
    if author is Author.MODEL:  # only a model's write can reword a person's line
        standing.update(dict.fromkeys(_rewordings(old, new, before), REWORDED_PERSON))
    fitted = fit(new, ceiling, record.lines, standing)
    if not fitted.moved:
        return fitted, record
    # The file says what moved where in one comment, replacing an older one. It counts
    # against the ceiling: when only text that may not move is left, it is left out
    # (the writer's warning names the overflow file then).
    bare = _MOVED_NOTE.sub("", new)
    for room in (0, len(moved_note(overflow_name(rel), 999, ceiling, agent.now())) + 2):
        attempt = fit(bare, max(ceiling - room, 1), record.lines, standing)
        note = moved_note(overflow_name(rel), len(attempt.moved), ceiling, agent.now())
        text = f"{attempt.text.rstrip(chr(10))}\n\n{note}\n"
        if attempt.moved and len(text) <= ceiling:
            return replace(attempt, text=text, ceiling=ceiling), record
    return fit(bare, ceiling, record.lines, standing), record


def moved_note(overflow: str, count: int, ceiling: int, when: datetime) -> str:
    """The comment a file keeps about the entries its ceiling moved out."""
    name = PurePosixPath(overflow).name
    entries = "entry" if count == 1 else "entries"
    return (
        f"<!-- memclaw moved {count} {entries} to {name} on {when.strftime('%Y-%m-%d')} "
        f"({ceiling}-character ceiling) -->"
    )


def _rewordings(old: str, new: str, before: Provenance) -> set[str]:
    """Keys of ``new``'s lines that reword a line a person wrote in ``old`` and ``new`` dropped."""
    from memclaw.text.likeness import jaccard, tokens

    kept = provenance.keys(new)
    dropped = [
        tokens(line)
        for line in old.splitlines()
        if line.strip() and line_key(line) not in before.lines and line_key(line) not in kept
    ]
    if not dropped:
        return set()
    had = provenance.keys(old)
    return {
        line_key(line)
        for line in new.splitlines()
        if line.strip()
        and line_key(line) not in had
        and any(jaccard(tokens(line), person) >= _REWORDING for person in dropped if person)
    }


def preview(
    agent: Folder,
    rel: str,
    old: str,
    new: str,
    author: Author,
    established: frozenset[str] = frozenset(),
) -> str:
    """What ``new`` would become under the ceiling, written nowhere (for dry runs)."""
    new = new if not new or new.endswith("\n") else new + "\n"
    fitted, _ = plan(agent, rel, old, new, author, established)
    return fitted.text if fitted is not None else new


def write_overflow(agent: Folder, rel: str, result: CeilingResult) -> CeilingResult:
    """Append the moved entries to the overflow file, atomically; the caller holds the lock."""
    target = overflow_name(rel)
    path = resolve_inside(agent.path, target)
    name = PurePosixPath(rel).name
    existed = agent.read(target) if path.exists() else None
    current = overflow_header(name) if existed is None else existed
    if current and not current.endswith("\n"):
        current += "\n"
    # An entry already there is not added twice: a fact a dream promotes every night into
    # a file with no room left would otherwise pile up in the overflow.
    there = set(current.splitlines())
    fresh = [
        (heading, unit)
        for heading, unit in zip(result.sections, result.moved, strict=True)
        if not set(unit.splitlines()) <= there
    ]
    if fresh:
        block = replace(
            result, sections=tuple(h for h, _ in fresh), moved=tuple(u for _, u in fresh)
        )
        text = current + overflow_block(name, block, agent.now())
        atomic_write(path, text)
        journal.note(agent, target, existed, text, None)
    return replace(result, overflow=target)


def overflow_header(name: str) -> str:
    return (
        f"# {name} overflow\n\n"
        f"Lines memclaw moved out of {name} to keep it under its ceiling: the oldest\n"
        "lines a model wrote, never text a person wrote. They are still found by\n"
        "`memclaw search` but are no longer part of the prompt. Copy a line back by\n"
        "hand if it matters, or delete what no longer does.\n"
    )


def overflow_block(name: str, result: CeilingResult, when: datetime) -> str:
    """One dated block of moved lines, grouped under the heading they came from."""
    count = len(result.moved)
    rows = [
        f"\n## {when.strftime('%Y-%m-%d %H:%M')}: {count} "
        f"{'entry' if count == 1 else 'entries'} from {name} "
        f"({result.ceiling}-character ceiling)\n"
    ]
    current: str | None = None
    for heading, unit in zip(result.sections, result.moved, strict=True):
        if heading != current:
            rows.append(f"\n### {heading or '(top of the file)'}\n\n")
            current = heading
        rows.append(unit if unit.endswith("\n") else unit + "\n")
    return "".join(rows)


def warning(name: str, result: CeilingResult | None) -> str | None:
    """One line for the person, or None when the ceiling had nothing to do."""
    if result is None or not result.noteworthy:
        return None
    parts = []
    if result.moved:
        count = len(result.moved)
        parts.append(
            f"{name} was over its {result.ceiling}-character ceiling: moved the {count} oldest "
            f"model-written {'entry' if count == 1 else 'entries'} to "
            f"{result.overflow or overflow_name(name)} (searchable, not in the prompt)"
        )
    if result.over:
        parts.append(
            f"{name} is {'still ' if result.moved else ''}{len(result.text)} characters, "
            f"over its {result.ceiling}-character ceiling: only text a person wrote or kept "
            f"is left, so nothing {'more ' if result.moved else ''}was moved; trim it by hand"
        )
    return "; ".join(parts)
