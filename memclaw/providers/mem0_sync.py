"""Back-fill: send the turns of past chat sessions to Mem0, once each, resumably.

Every owner's stored sessions are walked in order; a turn already in the sync
record (:mod:`memclaw.providers.mem0_state`) is skipped, every other one is
sent and recorded at once, so an interrupted run picks up where it stopped and
a second run sends nothing. Sessions that are not a person's own conversation
are never sent: subagents' (the parent's session carries their result),
scheduled runs', and sessions without an owner (Mem0 needs a user_id; with
``owner_isolation`` off no session has one). Turns a chat marked uncaptured
(``--no-capture``, ``--trigger cron``) and turns that say a forgotten fact are
never sent either; and Mem0 deletes a forget could not finish (Mem0 was
down) are finished first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memclaw.extract.transcripts import load_transcript
from memclaw.gates.session_key import parse_session_key
from memclaw.providers.mem0 import TurnRecord, send_turn, turn_messages
from memclaw.providers.mem0_forget import finish_pending, says_forgotten
from memclaw.providers.mem0_state import synced_turns, uncaptured_turns
from memclaw.workspace.owners import OWNERS_DIR, owner_from_dirname
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from memclaw.providers.mem0_api import Mem0Backend
    from memclaw.workspace.agent import Agent
    from memclaw.workspace.owners import OwnerKey

SESSIONS_DIR = "sessions"


@dataclass
class BackfillReport:
    sessions: int = 0
    sent: int = 0
    already: int = 0
    uncaptured: int = 0
    forgotten: int = 0
    mem0_deleted: int = 0
    skipped: list[str] = field(default_factory=list)
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "sent": self.sent,
            "already_synced": self.already,
            "uncaptured": self.uncaptured,
            "forgotten": self.forgotten,
            "mem0_deleted": self.mem0_deleted,
            "skipped": self.skipped,
            "error": self.error,
        }


def session_turns(path: Path) -> Iterator[tuple[int, str, str]]:
    """(turn index, user text, final answer) of a stored session, as the live sync numbers them."""
    index = -1
    user, answer = "", ""
    for message in load_transcript(path):
        if message["role"] == "user":
            if index >= 0:
                yield index, user, answer
            index, user, answer = index + 1, message["content"], ""
        elif message["role"] == "assistant" and message["content"].strip():
            answer = message["content"]
    if index >= 0:
        yield index, user, answer


def owner_sessions(agent: Agent, owner: OwnerKey | None = None) -> Iterator[tuple[Scope, Path]]:
    """(scope, transcript) of every owner's session, oldest owner folder first."""
    base = agent.path / OWNERS_DIR
    if not agent.settings.owner_isolation or not base.is_dir():
        return
    for folder in sorted(p for p in base.iterdir() if p.is_dir()):
        scope = Scope(agent, owner_from_dirname(folder.name))
        if owner is not None and scope.owner != owner:
            continue
        for path in sorted((folder / SESSIONS_DIR).glob("*.jsonl")):
            yield scope, path


def backfill(
    agent: Agent,
    client: Mem0Backend | None,
    *,
    owner: OwnerKey | None = None,
    dry_run: bool = False,
) -> BackfillReport:
    """Send every owner's unsent turns; stops at the first failure (the next run resumes).

    A dry run only counts, and needs no client.
    """
    from memclaw.providers.mem0_api import Mem0Error

    if client is None and not dry_run:
        raise ValueError("backfill needs a Mem0 client to send turns; None is for dry runs")
    report = BackfillReport()
    if client is not None and not dry_run:
        try:
            report.mem0_deleted = finish_pending(agent, client, owner)
        except Mem0Error as exc:
            report.error = str(exc)
            return report
    team = agent.path / SESSIONS_DIR
    if team.is_dir() and any(team.glob("*.jsonl")):
        report.skipped.append("sessions without an owner (Mem0 needs a user_id)")
    for scope, path in owner_sessions(agent, owner):
        session_id = path.stem
        key = parse_session_key(session_id)
        if key.subagent or key.automated:
            report.skipped.append(f"{scope.label}/{session_id}: subagent or scheduled run")
            continue
        report.sessions += 1
        done = synced_turns(scope, session_id)
        private = uncaptured_turns(scope, session_id)
        for index, user, answer in session_turns(path):
            if index in done:
                report.already += 1
                continue
            if index in private:
                report.uncaptured += 1
                continue
            messages = turn_messages(user, answer)
            if not messages:
                continue
            if says_forgotten(scope, messages):
                report.forgotten += 1
                continue
            if dry_run or client is None:
                report.sent += 1
                continue
            try:
                send_turn(client, TurnRecord(scope, session_id, index, messages))
            except Mem0Error as exc:
                report.error = str(exc)
                return report
            report.sent += 1
    return report
