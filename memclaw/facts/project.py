"""Projection: every list item of the memory files, read as facts.

PROFILE.md, MEMORY.md, each memory entry and the list items of daily notes,
in the team's folder and in every owner's, become :class:`Place` records: the
fact id, the statement, where it lives and who wrote it. Nothing is stored:
the files are read again whenever facts are needed, and the index keeps a
copy it rebuilds from them.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime
from typing import TYPE_CHECKING

from memclaw.facts.ids import CATEGORY_TAG, META, fact_id
from memclaw.facts.model import Kind, Place
from memclaw.workspace.entries import ENTRIES_DIR, parse_entries
from memclaw.workspace.safeguards import provenance

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent
    from memclaw.workspace.scope import Scope

_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(?P<text>\S.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_DAILY = re.compile(r"(?:^|/)memory/(\d{4}-\d{2}-\d{2})\.md$")
_TIME_HEADING = re.compile(r"^\d{1,2}[:.]\d{2}\b")  # a daily note's "## 14:05 …" section
_ENTRY_FILE = re.compile(rf"(?:^|/){ENTRIES_DIR}/([^/]+)\.md$")
_ENTRY_HEAD = re.compile(r"^## +(\S+)[ \t]*$")
# Entry metadata and bare key lines are bookkeeping, not statements.
_META = META  # an entry's bookkeeping line (facts.ids)
_RELATION = re.compile(
    r"\b(?:is|are|was|were|has|have|lives|works|prefers?|uses?|likes?|loves?|hates?|eats?|"
    r"moved|runs|owns|wants|needs|reports|speaks|est|ist|wohnt|vit|habite|vive|es|está)\b",
    re.IGNORECASE,
)
_NAME = re.compile(r"^(?:[-*+]\s+)?\**([A-Za-z][\w .'-]{0,40}?)\**\s*:\s+\S")


def kind_of(rel: str) -> Kind | None:
    """The kind of a memory file (relative to the agent), or None for files holding no facts."""
    name = rel.rsplit("/", 1)[-1]
    if name == "PROFILE.md":
        return Kind.PROFILE
    if name == "MEMORY.md":
        return Kind.MEMORY
    if _ENTRY_FILE.search(rel):
        return Kind.ENTRY
    if _DAILY.search(rel):
        return Kind.DAILY
    return None


def scope_prefix(rel: str) -> str:
    """``owners/<dir>/`` for an owner's file, '' for the team's: the prefix fact ids hash."""
    parts = rel.split("/")
    return f"{parts[0]}/{parts[1]}/" if len(parts) > 2 and parts[0] == "owners" else ""


def subject_of(statement: str) -> str:
    """Who or what a statement is about: the words before its verb (or a ``Key:`` label)."""
    label = _NAME.match(statement)
    if label:
        return label.group(1).strip().casefold()
    match = _RELATION.search(statement)
    head = statement[: match.start()] if match and match.start() > 0 else statement
    words = re.findall(r"[\w'-]+", head)[:4]
    return " ".join(words).casefold()


def project_text(rel: str, text: str, *, model_lines: frozenset[str] = frozenset()) -> list[Place]:
    """The facts one file states. ``model_lines`` are the provenance keys of model lines."""
    kind = kind_of(rel)
    if kind is None:
        return []
    prefix = scope_prefix(rel)
    if kind is Kind.ENTRY:
        return _entries(rel, text, prefix)
    daily = _DAILY.search(rel)
    day = date.fromisoformat(daily.group(1)) if daily else None
    places: list[Place] = []
    section, fenced = "", False
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        heading = _HEADING.match(line)
        if fenced:
            continue
        if heading:
            section = heading.group(2).strip().casefold()
            continue
        item = _ITEM.match(line)
        if item is None:
            continue
        statement = _clean(item.group("text"))
        if not statement or _META.match(statement):
            continue
        category = section
        if kind is Kind.DAILY:
            author = "note"
            if _TIME_HEADING.match(category):  # "## 08:31": when it was said, not a category
                category = ""
            tagged = CATEGORY_TAG.match(statement)
            if tagged:  # "[preference] Maya prefers tea": the offline engine's category
                category, statement = tagged.group(1).casefold(), statement[tagged.end() :]
        else:
            author = "model" if provenance.line_key(line) in model_lines else "person"
        places.append(
            Place(fact_id(statement, prefix), statement, rel, number, kind, category, day, author)
        )
    return places


def _entries(rel: str, text: str, prefix: str) -> list[Place]:
    stem = _ENTRY_FILE.search(rel)
    default = stem.group(1) if stem else "other"
    entries = {e.id: e for e in parse_entries(text, default)}
    places = []
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        head = _ENTRY_HEAD.match(line)
        if head is None or head.group(1) not in entries:
            continue
        entry = entries[head.group(1)]
        first = next(
            (i for i in range(number, len(lines)) if lines[i].strip()), None
        )  # the entry's text starts on the first filled line under its heading
        if first is None:
            continue
        statement = _clean(" ".join(entry.text.split()))
        places.append(
            Place(
                fact_id(statement, prefix),
                statement,
                rel,
                first + 1,
                Kind.ENTRY,
                entry.category,
                entry.updated or entry.created,
                "model" if entry.extra.get("by") == "model" else "person",
            )
        )
    return places


def _clean(text: str) -> str:
    text = re.sub(r"<!--.*?-->", " ", text)
    return " ".join(text.split()).strip()


def fact_files(agent: Agent, prefix: str = "") -> list[str]:
    """Files of one scope folder (relative to the agent) that can hold facts, sorted."""
    base = agent.path / prefix
    found = []
    for name in ("PROFILE.md", "MEMORY.md"):
        if (base / name).is_file():
            found.append(prefix + name)
    for folder in (ENTRIES_DIR, "memory"):
        if (base / folder).is_dir():
            found += sorted(
                prefix + f"{folder}/{p.name}"
                for p in (base / folder).glob("*.md")
                if kind_of(f"{folder}/{p.name}") is not None
            )
    return found


def project_file(agent: Agent, rel: str) -> list[Place]:
    """The facts of one file on disk, with its provenance record."""
    text = agent.read(rel)
    record = provenance.load(agent, rel) if kind_of(rel) in (Kind.PROFILE, Kind.MEMORY) else None
    keys = frozenset(record.lines) if record is not None else frozenset()
    places = project_text(rel, text, model_lines=keys)
    if record is None:
        return places
    # A line of PROFILE.md or MEMORY.md carries no date: the file's last change is the
    # latest it can have been written (so a hand-written fact decays from there).
    try:
        day = datetime.fromtimestamp(agent.file(rel).stat().st_mtime).date()
    except OSError:
        return places
    return [replace(p, day=day) for p in places]


def project_scope(scope: Scope, *, notes: bool = True) -> list[Place]:
    """Every fact place of one scope's folder (the team's, or one owner's).

    ``notes`` False leaves the daily notes out: much faster on a long history,
    for callers that only weigh what memory holds (not how often notes said it).
    """
    files = [
        rel
        for rel in fact_files(scope.agent, scope.prefix)
        if notes or kind_of(rel) is not Kind.DAILY
    ]
    return [p for rel in files for p in project_file(scope.agent, rel)]
