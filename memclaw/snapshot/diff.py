"""What an import would replace, line by line, and which local files were edited by hand.

"Edited since memclaw last wrote it" is told by content: every change memclaw makes
(an extraction, a dream, ``memclaw files``, an import, an append to a daily note) is
in the journal, which records the hash of the file it left. A file that no longer
hashes to that was changed by something else: an editor, a script, a sync tool. A
forget and ``scan --redact`` rewrite files outside the journal, so a file they
cleaned reads as edited: one warning too many, never a loss. A file memclaw never
recorded gives no verdict, so no warning: a warning must mean something. Either way
the import keeps the replaced text in the history.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memclaw.snapshot.plan import Action, ImportPlan
from memclaw.snapshot.rules import markdown_only
from memclaw.workspace.paths import resolve_inside
from memclaw.workspace.safeguards import journal

if TYPE_CHECKING:
    from memclaw.workspace import Agent


@dataclass(frozen=True)
class FileDiff:
    path: str
    diff: str
    edited: bool

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "diff": self.diff, "edited_locally": self.edited}


def _edited_by_hand(agent: Agent, rel: str, written: dict[str, str | None]) -> bool:
    expected = written.get(rel)
    path = resolve_inside(agent.path, rel, md_only=markdown_only(rel))
    if expected is None or not path.is_file():
        return False
    return journal.sha(path.read_bytes().decode("utf-8", errors="replace")) != expected


def plan_diffs(agent: Agent, plan: ImportPlan) -> list[FileDiff]:
    """A unified diff for every file the import would overwrite, in path order."""
    diffs = []
    written = journal.last_written(agent)
    for row in plan.rows:
        if row.action is not Action.UPDATE:
            continue
        path = resolve_inside(agent.path, row.path, md_only=markdown_only(row.path))
        old = path.read_bytes().decode("utf-8", errors="replace")
        new = plan.contents[row.path].decode("utf-8")
        lines = difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=f"a/{row.path} (local)",
            tofile=f"b/{row.path} (snapshot)",
        )
        text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
        diffs.append(FileDiff(row.path, text, _edited_by_hand(agent, row.path, written)))
    return diffs
