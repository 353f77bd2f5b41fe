"""A receipt: the lines a change actually added, changed and removed, by file, with fact ids.

Headings and comments are structure, not memory: a receipt leaves them out.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memclaw.changes.records import ChangeRecord, FileDelta, Line
from memclaw.facts.ids import is_meta
from memclaw.text.plural import plural
from memclaw.workspace.entries import is_entry_metadata

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

_STRUCTURE = re.compile(r"^\s*(#|<!--|>\s*✂)")
WIDTH = 400  # receipts show whole lines: what was written, not a taste of it


def is_memory_line(text: str) -> bool:
    return bool(text.strip()) and not _STRUCTURE.match(text)


def _keep(lines: list[Line], rel: str) -> list[Line]:
    # An entry's metadata (category, dates) is bookkeeping, not something remembered.
    return [
        line
        for line in lines
        if is_memory_line(line.text) and not is_entry_metadata(rel, line.text)
    ]


def summary(change: ChangeRecord, *, kind: bool = True) -> str:
    """'extract: 3 added, 1 changed, 0 removed in 2 files' (without ``kind``: no 'extract: ')."""
    added = sum(len(_keep(f.added, f.rel)) for f in change.files)
    changed = sum(len(_keep(f.changed, f.rel)) for f in change.files)
    removed = sum(len(_keep(f.removed, f.rel)) for f in change.files)
    parts = [f"{added} added", f"{changed} changed", f"{removed} removed"]
    said = f"{', '.join(parts)} in {plural(len(change.files), 'file')}"
    if not change.files and change.state:  # a rating, an inbox decision: evidence, not lines
        said = "no file changed, only what memclaw knows about the facts"
    return f"{change.kind}: {said}" if kind else said


def _short(text: str, limit: int = WIDTH) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _id(line: Line) -> str:
    # A ``- key: value`` line states no fact (as search's ``Hit.fact``): no id to look up.
    return "" if is_meta(line.text) else f"  [{line.fact}]"


def file_lines(delta: FileDelta) -> list[str]:
    rows = []
    for line in _keep(delta.added, delta.rel):
        rows.append(f"    + {_short(line.text)}{_id(line)}")
    for line in _keep(delta.changed, delta.rel):
        rows.append(f"    ~ {_short(line.old or '', 34)} → {_short(line.text, 34)}{_id(line)}")
    for line in _keep(delta.removed, delta.rel):
        rows.append(f"    - {_short(line.text)}{_id(line)}")
    return rows


def receipt_lines(change: ChangeRecord, scope: Scope | None = None) -> list[str]:
    """The receipt as plain lines: a summary, then each file and its lines."""
    rows = [f"memory receipt · {summary(change)} · change {change.id}"]
    for delta in change.files:
        shown = file_lines(delta)
        state = " (new)" if delta.created else " (deleted)" if delta.deleted else ""
        rows.append(f"  {delta.rel}{state}")
        rows.extend(shown or ["    (only headings or blank lines)"])
    if scope is not None:
        owner = f" --owner {scope.owner}" if scope.owner and scope.prefix else ""
        rows.append(f"  undo with: memclaw undo {scope.agent.id}{owner}")
    return rows
