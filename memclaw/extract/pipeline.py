"""Post-chat extraction: turn a finished conversation into memory.

``extract_conversation`` checks the preconditions, takes the per-scope lock,
filters and redacts the transcript, asks the model (or the offline engine
when none is configured) what is worth keeping, and writes it: PROFILE.md
and MEMORY.md replaced only when there is new content (ceilings and history
apply), the daily entry appended under the time of day. Every run that is
not a dry run is logged in the ledger's ``extract`` stream.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from memclaw.errors import ContextTooLargeError, ModelAnswerError, ModelError
from memclaw.extract import cursor
from memclaw.extract.forgotten import forgotten_checker
from memclaw.extract.offline.engine import extract_facts
from memclaw.extract.offline.filing import daily_summary, file_facts
from memclaw.extract.offline.names import known_person
from memclaw.extract.result import Engine, ExtractionResult, Plan, Status
from memclaw.extract.state import cooldown_left, extraction_lock, mark_run
from memclaw.extract.timeline import (
    Moment,
    conversation_moment,
    message_days,
    message_time,
    windows,
)
from memclaw.extract.writing import apply_plan, keep_for_session
from memclaw.gates.session_key import parse_session_key
from memclaw.text.likeness import known_lines
from memclaw.text.plural import plural
from memclaw.workspace.agent import DAILY_DIR
from memclaw.workspace.entries import load_entries
from memclaw.workspace.logs import append_log
from memclaw.workspace.safeguards import journal
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.llm import ChatModel
    from memclaw.workspace.agent import Agent

# Conversations started by these never extract: they would feed memory with itself.
AUTOMATED_TRIGGERS = frozenset({"cron", "heartbeat", "automation", "schedule", "dream"})
CORE = ("PROFILE.md", "MEMORY.md")


def _skip(scope: Scope, reason: str) -> ExtractionResult:
    return ExtractionResult(Status.SKIPPED, reason, scope.agent.id, scope.owner)


def _held_back(scope: Scope, reason: str, session_id: str | None) -> ExtractionResult:
    """A skip for the cooldown: a session is queued for later, never dropped."""
    if session_id is not None:
        from memclaw.extract.pending import queue_session

        queue_session(scope, session_id)
        force = f"memclaw extract {scope.agent.id} --session {session_id} --force"
        return _skip(scope, f"{reason}; queued for when it ends (now: {force})")
    # A transcript file or stdin: the same command line again, with --force.
    return _skip(scope, f"{reason}; to extract it now, run the same command with --force")


def _preconditions(
    agent: Agent,
    messages: Sequence[dict[str, str]],
    session_id: str | None,
    trigger: str | None,
) -> str | None:
    """Why this conversation must not be extracted now, or None."""
    from memclaw.gates import is_automated_session

    settings = agent.settings
    if not settings.extract_enabled:
        return "extraction is turned off (extract_enabled = false)"
    if settings.extract_skip_automated and is_automated_session(trigger, session_id):
        return "automated session (cron, heartbeat or automation); extract_skip_automated is on"
    if len(messages) < settings.extract_min_messages:
        return (
            f"only {plural(len(messages), 'message')}; extraction needs "
            f"{settings.extract_min_messages} "
            "(extract_min_messages)"
        )
    last_user = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
    if len(last_user.strip()) < settings.extract_min_user_chars:
        return (
            f"last user message is shorter than {settings.extract_min_user_chars} characters "
            "(extract_min_user_chars)"
        )
    return None


def _cooldown_reason(scope: Scope) -> str | None:
    agent = scope.agent
    left = cooldown_left(scope)
    if left <= 0:
        return None
    return (
        f"cooldown: extracted less than {agent.settings.extract_cooldown_minutes:g} minutes ago "
        f"({left:.0f} s left; extract_cooldown_minutes)"
    )


def _prepare(
    agent: Agent, messages: Sequence[dict[str, str]], moment: Moment
) -> list[dict[str, str]]:
    """The whole conversation, filtered and redacted, each message with its own ``day``.

    Messages are filtered one by one so each keeps its day; the conversation is
    never cut to its last messages (engines read it in windows instead). A key
    pasted over two user messages is whole again in what an engine reads, so the
    user's messages are redacted as a sequence, the seams between them included.
    """
    from memclaw.gates import filter_messages, redact, redact_adjacent
    from memclaw.gates.credentials.split import answered_secrets
    from memclaw.gates.redaction import redact_known

    settings = agent.settings
    kept = []
    for message, day in zip(messages, message_days(messages, moment), strict=True):
        # The turn's own time, when it has one, is shown to the model with its day.
        said = message_time(message)
        for one in filter_messages(
            [message], max_chars=settings.extract_max_message_chars, max_messages=1
        ):
            kept.append({"role": one["role"], "content": one["content"], "day": day})
            if said is not None:
                kept[-1]["time"] = said.strftime("%H:%M")
    users = [i for i, m in enumerate(kept) if m["role"] == "user"]
    redacted = dict(zip(users, redact_adjacent([kept[i]["content"] for i in users]), strict=True))
    # An answer to a question about a credential (the assistant's "What's the door code?",
    # then "2580") is a secret wherever it stands in the conversation.
    answered: dict[str, str] = {}
    for i in users[1:] if users and users[0] == 0 else users:
        answered.update(answered_secrets(kept[i - 1]["content"], kept[i]["content"]))
    return [
        redact_known(
            {**m, "content": redacted[i] if i in redacted else redact(m["content"])}, answered
        )
        for i, m in enumerate(kept)
    ]


def _context(scope: Scope, day: str) -> dict[str, str]:
    """What memory already says, and the note of the conversation's day."""
    agent = scope.agent
    context = {
        "profile": scope.read("PROFILE.md"),
        "memory": scope.read("MEMORY.md"),
        "today_note": scope.read(f"{DAILY_DIR}/{day}.md"),
        "shared": "",
    }
    if scope.personal:
        context["shared"] = "\n\n".join(text for name in CORE if (text := agent.read(name).strip()))
    return context


def _offline_plan(
    scope: Scope, transcript: Sequence[dict[str, str]], ctx: dict[str, str], day: str
) -> Plan:
    # The rules read turn by turn and keep no window of their own, so the whole
    # transcript is one pass: the same as reading overlapping windows, without repeats.
    agent = scope.agent
    entries = load_entries(scope) + (load_entries(Scope(agent)) if scope.owner else [])
    known = known_lines(*ctx.values(), *(entry.text for entry in entries))
    person = known_person(ctx["profile"], ctx["shared"])
    found = extract_facts(transcript, day, known, forgotten_checker(scope), person=person)
    plan = Plan(Engine.OFFLINE, bool(found.facts), "", forgotten=found.forgotten)
    plan.facts = found.facts
    dropped = []
    if found.known:
        dropped.append(f"{found.known} already known")
    if found.secrets:
        dropped.append(f"{found.secrets} with a credential")
    if found.forgotten:
        dropped.append(f"{found.forgotten} forgotten earlier")
    tail = f" ({', '.join(dropped)} skipped)" if dropped else ""
    if not found.facts:
        plan.reason = "no new durable facts in what the user said" + tail
        return plan
    kinds = sorted({fact.category for fact in found.facts})
    # A sentence made of several short ones is one fact: the count says so, and how.
    joined = f"; {plural(found.pieces, 'fact')} joined into {found.wholes}" if found.pieces else ""
    plan.reason = f"{plural(len(found.facts), 'new fact')}: {', '.join(kinds)}{joined}{tail}"
    profile, memory = file_facts(ctx["profile"], ctx["memory"], found.facts)
    plan.profile = profile if profile != ctx["profile"] else None
    plan.memory = memory if memory != ctx["memory"] else None
    plan.daily = daily_summary(found.facts)
    return plan


def _log(
    agent: Agent, result: ExtractionResult, session_id: str | None, trigger: str | None
) -> None:
    record: dict[str, Any] = {
        "status": str(result.status),
        "reason": result.reason,
        "owner": result.owner,
        "session": session_id,
        "trigger": trigger,
        "engine": str(result.engine) if result.engine else None,
        "changed": result.files_changed,
        "tokens": {
            "prompt": result.prompt_tokens,
            "completion": result.completion_tokens,
            "estimated": result.tokens_estimated,
        },
        "facts": len(result.facts),
        "redacted": result.redacted,
        "forgotten": result.forgotten,
    }
    if result.change:
        record["change"] = result.change
    if result.time_source:
        record["conversation_time"] = result.time_source
    if result.windows:
        record["windows"] = result.windows
    if result.status is Status.SKIPPED:
        record["skipped"] = result.reason
    if result.notes:
        record["notes"] = result.notes
    if result.refused:
        # The lines a refused rewrite would have dropped, redacted by the guard.
        record["refused"] = result.refused
    append_log(agent, "extract", record)


def extract_conversation(
    scope: Scope,
    messages: Sequence[dict[str, str]],
    *,
    session_id: str | None = None,
    trigger: str | None = None,
    force: bool = False,
    dry_run: bool = False,
    model: ChatModel | None = None,
    again: bool = False,
    offline: bool = False,
) -> ExtractionResult:
    """Extract what is worth keeping from ``messages`` into the scope's memory.

    ``force`` skips the preconditions and the cooldown, never the lock nor
    the recursion guard. ``dry_run`` computes diffs and writes nothing at all.
    With a ``session_id`` only the turns no earlier run of that session read are
    extracted (``memclaw.extract.cursor``); ``again`` reads every turn once more.
    Raises ModelError subclasses when the model fails (unreachable, refused); nothing is
    written then. An answer that is not the JSON asked for is extracted offline instead;
    ``offline`` uses the offline engine whatever is configured.
    """
    if trigger and trigger.strip().lower() in AUTOMATED_TRIGGERS:
        return _skip(scope, f"started by {trigger.strip().lower()}: never extracted")
    if parse_session_key(session_id).subagent:
        # The parent's own session carries what the helper found; capturing both duplicates it.
        return _skip(scope, "a subagent's session: the parent agent's session is extracted instead")
    if dry_run:
        return _run(scope, messages, session_id, trigger, force, dry_run, model, again, offline)
    # Every file this run writes is one change: one receipt, one `memclaw undo`.
    with journal.change(scope.agent, "extract", session=session_id, trigger=trigger) as change:
        result = _run(scope, messages, session_id, trigger, force, dry_run, model, again, offline)
    result.change = change.id if change.record is not None else ""
    _log(scope.agent, result, session_id, trigger)
    return result


def _run(
    scope: Scope,
    messages: Sequence[dict[str, str]],
    session_id: str | None,
    trigger: str | None,
    force: bool,
    dry_run: bool,
    model: ChatModel | None,
    again: bool = False,
    offline: bool = False,
) -> ExtractionResult:
    agent = scope.agent
    if not force:
        reason = _preconditions(agent, messages, session_id, trigger)
        if reason:
            return _skip(scope, reason)
        # The cooldown spaces out writes; a dry run writes nothing, so it never waits.
        if not dry_run and (reason := _cooldown_reason(scope)):
            return _held_back(scope, reason, session_id)
    # A dry run writes nothing, so it needs no lock (and creates no lock file).
    lock = contextlib.nullcontext(True) if dry_run else extraction_lock(scope)
    with lock as held:
        if not held:
            return _skip(scope, "another extraction of this agent is running")
        # Checked again under the lock: a run that just finished elsewhere counts.
        if not force and not dry_run and (reason := _cooldown_reason(scope)):
            return _held_back(scope, reason, session_id)
        # Read under the lock: a mid-chat run that just ended has recorded its turns.
        fresh = cursor.to_read(scope, session_id, messages, again=again)
        if fresh is None:
            return _skip(scope, cursor.read_already(scope, session_id))
        result = ExtractionResult(Status.NOTHING, "", agent.id, scope.owner, dry_run=dry_run)
        try:
            _extract(scope, fresh, session_id, model, result, offline=offline)
        except ModelError as exc:
            result.status, result.reason = Status.FAILED, str(exc)
            if not dry_run:
                _log(agent, result, session_id, trigger)
            raise
        if not dry_run:
            mark_run(scope)
            cursor.mark_read(scope, session_id, messages, again=again)
        return result


def _extract(
    scope: Scope,
    messages: Sequence[dict[str, str]],
    session_id: str | None,
    model: ChatModel | None,
    result: ExtractionResult,
    *,
    offline: bool = False,
) -> None:
    agent = scope.agent
    moment = conversation_moment(messages, session_id, agent.now())
    result.time_source = f"{moment.when.isoformat(timespec='minutes')} from {moment.source}"
    transcript = _prepare(agent, messages, moment)
    day = moment.day.isoformat()
    ctx = _context(scope, day)
    use_model = not offline and (model is not None or agent.settings.model_configured)
    result.engine = Engine.MODEL if use_model else Engine.OFFLINE
    chat = model
    if not any(m["role"] == "user" for m in transcript):
        result.reason = "nothing left to read after filtering noise"
        return
    if use_model:
        from memclaw.extract.model import model_plan
        from memclaw.llm import open_model

        settings = agent.settings
        chat = model or open_model(settings)
        cut = windows(
            len(transcript),
            settings.extract_max_messages,
            settings.extract_window_overlap,
            settings.extract_max_windows,
        )
        result.windows = len(cut.spans)
        try:
            plan = model_plan(
                scope,
                chat,
                [transcript[start:end] for start, end in cut.spans],
                day=day,
                profile=ctx["profile"],
                memory=ctx["memory"],
                today_note=ctx["today_note"],
                shared=ctx["shared"],
                forgotten=forgotten_checker(scope),
            )
        except (ContextTooLargeError, ModelAnswerError) as exc:
            # A small local model: the offline engine keeps what it can rather than nothing.
            # (What the model said is not repeated: an unreadable answer may hold anything.)
            result.engine, result.windows = Engine.OFFLINE, 1
            from memclaw.extract.model import UngroundedAnswerError

            why = (
                "the prompt does not fit the model's context"
                if isinstance(exc, ContextTooLargeError)
                else str(exc)
                if isinstance(exc, UngroundedAnswerError)
                else "the model's answer was not the JSON asked for"
            )
            result.notes.append(f"{why}: offline engine used")
            plan = _offline_plan(scope, transcript, ctx, day)
    else:
        result.windows = 1
        plan = _offline_plan(scope, transcript, ctx, day)
    result.reason = plan.reason
    result.prompt_tokens, result.completion_tokens = plan.prompt_tokens, plan.completion_tokens
    result.tokens_estimated = plan.tokens_estimated
    result.redacted, result.forgotten, result.facts = plan.redacted, plan.forgotten, plan.facts
    result.notes += plan.notes
    if plan.session and not result.dry_run:
        keep_for_session(scope, session_id, plan.session, result)
    if not plan.should_update or (plan.profile is None and plan.memory is None and not plan.daily):
        return
    from memclaw.extract.screen import after, screen_plan

    # The model that wrote the plan also judges what the offline rules are unsure of.
    screened = screen_plan(scope, plan, ctx, result, session=session_id, model=chat)
    apply_plan(scope, plan, ctx, result, moment)
    if not result.dry_run:
        after(scope, screened, session=session_id)
    changed = result.diffs if result.dry_run else result.files_changed
    if not changed:
        result.status = Status.NOTHING
        # The plan's reason says what it meant to write ("one new fact"); none of it was
        # new to memory, or it was held or left out, as the notes say.
        result.reason = "nothing new to write: memory already holds it, or it was held or left out"
    else:
        result.status = Status.WOULD_WRITE if result.dry_run else Status.WRITTEN
