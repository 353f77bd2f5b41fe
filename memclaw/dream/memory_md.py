"""MEMORY.md as dreaming sees it: sections, entries, hand-edited sections, diffs.

A section the user wants dreaming to leave alone is marked in one of two ways::

    ## Rules from Maya (hand-edited)        <- the heading ends with "(hand-edited)"

    ## People
    <!-- memclaw:keep -->                   <- or this line anywhere in the section

Such a section is kept byte for byte: the offline merge never adds to it, and
when a model's rewrite drops or changes it, the original is put back.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from memclaw.text.likeness import Fingerprint, containment, jaccard, values_compatible

# What an entry is lives with the loss guard, which extraction shares too.
from memclaw.workspace.safeguards.guard import entry_lines as entry_lines

# Defined in the workspace layer, where the ceiling must honour them too.
from memclaw.workspace.sections import KEEP_MARKER as KEEP_MARKER
from memclaw.workspace.sections import KEEP_SUFFIX as KEEP_SUFFIX

_H2 = re.compile(r"^## +(.*?)\s*#*\s*$")


@dataclass(frozen=True)
class Section:
    """A ``## `` section (heading line included) or the preamble (heading '')."""

    heading: str
    text: str

    @property
    def key(self) -> str:
        return normalise_heading(self.heading)

    @property
    def kept(self) -> bool:
        return bool(self.heading) and (
            self.heading.lower().endswith(KEEP_SUFFIX) or KEEP_MARKER in self.text
        )


def normalise_heading(heading: str) -> str:
    name = heading.strip().lower()
    if name.endswith(KEEP_SUFFIX):
        name = name[: -len(KEEP_SUFFIX)]
    return " ".join(name.split())


def split_sections(text: str) -> list[Section]:
    """The preamble, then each ``## `` section; joining the texts gives ``text`` back."""
    sections: list[Section] = []
    heading, lines = "", list[str]()
    for line in text.splitlines(keepends=True):
        match = _H2.match(line.rstrip("\n"))
        if match:
            if lines or heading:
                sections.append(Section(heading, "".join(lines)))
            heading, lines = match.group(1), [line]
            continue
        lines.append(line)
    if lines or heading:
        sections.append(Section(heading, "".join(lines)))
    return sections


def restore_kept(old: str, new: str) -> tuple[str, list[str]]:
    """Put every hand-edited section of ``old`` back into ``new`` exactly as it was.

    Returns the repaired text and the headings that had to be restored. A person's
    file may hold the same heading twice: each kept section is restored once, in its
    own place, never in place of its namesake.
    """
    old_sections = split_sections(old)
    originals = [index for index, section in enumerate(old_sections) if section.kept]
    if not originals:
        return new, []
    new_sections = split_sections(new)
    pairing = _pair_kept(old_sections, originals, new_sections)
    restored: list[str] = []
    result: list[Section] = []
    placed: dict[int, int] = {}  # index in old_sections -> position in result
    for index, section in enumerate(new_sections):
        origin = pairing.get(index)
        if origin is None:
            result.append(section)
            continue
        original = old_sections[origin]
        if section.text.rstrip("\n") != original.text.rstrip("\n"):
            restored.append(original.heading)
        placed[origin] = len(result)
        result.append(original)
    # Missing kept sections go back after the section that preceded them in ``old``.
    for origin in originals:
        if origin in placed:
            continue
        section = old_sections[origin]
        restored.append(section.heading)
        anchor = _anchor(old_sections[:origin], result, placed)
        position = len(result) if anchor is None else anchor + 1
        if anchor is None and origin == 0:
            position = 0
        result.insert(position, section)
        placed = {k: v + 1 if v >= position else v for k, v in placed.items()}
        placed[origin] = position
    return join_sections(result), restored


def _pair_kept(
    old_sections: list[Section], originals: list[int], new_sections: list[Section]
) -> dict[int, int]:
    """Which kept section of ``old`` (by index) each section of ``new`` stands for."""
    waiting: dict[str, list[int]] = {}
    for origin in originals:
        waiting.setdefault(old_sections[origin].key, []).append(origin)
    unkept = {s.text.rstrip("\n") for s in old_sections if s.heading and not s.kept}
    pairing: dict[int, int] = {}
    candidates = [i for i, s in enumerate(new_sections) if s.heading and s.key in waiting]
    # Verbatim copies first, so a dropped or moved namesake does not shift the others.
    for index in candidates:
        text = new_sections[index].text.rstrip("\n")
        queue = waiting[new_sections[index].key]
        match = next((o for o in queue if old_sections[o].text.rstrip("\n") == text), None)
        if match is not None:
            queue.remove(match)
            pairing[index] = match
    # Then rewritten ones, in order; a verbatim copy of an ordinary namesake stays itself.
    for index in candidates:
        queue = waiting[new_sections[index].key]
        if index in pairing or not queue or new_sections[index].text.rstrip("\n") in unkept:
            continue
        pairing[index] = queue.pop(0)
    return pairing


def _anchor(before: list[Section], result: list[Section], placed: dict[int, int]) -> int | None:
    """Position in ``result`` of the nearest section of ``before`` that is present there."""
    taken = set(placed.values())
    for index in range(len(before) - 1, -1, -1):
        if index in placed:
            return placed[index]
        previous = before[index]
        if not previous.heading:  # the preamble: right after it, if the new text has one
            return 0 if result and not result[0].heading else None
        if previous.kept:
            continue
        for position, current in enumerate(result):
            if current.heading and current.key == previous.key and position not in taken:
                return position
    return None


def join_sections(sections: list[Section]) -> str:
    parts: list[str] = []
    for section in sections:
        body = section.text
        if not body.endswith("\n"):
            body += "\n"
        if parts and not parts[-1].endswith("\n\n") and section.heading:
            parts[-1] += "\n"
        parts.append(body)
    return "".join(parts)


def known(fp: Fingerprint, entries: list[Fingerprint]) -> bool:
    """True when an entry already states the fact: worded alike, or saying all of it."""
    return any(
        values_compatible(fp, entry)
        and (jaccard(fp.tokens, entry.tokens) >= 0.6 or containment(fp.tokens, entry.tokens) >= 0.9)
        for entry in entries
    )


def says(line: str, text: str) -> bool:
    """Whether ``line``, worded like ``text``, says what it says, by the one judgement: not
    when ``text`` gives a new value of it ("Maya's favourite editor is now Helix"), nor when
    it is surely another fact that names another thing (server beta, invoice 4412). Other
    words for the same ("Priya Nair, who leads atlas billing, works from Lund") are."""
    from memclaw.judgement import Relation, judge, tells_apart

    verdict = judge(line, text)
    if verdict.relation is Relation.UPDATE:
        return False
    return not (verdict.relation is Relation.DISTINCT and verdict.sure and tells_apart(line, text))


def extends(fp: Fingerprint, entry: Fingerprint) -> bool:
    """``fp`` says everything ``entry`` says, and more: it can replace it."""
    return (
        len(entry.tokens) >= 3
        and values_compatible(fp, entry)
        and containment(entry.tokens, fp.tokens) >= 0.9
    )


def unified_diff(old: str, new: str, name: str = "MEMORY.md") -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        f"a/{name}",
        f"b/{name}",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def diff_counts(old: str, new: str) -> tuple[int, int]:
    """Non-blank lines added and removed, as a diff would count them."""
    a, b = old.splitlines(), new.splitlines()
    added = removed = 0
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            removed += sum(1 for line in a[i1:i2] if line.strip())
        if tag in ("replace", "insert"):
            added += sum(1 for line in b[j1:j2] if line.strip())
    return added, removed
