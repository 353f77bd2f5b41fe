"""Changing a fact in every file it lives in: replace its wording, or add one beside it.

Each file is changed through the agent's one write path (``Agent.update``: the
lock, the secret gate, history for undo, atomic replace). The line is found
again under the lock by its fact id, so an edit made meanwhile that moved it is
followed, and one that removed it is left alone. Daily notes are history and are
never rewritten here.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from memclaw.facts.ids import fact_id
from memclaw.facts.model import Fact, Kind
from memclaw.facts.project import scope_prefix
from memclaw.workspace.entries import ENTRIES_DIR, Entry, parse_entries, splice_entries

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

_MARK = re.compile(r"^(\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?)(.*)$")


def _line_index(lines: list[str], hint: int, fid: str, prefix: str) -> int | None:
    """Index of the list line stating ``fid``: at ``hint`` (1-based) if still there, else first."""

    def states(i: int) -> bool:
        match = _MARK.match(lines[i])
        return match is not None and fact_id(match.group(2), prefix) == fid

    if 0 < hint <= len(lines) and states(hint - 1):
        return hint - 1
    return next((i for i in range(len(lines)) if states(i)), None)


def _lines_edit(text: str, fact: Fact, hint: int, prefix: str, new: str, keep_old: bool) -> str:
    lines = text.splitlines()
    at = _line_index(lines, hint, fact.id, prefix)
    if at is None:
        return text
    match = _MARK.match(lines[at])
    assert match is not None
    line = match.group(1) + new
    if keep_old:
        lines.insert(at + 1, line)
    else:
        lines[at] = line
    return "\n".join(lines) + ("\n" if text.endswith("\n") or not text else "")


def _entries_edit(scope: Scope, text: str, rel: str, fact: Fact, new: str, keep_old: bool) -> str:
    stem = rel.rsplit("/", 1)[-1].removesuffix(".md")
    entries = parse_entries(text, stem)
    prefix = scope_prefix(rel)
    today = scope.agent.now().date()
    changed: list[Entry] = []
    for entry in entries:
        if fact_id(" ".join(entry.text.split()), prefix) != fact.id:
            changed.append(entry)
            continue
        if keep_old:
            changed.append(entry)
            twin = f"{entry.id}-b" if not any(e.id == f"{entry.id}-b" for e in entries) else None
            if twin:
                changed.append(Entry(twin, new, entry.category, today, today, dict(entry.extra)))
        else:
            changed.append(replace(entry, text=new, updated=today))
    title = f"Memory entries: {stem}"
    return splice_entries(text, changed, title, stem)


def restate(scope: Scope, fact: Fact, new: str, *, keep_old: bool = False) -> list[str]:
    """Put ``new`` where ``fact`` lives (instead of it, or beside it with ``keep_old``).

    Returns the files changed, relative to the agent folder.
    """
    agent = scope.agent
    changed = []
    done: set[str] = set()
    for place in fact.places:
        if place.kind is Kind.DAILY or place.path in done:
            continue
        done.add(place.path)
        rel, hint, prefix = place.path, place.line, scope_prefix(place.path)

        def transform(text: str, rel: str = rel, hint: int = hint, prefix: str = prefix) -> str:
            if f"/{ENTRIES_DIR}/" in f"/{rel}":
                return _entries_edit(scope, text, rel, fact, new, keep_old)
            return _lines_edit(text, fact, hint, prefix, new, keep_old)

        result = agent.update(rel, transform, introduced=new)
        if result.changed:
            changed.append(rel)
    return changed


def add_entry(scope: Scope, text: str, category: str) -> str:
    """Keep ``text`` as a new memory entry of the scope; returns the file it went to."""
    import hashlib

    from memclaw.workspace.entries import CATEGORIES

    category = category if category in CATEGORIES else "other"
    rel = f"{ENTRIES_DIR}/{category}.md"
    today = scope.agent.now().date()

    def transform(current: str) -> str:
        entries = parse_entries(current, category)
        taken = {e.id for e in entries}
        salt = 0
        while (eid := "m-" + hashlib.sha256(f"{text}\0{salt}".encode()).hexdigest()[:8]) in taken:
            salt += 1
        entry = Entry(eid, text, category, today, today)
        return splice_entries(current, [*entries, entry], f"Memory entries: {category}", category)

    scope.update(rel, transform, introduced=text)
    return scope.rel(rel)


def retire(scope: Scope, fact: Fact, kinds: frozenset[Kind]) -> list[str]:
    """Remove the lines stating ``fact`` from its files of ``kinds``; the files changed."""
    changed = []
    for place in fact.places:
        if place.kind not in kinds or place.path in changed:
            continue
        rel, hint, prefix = place.path, place.line, scope_prefix(place.path)

        def transform(text: str, hint: int = hint, prefix: str = prefix) -> str:
            lines = text.splitlines()
            at = _line_index(lines, hint, fact.id, prefix)
            if at is None:
                return text
            del lines[at]
            return "\n".join(lines) + ("\n" if text.endswith("\n") else "")

        if scope.agent.update(rel, transform, introduced="").changed:
            changed.append(rel)
    return changed
