"""Extracting the conversations that wait (see ``memclaw.extract.pending``).

A model that fails a conversation is tried again by the next chat or dream; after
``MODEL_TRIES`` failures the offline engine extracts it instead, saying so, so a model
that keeps failing never holds a conversation back for good.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memclaw.errors import MemclawError, UsageError
from memclaw.extract.pending import note_failure, read_rows, remove_row
from memclaw.workspace.owners import OwnerKey

if TYPE_CHECKING:
    from memclaw.extract.result import ExtractionResult
    from memclaw.llm import ChatModel
    from memclaw.workspace.agent import Agent

MODEL_TRIES = 3


def extract_pending(agent: Agent, model: ChatModel | None = None) -> list[ExtractionResult]:
    """Extract the queued conversations whose cooldown is over; the rest stay queued.

    A failed try is a result too (status ``failed``, saying how many tries are left)."""
    from memclaw.extract.pipeline import extract_conversation
    from memclaw.extract.result import ExtractionResult, Status
    from memclaw.extract.state import cooldown_left
    from memclaw.extract.transcripts import load_session, session_path
    from memclaw.workspace.scope import Scope

    results = []
    for row in read_rows(agent):
        owner = row.get("owner")
        scope = Scope(agent, OwnerKey(owner) if owner else None)
        if cooldown_left(scope) > 0:
            continue
        session_id = str(row["session"])
        try:
            session_path(scope, session_id)
        except UsageError:
            remove_row(agent, row)  # deleted or forgotten since: nothing is left to extract
            continue
        if _open(agent, session_id):
            continue  # a chat still has it open: its own end extracts it
        tries = int(row.get("tries") or 0)
        offline = tries >= MODEL_TRIES
        try:
            messages = load_session(scope, session_id)
            result = extract_conversation(
                scope, messages, session_id=session_id, model=model, offline=offline
            )
        except MemclawError as exc:
            tries = note_failure(agent, row, str(exc))
            then = (
                "the offline engine takes it next time"
                if tries >= MODEL_TRIES
                else f"tried {tries} of {MODEL_TRIES} times with the model"
            )
            failed = ExtractionResult(Status.FAILED, f"{exc} ({then})", agent.id, scope.owner)
            results.append(failed)
            continue  # stays queued
        if result.status is Status.SKIPPED:
            if result.reason.startswith(("cooldown", "another extraction")):
                continue  # still waiting: it stays queued
            remove_row(agent, row)  # nothing left to read (a run it waited for read it)
            continue
        if offline:
            result.notes.append(
                f"the model failed it {tries} times ({row.get('error', 'no reason kept')}): "
                "extracted offline"
            )
        remove_row(agent, row)
        results.append(result)
    return results


def _open(agent: Agent, session_id: str) -> bool:
    """Whether a live chat holds the session (its lock); a killed one's lock is free."""
    from memclaw.errors import LockBusyError
    from memclaw.extract.transcripts import chat_lock
    from memclaw.workspace.atomic import file_lock

    try:
        with file_lock(chat_lock(agent, session_id), wait=0):
            return False
    except LockBusyError:
        return True
