"""The offline dream: merge promoted candidates into MEMORY.md without a model.

Each promoted fact becomes one list item. It replaces an existing line that it
supersedes (same subject, newer value); otherwise it goes to the section whose
entries share the most words with it, or to ``## Consolidated``. Hand-edited
sections are never touched, and a fact already stated is not added twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from memclaw.dream.memory_md import (
    Section,
    entry_lines,
    extends,
    join_sections,
    known,
    says,
    split_sections,
)
from memclaw.text.likeness import Fingerprint, supersedes

if TYPE_CHECKING:
    from memclaw.dream.candidates import Candidate

CONSOLIDATED = "Consolidated"
EMPTY_MEMORY = "# Memory\n"
# A section must share this share of a fact's subject words, and at least two, to host it.
TOPIC_MIN_SHARE = 0.34
TOPIC_MIN_WORDS = 2


def _replace_superseded(sections: list[Section], fp: Fingerprint, line: str) -> bool:
    """Replace the first line that ``fp`` supersedes or completes; False when none."""
    for index, section in enumerate(sections):
        if section.kept or not section.heading:
            continue
        rows = section.text.splitlines(keepends=True)
        for row_index, row in enumerate(rows[1:], start=1):
            entries = entry_lines(row)
            other = Fingerprint.of(entries[0]) if entries else None
            if other is not None and (supersedes(fp, other) or extends(fp, other)):
                indent = row[: len(row) - len(row.lstrip())]
                rows[row_index] = f"{indent}{line}\n"
                sections[index] = Section(section.heading, "".join(rows))
                return True
    return False


def _best_section(sections: list[Section], fp: Fingerprint) -> int | None:
    best, best_share = None, 0.0
    for index, section in enumerate(sections):
        if section.kept or not section.heading:
            continue
        words = Fingerprint.of(section.text).tokens
        shared = len(fp.subject & words)
        share = shared / len(fp.subject) if fp.subject else 0.0
        if shared >= TOPIC_MIN_WORDS and share >= TOPIC_MIN_SHARE and share > best_share:
            best, best_share = index, share
    return best


def _append(section: Section, line: str) -> Section:
    body = section.text.rstrip("\n")
    lines = body.splitlines()
    # Directly under the heading, or after the last line of the section.
    joiner = "\n\n" if len(lines) == 1 else "\n"
    return Section(section.heading, f"{body}{joiner}{line}\n")


def merge_offline(old: str, promoted: Sequence[Candidate]) -> tuple[str, list[str]]:
    """MEMORY.md with the promoted facts merged in, and the lines that were added."""
    sections = split_sections(old if old.strip() else EMPTY_MEMORY)
    present = [(e, Fingerprint.of(e)) for e in entry_lines(old)]
    added: list[str] = []
    for cand in promoted:
        fp = Fingerprint.of(cand.text)
        if any(known(fp, [e_fp]) and says(e, cand.text) for e, e_fp in present):
            continue
        line = f"- {' '.join(cand.text.split())}"
        present.append((cand.text, fp))
        added.append(line)
        if _replace_superseded(sections, fp, line):
            continue
        target = _best_section(sections, fp)
        if target is None:
            target = next(
                (i for i, s in enumerate(sections) if s.key == CONSOLIDATED.lower() and not s.kept),
                None,
            )
        if target is None:
            sections.append(Section(CONSOLIDATED, f"## {CONSOLIDATED}\n"))
            target = len(sections) - 1
        sections[target] = _append(sections[target], line)
    return join_sections(sections), added
