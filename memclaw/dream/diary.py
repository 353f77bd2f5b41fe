"""DREAMS.md, the diary of dream runs, and its monthly archive.

Each run appends one ``## YYYY-MM-DD HH:MM`` entry: what it looked at, the
patterns it found, what it dropped, how MEMORY.md changed and why. When the
file passes ``dreams_max_chars``, the oldest entries move to
``dreams/YYYY-MM.md`` (appended) and leave one line each under ``## Archived``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from memclaw.dream.memory_md import Section, join_sections, split_sections
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

DIARY = "DREAMS.md"
ARCHIVE_DIR = "dreams"
ARCHIVED = "Archived"
HEADER = """\
# DREAMS.md — consolidation diary

Each dream run writes an entry here: what it read, what it found, and what it
changed in MEMORY.md. To correct the memory, edit MEMORY.md, not this diary.
"""
_ENTRY = re.compile(r"^(\d{4})-(\d{2})-\d{2}(?: \d{2}:\d{2})?\b")
_CHANGED = re.compile(r"\*\*Changed in MEMORY\.md:\*\*\s*([^.\n]*)")
_LOOKED = re.compile(r"(\d+) candidates?")
_MONTH_LINE = re.compile(r"^- (\d{4}-\d{2})(?:-\d{2}(?: \d{2}:\d{2})?)?: (?:(\d+) runs? archived)?")
# After a rollover the diary is brought down to this share of its ceiling, so that
# it does not roll on every single run.
ROLL_TARGET = 0.75
PATTERN_LIMIT = 8
TEXT_LIMIT = 160


@dataclass
class DiaryEntry:
    when: datetime
    notes: list[str]
    memory_chars: int
    candidates: int
    engine: str
    patterns: list[str] = field(default_factory=list)
    dropped: dict[str, int] = field(default_factory=dict)
    held_back: dict[str, int] = field(default_factory=dict)
    change: str = "nothing"
    why: str = ""
    focus: str | None = None

    @property
    def heading(self) -> str:
        return self.when.strftime("%Y-%m-%d %H:%M")

    def render(self) -> str:
        if not self.notes:
            looked = "no daily notes"
        elif len(self.notes) == 1:
            looked = f"{self.notes[0]} (1 note)"
        else:
            looked = f"{self.notes[0]} to {self.notes[-1]} ({plural(len(self.notes), 'note')})"
        rows = [
            f"## {self.heading}",
            "",
            f"- **Looked at:** {looked} and MEMORY.md ({self.memory_chars:,} characters); "
            f"{plural(self.candidates, 'candidate')}. Engine: {self.engine}.",
        ]
        if self.focus:
            rows.append(f"- **Focus:** {self.focus}")
        rows.append("- **Patterns:**")
        shown = self.patterns[:PATTERN_LIMIT] or ["none above the promotion threshold"]
        rows.extend(f"  - {_short(p)}" for p in shown)
        if len(self.patterns) > PATTERN_LIMIT:
            rows.append(f"  - … and {len(self.patterns) - PATTERN_LIMIT} more")
        if _counts(self.dropped):
            rows.append(f"- **Dropped:** {_counts(self.dropped)}.")
        if _counts(self.held_back):
            rows.append(f"- **Held back:** {_counts(self.held_back)}.")
        rows.append(f"- **Changed in MEMORY.md:** {self.change}.")
        rows.append(f"- **Why:** {_short(self.why, 600) or 'no reason given'}")
        return "\n".join(rows) + "\n"


def _short(text: str, limit: int = TEXT_LIMIT) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {what}" for what, n in counts.items() if n)


def _summary(section: Section, archive: str) -> str:
    changed = _CHANGED.search(section.text)
    looked = _LOOKED.search(section.text)
    bits = [changed.group(1).strip() if changed else "no change recorded"]
    if looked:
        bits.append(plural(int(looked.group(1)), "candidate"))
    return f"- {section.heading}: {'; '.join(bits)} → {archive}"


def _collapse(lines: list[str]) -> list[str]:
    """One line per month for every month but the newest."""
    months: dict[str, int] = {}
    for line in lines:
        match = _MONTH_LINE.match(line)
        if match:
            months[match.group(1)] = months.get(match.group(1), 0) + int(match.group(2) or 1)
    newest = max(months) if months else ""
    result = [
        f"- {month}: {plural(count, 'run')} archived → {ARCHIVE_DIR}/{month}.md"
        for month, count in sorted(months.items())
        if month != newest
    ]
    result.extend(line for line in lines if line.startswith(f"- {newest}") and newest)
    result.extend(line for line in lines if not _MONTH_LINE.match(line))
    return result


def roll(text: str, max_chars: int) -> tuple[str, dict[str, list[str]]]:
    """Move the oldest entries out until the diary fits; returns (diary, {month: entries})."""
    archives: dict[str, list[str]] = {}
    if max_chars <= 0 or len(text) <= max_chars:
        return text, archives
    sections = split_sections(text)
    head = [s for s in sections if not _ENTRY.match(s.heading) and s.key != ARCHIVED.lower()]
    entries = [s for s in sections if _ENTRY.match(s.heading)]
    archived = [
        line
        for s in sections
        if s.key == ARCHIVED.lower()
        for line in s.text.splitlines()[1:]
        if line.startswith("- ")
    ]

    def render() -> str:
        block = [Section(ARCHIVED, f"## {ARCHIVED}\n\n" + "\n".join(archived) + "\n")]
        return join_sections(head + (block if archived else []) + entries)

    target = int(max_chars * ROLL_TARGET)
    while len(entries) > 1 and len(render()) > target:
        oldest = entries.pop(0)
        match = _ENTRY.match(oldest.heading)
        assert match is not None
        month = f"{match.group(1)}-{match.group(2)}"
        archives.setdefault(month, []).append(oldest.text.rstrip("\n") + "\n")
        archived.append(_summary(oldest, f"{ARCHIVE_DIR}/{month}.md"))
        if len("\n".join(archived)) > max_chars // 4:
            archived = _collapse(archived)
    return render(), archives


def append_entry(scope: Scope, entry: DiaryEntry) -> list[str]:
    """Add ``entry`` to the diary of the scope and roll it over if needed.

    Returns the archive files that received entries. Archives are written
    first: a crash in between leaves an entry in both places, never in neither.
    """
    rendered = entry.render()
    # One hold of the lock for the read and both writes: an edit of the diary
    # or of an archive that lands meanwhile is never overwritten.
    with scope.editing() as edit:
        current = edit.read(DIARY) or HEADER
        sep = "" if current.endswith("\n\n") else "\n" if current.endswith("\n") else "\n\n"
        text, archives = roll(current + sep + rendered, scope.agent.settings.dreams_max_chars)
        written = []
        for month, blocks in archives.items():
            name = f"{ARCHIVE_DIR}/{month}.md"
            existing = edit.read(name)
            body = ("" if existing else f"# Dreams of {month}\n\n") + "\n".join(blocks)
            if existing and not existing.endswith("\n\n"):
                body = "\n" + body
            if existing and not existing.endswith("\n"):
                body = "\n" + body
            edit.write(name, existing + body, introduced=body)
            written.append(name)
        edit.write(DIARY, text, introduced=rendered)
    return written


def latest_entry(text: str) -> str | None:
    """The newest ``## YYYY-MM-DD`` entry of a diary, or None."""
    entries = [s for s in split_sections(text) if _ENTRY.match(s.heading)]
    return entries[-1].text.rstrip("\n") + "\n" if entries else None
