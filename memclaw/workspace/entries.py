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

from memclaw.workspace.paths import (
    ENTRIES_DIR as ENTRIES_DIR,
)  # its home: agent.py needs only the name

if TYPE_CHECKING:
    from collections.abc import Mapping

    from memclaw.config import Settings
    from memclaw.workspace.scope import Scope

BUILTIN_CATEGORIES: dict[str, str] = {
    "identity": "who the person is: name, role, where they live and work",
    "preference": "how they like things done, tastes, likes and dislikes",
    "rule": "standing instructions the assistant must follow",
    "decision": "choices made, with their reasons",
    "configuration": "settings, versions and set-ups of their tools and systems",
    "technical": "technical facts about their stack and their work",
    "relationship": "people they know and how they relate",
    "project": "projects, their status and deadlines",
    "other": "anything worth keeping that fits no other category",
}
CATEGORIES = tuple(BUILTIN_CATEGORIES)
FALLBACK_CATEGORY = "other"
_SESSION_FILE = re.compile(rf"(^|/){ENTRIES_DIR}/session-[^/]+\.md$")
_BLOCK = re.compile(r"^## +(\S+)[ \t]*$", re.MULTILINE)
_META = re.compile(r"^- ([a-z_]+): ?(.*)$")


def categories(settings: Settings) -> dict[str, str]:
    """The entry categories in force: the built-in ones extended (or replaced) by settings."""
    custom = dict(settings.categories)
    return custom if settings.categories_replace else {**BUILTIN_CATEGORIES, **custom}


def fit_category(guess: str, allowed: Mapping[str, str]) -> str:
    """A guessed built-in category, or what stands in for it when custom ones replaced it."""
    if guess in allowed:
        return guess
    return FALLBACK_CATEGORY if FALLBACK_CATEGORY in allowed else list(allowed)[-1]


def is_entry_metadata(rel: str, line: str) -> bool:
    """True for a ``- key: value`` line of an entries file: an entry's category, dates, fields."""
    return ENTRIES_DIR in rel.split("/")[:-1] and bool(_META.match(line))


def is_session_file(name: str) -> bool:
    """Whether ``name`` holds one conversation's short-term entries (not long-term memory)."""
    return bool(_SESSION_FILE.search(name))


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


@dataclass(frozen=True)
class _Span:
    """Where one ``## id`` block's entry lies in its file: ``text[start:end]``."""

    start: int  # the heading line
    end: int  # just after the entry's metadata (or its text, when it has none)
    entry: Entry | None  # None: a heading with no text under it


def _spans(text: str, default_category: str) -> list[_Span]:
    matches = list(_BLOCK.finditer(text))
    spans = []
    for index, match in enumerate(matches):
        stop = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        lines: list[tuple[int, str]] = []  # (offset just after the line, its text)
        offset = match.end()
        for line in text[match.end() : stop].splitlines(keepends=True):
            offset += len(line)
            lines.append((offset, line.strip()))
        filled = [i for i, (_, line) in enumerate(lines) if line]
        if not filled:
            spans.append(_Span(match.start(), stop, None))
            continue
        first, last = _metadata(lines, filled)
        if first > last:  # no metadata: the whole body is the entry
            end = lines[filled[-1]][0]
            body = text[match.end() : end]
        else:
            end = lines[last][0]
            body = text[match.end() : lines[first - 1][0]]
        entry_text = "\n".join(body.strip("\n").splitlines()).strip()
        if not entry_text:
            spans.append(_Span(match.start(), stop, None))
            continue
        meta: dict[str, str] = {}
        # As written, the first of two lines with one key wins.
        for _, line in reversed(lines[first : last + 1]):
            found = _META.match(line)
            assert found is not None
            meta[found.group(1)] = found.group(2).strip()
        entry = Entry(
            id=match.group(1),
            text=entry_text,
            category=meta.pop("category", default_category),
            created=_parse_date(meta.pop("created", "")),
            updated=_parse_date(meta.pop("updated", "")),
            extra=meta,
        )
        spans.append(_Span(match.start(), end, entry))
    return spans


def _metadata(lines: list[tuple[int, str]], filled: list[int]) -> tuple[int, int]:
    """First and last line of a block's metadata run; ``(n + 1, n)`` when it has none.

    Metadata is the run of ``- key: value`` lines that ends the block. When a
    person wrote notes after it (separated by a blank line), the last run that
    stands alone between blank lines after the entry's text is taken, and the
    notes stay outside the entry.
    """

    def is_meta(i: int) -> bool:
        return bool(_META.match(lines[i][1]))

    last = filled[-1]
    if is_meta(last):
        first = last
        while first > 0 and is_meta(first - 1):
            first -= 1
        return first, last
    for end in reversed(filled[:-1]):
        if not is_meta(end) or lines[end + 1][1]:
            continue
        first = end
        while first > 0 and is_meta(first - 1):
            first -= 1
        if first > filled[0] and not lines[first - 1][1]:
            return first, end
    return last + 1, last


def parse_entries(text: str, default_category: str = "other") -> list[Entry]:
    """Parse an entries file; text outside the ``## id`` blocks is ignored."""
    return [span.entry for span in _spans(text, default_category) if span.entry is not None]


def _block(entry: Entry) -> str:
    meta = [f"- category: {entry.category}"]
    if entry.created:
        meta.append(f"- created: {entry.created.isoformat()}")
    if entry.updated:
        meta.append(f"- updated: {entry.updated.isoformat()}")
    meta.extend(f"- {key}: {value}" for key, value in sorted(entry.extra.items()))
    return f"## {entry.id}\n{entry.text.strip()}\n\n" + "\n".join(meta) + "\n"


def format_entries(entries: list[Entry], title: str) -> str:
    return f"# {title}\n" + "".join("\n" + _block(entry) for entry in entries)


def splice_entries(
    old: str, entries: list[Entry], title: str, default_category: str = "other"
) -> str:
    """``old`` rewritten to hold exactly ``entries``, touching nothing else.

    A block whose entry is unchanged stays byte for byte, a changed one is
    re-rendered in place, a missing one is cut, and new entries go at the end.
    The title, a person's notes before, between and after the blocks, and
    headings with no entry are kept exactly.
    """
    if not old.strip():
        return format_entries(entries, title)
    waiting: dict[str, list[int]] = {}
    for index, entry in enumerate(entries):
        waiting.setdefault(entry.id, []).append(index)
    placed: set[int] = set()
    out, pos, cut = "", 0, False
    for span in _spans(old, default_category):
        if span.entry is None:
            continue
        out = _join(out, old[pos : span.start], cut)
        pos = span.end
        queue = waiting.get(span.entry.id)
        if not queue:
            cut = True
            continue
        index = queue.pop(0)
        placed.add(index)
        new = entries[index]
        out += old[span.start : span.end] if new == span.entry else _block(new)
        cut = False
    out = _join(out, old[pos:], cut)
    for index, entry in enumerate(entries):
        if index not in placed:
            if not out.endswith("\n"):
                out += "\n"
            out += ("" if out.endswith("\n\n") else "\n") + _block(entry)
    return out


def _join(before: str, after: str, cut: bool) -> str:
    # Where a block was cut, the blank lines around it become one.
    if cut and before.endswith("\n\n") and (not after or after.startswith("\n")):
        return before[:-1] + after
    return before + after


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
