"""The logs of an agent (extract, dream, recall, changes ...): streams of its ledger.

Logs are history, not memory: losing them loses no remembered fact.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import memclaw.workspace.ledger as ledger
from memclaw.gates.redaction import redact_data

if TYPE_CHECKING:
    from memclaw.workspace.folder import Folder


def append_log(agent: Folder, name: str, record: dict[str, Any]) -> None:
    """Add one record, stamped with the workspace clock; safe across processes.

    Every string in the record goes through the secret gate first: logs take text
    from many places (a model's reason, a search query, an unparseable answer) and
    this is the one door they all pass.
    """
    stamped = {"time": agent.now().isoformat(timespec="seconds"), **redact_data(record)}
    ledger.append(agent.meta_dir, name, stamped)


def read_log(agent: Folder, name: str) -> Iterator[dict[str, Any]]:
    """Records oldest first."""
    return ledger.read(agent.meta_dir, name)


def last_record(
    agent: Folder, name: str, *, skip_status: frozenset[str] = frozenset()
) -> dict[str, Any] | None:
    """The newest record, passing over those whose ``status`` is in ``skip_status``."""
    last = None
    for record in read_log(agent, name):
        if record.get("status") not in skip_status:
            last = record
    return last
