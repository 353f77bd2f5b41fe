"""What search recalled: which lines of which files, for which queries.

Search appends one record per answered query to the ledger's ``recall`` stream::

    {"time": ..., "query": "cutover date", "owner": "user:maya",
     "hits": [{"file": "memory/2026-11-24.md", "line": 12, ...}, ...]}

A hit names the block it found: ``line`` (and ``end_line`` when the block spans
several lines); the file is relative to the agent folder, owners' files under
``owners/``, so the path alone says whose memory was recalled. Dreaming uses
this to reward facts that were actually looked up, and by how many questions.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.errors import StorageError, storage_refusal
from memclaw.workspace.logs import append_log, read_log

if TYPE_CHECKING:
    from memclaw.index.rank import Hit
    from memclaw.workspace.agent import Agent, Workspace
    from memclaw.workspace.owners import OwnerKey

RECALL_LOG = "recall"


@dataclass(frozen=True)
class RecallIndex:
    """Queries that hit each (file, line), plus line ranges per file."""

    lines: dict[tuple[str, int], list[str]]
    ranges: dict[str, list[tuple[int, int, str]]] | None = None

    def queries_for(self, file: str, line: int) -> list[str]:
        found = list(self.lines.get((file, line), ()))
        for start, end, query in (self.ranges or {}).get(file, ()):
            if start <= line <= end:
                found.append(query)
        return found


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def _relative(agent: Agent, file: str) -> str:
    path = Path(file)
    if path.is_absolute():
        try:
            return path.relative_to(agent.path).as_posix()
        except ValueError:
            return file
    return path.as_posix()


def load_recall(agent: Agent) -> RecallIndex:
    """Read the recall log of ``agent`` into a (file, line) -> queries index."""
    lines: dict[tuple[str, int], list[str]] = defaultdict(list)
    ranges: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for record in read_log(agent, RECALL_LOG):
        query = record.get("query")
        hits = record.get("hits")
        if not isinstance(query, str) or not isinstance(hits, list):
            continue
        query = " ".join(query.lower().split())
        for hit in hits:
            if not isinstance(hit, dict) or not isinstance(hit.get("file"), str):
                continue
            file = _relative(agent, hit["file"])
            line = _as_int(hit.get("line"))
            start = _as_int(hit.get("start_line", hit.get("line")))
            end = _as_int(hit.get("end_line"))
            if start is not None and end is not None and end > start:
                ranges[file].append((start, end, query))
            elif line is not None or start is not None:
                lines[(file, line if line is not None else start or 0)].append(query)
    return RecallIndex(dict(lines), dict(ranges))


def log_recall(
    workspace: Workspace,
    query: str,
    hits: list[Hit],
    *,
    owner: OwnerKey | None,
    scope: str,
    source: str | None = None,
) -> None:
    """Append one recall record per index the hits came from (GLOBAL ones under _global/).

    Dreaming reads these records to see which lines are really used.
    """
    from memclaw.workspace.agent import Agent
    from memclaw.workspace.paths import GLOBAL_DIR

    by_index: dict[str, list[Hit]] = {}
    for hit in hits:
        by_index.setdefault(hit.agent, []).append(hit)
    for key, mine in by_index.items():
        folder = workspace.global_dir if key == GLOBAL_DIR else workspace.root / key
        record: dict[str, Any] = {"query": query, "owner": owner, "scope": scope}
        if source:
            record["source"] = source
        record["hits"] = [
            {
                "file": h.file,
                "line": h.line,
                "end_line": h.end_line,
                "hash": h.hash,
                "scope": h.scope,
                "score": round(h.score, 6),
            }
            for h in mine
        ]
        try:
            append_log(Agent(workspace, key, folder), RECALL_LOG, record)
        except (OSError, StorageError) as exc:
            # What was recalled only tunes dreams: a root that cannot take it still answers.
            refusal = storage_refusal(exc)
            if refusal is None:
                raise
            import logging

            logging.getLogger("memclaw.index").warning("recall not logged: %s", refusal.refused)
            return
