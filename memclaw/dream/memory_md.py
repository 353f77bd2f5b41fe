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

# Defined in the workspace layer, where the ceiling must honour them too.
from memclaw.workspace.sections import KEEP_MARKER as KEEP_MARKER
from memclaw.workspace.sections import KEEP_SUFFIX as KEEP_SUFFIX

_H2 = re.compile(r"^## +(.*?)\s*#*\s*$")
_LIST = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
# A kept entry may be reworded by a model; this much word overlap still counts as kept.
REWORDED = 0.5


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


def entry_lines(text: str) -> list[str]:
    """The entries of a memory file: list items and text lines, not headings or comments."""
    found = []
    in_fence = False
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence or not line or line.startswith("#") or _COMMENT.match(line):
            continue
        if line.startswith("> ✂ memclaw truncated"):
            continue
        found.append(_LIST.sub("", line).strip())
    return [entry for entry in found if entry]


@dataclass(frozen=True)
class Loss:
    before: int
    lost: list[str]

    @property
    def ratio(self) -> float:
        return len(self.lost) / self.before if self.before else 0.0


def measure_loss(old: str, new: str) -> Loss:
    """Entries of ``old`` that ``new`` no longer holds, exactly or reworded."""
    old_entries = entry_lines(old)
    new_entries = entry_lines(new)
    exact = {" ".join(e.split()).lower() for e in new_entries}
    prints = [Fingerprint.of(e) for e in new_entries]
    lost = []
    for entry in old_entries:
        if " ".join(entry.split()).lower() in exact:
            continue
        fp = Fingerprint.of(entry)
        if any(jaccard(fp.tokens, other.tokens) >= REWORDED for other in prints):
            continue
        lost.append(entry)
    return Loss(len(old_entries), lost)


def restore_kept(old: str, new: str) -> tuple[str, list[str]]:
    """Put every hand-edited section of ``old`` back into ``new`` exactly as it was.

    Returns the repaired text and the headings that had to be restored.
    """
    old_sections = split_sections(old)
    kept = {s.key: s for s in old_sections if s.kept}
    if not kept:
        return new, []
    new_sections = split_sections(new)
    restored: list[str] = []
    result: list[Section] = []
    for section in new_sections:
        original = kept.get(section.key) if section.heading else None
        if original is not None:
            if section.text.rstrip("\n") != original.text.rstrip("\n"):
                restored.append(original.heading)
            result.append(original)
        else:
            result.append(section)
    present = {s.key for s in result if s.heading}
    # Missing kept sections go back after the section that preceded them in ``old``.
    for index, section in enumerate(old_sections):
        if not section.kept or section.key in present:
            continue
        restored.append(section.heading)
        anchor = next(
            (
                pos
                for prev in reversed(old_sections[:index])
                for pos, cur in enumerate(result)
                if cur.heading and cur.key == prev.key
            ),
            None,
        )
        position = len(result) if anchor is None else anchor + 1
        if anchor is None and index == 0:
            position = 0
        result.insert(position, section)
        present.add(section.key)
    return join_sections(result), restored


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
