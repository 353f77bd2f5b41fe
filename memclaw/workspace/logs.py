"""Append-only JSON-lines logs under ``.memclaw/logs/`` (extract, dream, recall ...).

Logs are history, not memory: losing them loses no remembered fact.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.gates.redaction import redact_data
from memclaw.text import jsonsafe
from memclaw.workspace.atomic import append_text, file_lock

if TYPE_CHECKING:
    from memclaw.workspace.folder import Folder


def log_path(agent: Folder, name: str) -> Path:
    return agent.meta_dir / "logs" / f"{name}.jsonl"


def append_log(agent: Folder, name: str, record: dict[str, Any]) -> None:
    """Add one record, stamped with the workspace clock; safe across processes.

    Every string in the record goes through the secret gate first: logs take text
    from many places (a model's reason, a search query, an unparseable answer) and
    this is the one door they all pass.
    """
    stamped = {"time": agent.now().isoformat(timespec="seconds"), **redact_data(record)}
    line = json.dumps(stamped, ensure_ascii=False, default=str) + "\n"
    path = log_path(agent, name)
    with file_lock(path.with_suffix(".lock")):
        append_text(path, line)


def read_log(agent: Folder, name: str) -> Iterator[dict[str, Any]]:
    """Records oldest first; a torn last line (a crash mid-append) is skipped."""
    path = log_path(agent, name)
    if not path.is_file():
        return
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            try:
                record = jsonsafe.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict):
                yield record


def last_record(
    agent: Folder, name: str, *, skip_status: frozenset[str] = frozenset()
) -> dict[str, Any] | None:
    """The newest record, passing over those whose ``status`` is in ``skip_status``."""
    last = None
    for record in read_log(agent, name):
        if record.get("status") not in skip_status:
            last = record
    return last
