"""Extracting the conversations the cooldown held back (see ``memclaw.extract.pending``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memclaw.errors import MemclawError
from memclaw.extract.pending import read_rows, remove_row
from memclaw.workspace.owners import OwnerKey

if TYPE_CHECKING:
    from memclaw.extract.result import ExtractionResult
    from memclaw.llm import ChatModel
    from memclaw.workspace.agent import Agent


def extract_pending(agent: Agent, model: ChatModel | None = None) -> list[ExtractionResult]:
    """Extract the queued conversations whose cooldown is over; the rest stay queued."""
    from memclaw.extract.pipeline import extract_conversation
    from memclaw.extract.result import Status
    from memclaw.extract.state import cooldown_left
    from memclaw.extract.transcripts import load_session
    from memclaw.workspace.scope import Scope

    results = []
    for row in read_rows(agent):
        owner = row.get("owner")
        scope = Scope(agent, OwnerKey(owner) if owner else None)
        if cooldown_left(scope) > 0:
            continue
        session_id = str(row["session"])
        try:
            messages = load_session(scope, session_id)
            result = extract_conversation(scope, messages, session_id=session_id, model=model)
        except MemclawError:
            continue  # stays queued; the next chat or dream tries again
        busy = result.reason.startswith(("cooldown", "another extraction"))
        if result.status is Status.SKIPPED and busy:
            continue  # still waiting: it stays queued
        remove_row(agent, row)
        results.append(result)
    return results
