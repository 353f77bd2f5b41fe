"""What an import would replace, line by line, and which local files were edited by hand.

"Edited since memclaw last wrote or imported it" is told from modification
times, the one signal every file has whoever wrote it:

* each import records, in the ledger's ``import`` stream, the modification time
  each file it wrote had right after the write;
* each rewrite memclaw makes (extraction, dreaming, ``memclaw files``, an
  import) first keeps the old text in ``.memclaw/history/<file>/``, so the
  newest version there was written moments before the file itself.

A file modified more than :data:`SLACK_NS` after the newest of those two was
changed by something else: an editor, a script, a sync tool. A file memclaw
never recorded (created once and never rewritten) gives no verdict, so no
warning: a warning must mean something. Appends (daily notes) keep no history,
so a note memclaw appended to after the last import reads as edited; the cost
is one warning too many, never a silent loss (the import keeps the old version
in history either way).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memclaw.snapshot.plan import Action, ImportPlan
from memclaw.snapshot.rules import markdown_only
from memclaw.workspace.logs import append_log, read_log
from memclaw.workspace.paths import resolve_inside
from memclaw.workspace.safeguards import history

if TYPE_CHECKING:
    from memclaw.workspace import Agent

LOG = "import"
# A history version is written just before the file it belongs to; anything later
# than this is another writer. Generous, so a slow disk never reads as a person.
SLACK_NS = 2_000_000_000


@dataclass(frozen=True)
class FileDiff:
    path: str
    diff: str
    edited: bool

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "diff": self.diff, "edited_locally": self.edited}


def record_import(agent: Agent, written: list[str]) -> None:
    """Note the modification time each written file has now; see the module docstring."""
    times = {}
    for rel in written:
        path = resolve_inside(agent.path, rel, md_only=markdown_only(rel))
        if path.is_file():
            times[rel] = path.stat().st_mtime_ns
    if times:
        append_log(agent, LOG, {"files": times})


def last_written_ns(agent: Agent, rel: str) -> int | None:
    """When memclaw last wrote ``rel`` as far as its records tell, or None."""
    known: list[int] = []
    for record in read_log(agent, LOG):
        files = record.get("files")
        value = files.get(rel) if isinstance(files, dict) else None
        if isinstance(value, int) and not isinstance(value, bool):
            known.append(value)
    versions = history.versions(agent, rel)
    if versions:
        known.append(max(p.stat().st_mtime_ns for p in versions))
    return max(known) if known else None


def edited_since_memclaw(agent: Agent, rel: str) -> bool:
    reference = last_written_ns(agent, rel)
    path = resolve_inside(agent.path, rel, md_only=markdown_only(rel))
    if reference is None or not path.is_file():
        return False
    return path.stat().st_mtime_ns > reference + SLACK_NS


def plan_diffs(agent: Agent, plan: ImportPlan) -> list[FileDiff]:
    """A unified diff for every file the import would overwrite, in path order."""
    diffs = []
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
        diffs.append(FileDiff(row.path, text, edited_since_memclaw(agent, row.path)))
    return diffs
