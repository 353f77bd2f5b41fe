"""Memory entries: small, addressable facts stored as readable markdown.

One file per category under ``entries/`` (``entries/preference.md`` ...).
Each entry is a ``## <id>`` block: the fact, then ``- key: value`` metadata::

    ## m-3f9a2c1b
    Maya prefers terse answers with no trailing summaries.

    - category: preference
    - created: 2026-11-20
    - updated: 2026-11-28

A person can edit the text freely; the id keeps the entry addressable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

ENTRIES_DIR = "entries"
CATEGORIES = (
    "identity",
    "preference",
    "rule",
    "decision",
    "configuration",
    "technical",
    "relationship",
    "project",
    "other",
)
_BLOCK = re.compile(r"^## +(\S+)[ \t]*$", re.MULTILINE)
_META = re.compile(r"^- ([a-z_]+): ?(.*)$")


@dataclass(frozen=True)
class Entry:
    id: str
    text: str
    category: str = "other"
    created: date | None = None
    updated: date | None = None
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def sort_date(self) -> date:
        return self.updated or self.created or date.min

    def touched(self, text: str, today: date) -> Entry:
        return replace(self, text=text, updated=today)


def parse_entries(text: str, default_category: str = "other") -> list[Entry]:
    """Parse an entries file; text outside ``## id`` blocks is ignored."""
    matches = list(_BLOCK.finditer(text))
    entries = []
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        body_lines = text[match.end() : end].strip("\n").splitlines()
        meta: dict[str, str] = {}
        # Metadata is the trailing run of "- key: value" lines.
        while body_lines and (found := _META.match(body_lines[-1].strip())):
            meta[found.group(1)] = found.group(2).strip()
            body_lines.pop()
        entry_text = "\n".join(body_lines).strip()
        if not entry_text:
            continue
        entries.append(
            Entry(
                id=match.group(1),
                text=entry_text,
                category=meta.pop("category", default_category),
                created=_parse_date(meta.pop("created", "")),
                updated=_parse_date(meta.pop("updated", "")),
                extra=meta,
            )
        )
    return entries


def format_entries(entries: list[Entry], title: str) -> str:
    parts = [f"# {title}\n"]
    for entry in entries:
        meta = [f"- category: {entry.category}"]
        if entry.created:
            meta.append(f"- created: {entry.created.isoformat()}")
        if entry.updated:
            meta.append(f"- updated: {entry.updated.isoformat()}")
        meta.extend(f"- {key}: {value}" for key, value in sorted(entry.extra.items()))
        parts.append(f"\n## {entry.id}\n{entry.text.strip()}\n\n" + "\n".join(meta) + "\n")
    return "".join(parts)


def _parse_date(value: str) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:
        return None


@dataclass(frozen=True)
class Injected:
    """What fits of the entries under the injection budget, and what was left out."""

    text: str
    shown: int
    omitted: int


def budget_entries(entries: list[Entry], max_chars: int, max_per_category: int) -> Injected:
    """Newest first per category, capped per category, then by total characters.

    Trims at injection time only: the files on disk are never touched here.
    """
    by_category: dict[str, list[Entry]] = {}
    for entry in sorted(entries, key=lambda e: e.sort_date, reverse=True):
        by_category.setdefault(entry.category, []).append(entry)
    kept: list[Entry] = []
    for group in by_category.values():
        kept.extend(group[:max_per_category] if max_per_category > 0 else group)
    kept.sort(key=lambda e: e.sort_date, reverse=True)
    lines: list[str] = []
    used = 0
    for entry in kept:
        stamp = f" (updated {entry.sort_date.isoformat()})" if entry.sort_date != date.min else ""
        line = f"- [{entry.category}] {' '.join(entry.text.split())}{stamp}"
        if max_chars > 0 and used + len(line) + 1 > max_chars:
            break
        lines.append(line)
        used += len(line) + 1
    omitted = len(entries) - len(lines)
    text = "\n".join(lines)
    if omitted:
        text += f"\n({omitted} older entries not shown; search memory to find them)"
    return Injected(text, len(lines), omitted)


def entry_files(base: Path) -> list[Path]:
    folder = base / ENTRIES_DIR
    return sorted(folder.glob("*.md")) if folder.is_dir() else []


def load_entries(scope: Scope) -> list[Entry]:
    """All entries of one scope: the agent's shared ones, or one owner's personal ones."""
    if scope.owner is not None and not scope.personal:
        return []  # isolation off: there is no personal scope to read
    found: list[Entry] = []
    for path in entry_files(scope.folder):
        found.extend(parse_entries(scope.read(f"{ENTRIES_DIR}/{path.name}"), path.stem))
    return found
