"""Who wrote each line of a ceilinged file: a model, or a person.

A ceiling may only ever move lines a model wrote, so every write to PROFILE.md
or MEMORY.md records which lines it brought in and for whom. The record lives
in the ledger's ``provenance/<relative path>`` document as ``{"seq": n, "lines":
{key: seq}}``: the key of each line a model write introduced (extraction,
dreaming, a chat tool) and the number of that write, so "oldest" has a meaning.

The rule, applied to real files: a line is model-written when its exact text
(whitespace aside) was introduced by a model write and has not changed since.
Everything else is the person's: text typed in an editor (memclaw never saw
it written), text written with ``memclaw files``, a model line a person edited
(its text, so its key, changed), and every line of a file whose record is
gone. Losing the record therefore only makes lines the person's: they stay.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import memclaw.workspace.ledger as ledger

if TYPE_CHECKING:
    from memclaw.workspace.folder import Folder


class Author(StrEnum):
    PERSON = "person"  # memclaw files, undo and restore: what a person asked for verbatim
    MODEL = "model"  # extraction, dreaming, the model's file tools


def line_key(line: str) -> str:
    # A digest, not the text: the record must not become a second copy of the memory.
    return hashlib.sha256(" ".join(line.split()).encode("utf-8")).hexdigest()[:20]


def keys(text: str) -> set[str]:
    return {line_key(line) for line in text.splitlines() if line.strip()}


@dataclass(frozen=True)
class Provenance:
    seq: int = 0
    lines: dict[str, int] = field(default_factory=dict)

    def after(self, old: str, new: str, author: Author) -> Provenance:
        """The record once ``new`` replaces ``old``, written by ``author``."""
        new_keys = keys(new)
        introduced = new_keys - keys(old)
        lines = {k: v for k, v in self.lines.items() if k in new_keys and k not in introduced}
        seq = self.seq
        if author is Author.MODEL and introduced:
            seq += 1
            lines.update(dict.fromkeys(introduced, seq))
        return Provenance(seq, lines)

    def within(self, text: str) -> Provenance:
        """Only the lines still in ``text``, so the record never outgrows the file."""
        present = keys(text)
        return Provenance(self.seq, {k: v for k, v in self.lines.items() if k in present})


def document(rel: str) -> str:
    """The ledger's document of who wrote each line of ``rel``."""
    return f"provenance/{rel}"


def load(agent: Folder, rel: str) -> Provenance:
    """The record of ``rel``; an unreadable or missing one makes every line the person's."""
    return load_from(agent.meta_dir, rel)


def load_from(meta_dir: Path, rel: str) -> Provenance:
    """:func:`load` for readers that know the agent's ``.memclaw`` folder, not the agent."""
    try:
        data = ledger.load(meta_dir, document(rel))[0]
        seq = int(data["seq"])
        lines = {str(k): int(v) for k, v in dict(data["lines"]).items()}
    except (ValueError, KeyError, TypeError, AttributeError):
        return Provenance()
    return Provenance(seq, lines)


def save(agent: Folder, rel: str, record: Provenance) -> None:
    """Store the record of ``rel``; the caller holds the agent lock."""
    ledger.save(agent.meta_dir, document(rel), {"seq": record.seq, "lines": record.lines})


STORE = "provenance"  # the name its deltas carry in the change journal


def delta(before: Provenance, after: Provenance, rel: str) -> dict[str, Any]:
    """What one write did to ``rel``'s record: the model lines it dropped (keys only)."""
    dropped = {k: v for k, v in before.lines.items() if after.lines.get(k) != v}
    return {"store": STORE, "rel": rel, "dropped": dropped}


def undo_delta(agent: Folder, noted: dict[str, Any]) -> None:
    """After undo put ``rel``'s text back: its model lines are the model's again.

    Lines the undone write introduced left the file with the undo, so their keys
    go by themselves (``within``); those it dropped come back wherever their text is
    back. The caller holds the agent lock.
    """
    rel = str(noted["rel"])
    path = agent.path / rel
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    record = load(agent, rel)
    lines = {**record.lines, **{str(k): int(v) for k, v in noted.get("dropped", {}).items()}}
    save(agent, rel, Provenance(record.seq, lines).within(text))
