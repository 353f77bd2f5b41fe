"""Memory entries: explicit, addressable facts the user (or the model) asks to keep.

Entries live in ``<scope>/entries/<category>.md`` (session-scoped ones in
``entries/session-<id>.md``) in the format of :mod:`memclaw.workspace.entries`.
``remember`` never stores a copy of what is already there: a restatement
updates the existing entry; a newer version of a fact about the same named
thing (the Paris trip planned, then booked) absorbs the older entry's unique
details into one entry and the older one goes (``text.combine``; a model's
statement never rewords an entry a person stated, so then both stay); a changed
fact waits in the contradiction inbox
(``memclaw.facts.settle``) unless it is an explicit correction, which replaces
the old one (kept in history). Reading entries is :mod:`memclaw.entries.lookup`,
forgetting them :mod:`memclaw.entries.forgetting`, their files :mod:`memclaw.entries.files`.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from memclaw.entries.files import LOG, EntryFiles, file_of, sync_index
from memclaw.entries.match import guess_category, restates, supersedes
from memclaw.errors import SecretDetectedError, UsageError
from memclaw.extract.forgotten import Blocker, forgotten_blocker, record_relearned
from memclaw.facts.ids import fact_id
from memclaw.facts.ledger import facts_of
from memclaw.facts.settle import Outcome, Settled, hold, record_written, settle
from memclaw.text.combine import absorb, updates
from memclaw.text.likeness import fingerprint, tokens
from memclaw.workspace.entries import ENTRIES_DIR, Entry, categories, fit_category
from memclaw.workspace.logs import append_log
from memclaw.workspace.safeguards import journal

if TYPE_CHECKING:
    from memclaw.facts.judge import Judge
    from memclaw.llm import ChatModel
    from memclaw.workspace.scope import Scope

_SESSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


class Action(StrEnum):
    ADDED = "added"
    UPDATED = "updated"
    SUPERSEDED = "superseded"
    UNCHANGED = "unchanged"
    SKIPPED = "skipped"
    HELD = "held"  # it contradicts a remembered fact: waiting in the inbox


@dataclass(frozen=True)
class RememberResult:
    entry: Entry | None
    action: Action
    previous: Entry | None = None  # the entry that was updated or superseded
    reason: str = ""
    inbox: list[str] = field(default_factory=list)  # contradictions it opened
    blocked: bool = False  # skipped because the person forgot this fact earlier


def _blocked_reason(blocker: Blocker, text: str) -> str:
    """Which forget blocks ``text`` and how to lift it, naming only what was just typed."""
    when = blocker.time[:10] or "earlier"
    if blocker.kind == "statement":
        what = f"fact {blocker.fact}" if blocker.fact else "a fact"
        return (
            f"forgotten earlier: it restates {what}, forgotten on {when}; "
            "`memclaw remember --force` keeps it again"
        )
    # The words are kept hashed: name those of the typed text that the forget holds.
    held = set(blocker.prints)
    typed = dict.fromkeys(text.split())
    words = [w for w in typed if fingerprint(w) and set(fingerprint(w)) <= held]
    shown = f" ({' '.join(words)})" if words else ""
    return (
        f"forgotten earlier: it holds the words{shown} forgotten on {when}; "
        "`memclaw remember --force` keeps it again"
    )


def _new_id(text: str, created: str, category: str, taken: set[str]) -> str:
    salt = 0
    while True:
        seed = f"{text}\x00{created}\x00{category}\x00{salt}"
        candidate = "m-" + hashlib.sha256(seed.encode()).hexdigest()[:8]
        if candidate not in taken:
            return candidate
        salt += 1


def remember(
    scope: Scope,
    text: str,
    *,
    category: str | None = None,
    session_id: str | None = None,
    force: bool = False,
    source: str = "remember",
    by_person: bool = True,
    model: ChatModel | Judge | None = None,
) -> RememberResult:
    """Store ``text`` as a memory entry, updating what it restates.

    A statement that contradicts a remembered fact is not stored: it waits in
    the inbox and the old fact stays (``Action.HELD``), unless it is an explicit
    correction ("actually ...", "moved to ..."), which replaces the old fact
    wherever it lives (``Action.SUPERSEDED``). A fact that was forgotten
    earlier is skipped unless ``force`` is true. ``source`` and ``by_person``
    are the evidence recorded (a chat tool is the model's, not the person's).
    ``model`` (see ``memclaw.facts.judge``) judges what the offline rules are
    unsure of; without it the statement is weighed offline.
    Raises SecretDetectedError when ``text`` holds a credential.
    """
    from memclaw.gates import find_secrets

    text = " ".join(text.split())
    if not text:
        raise UsageError("nothing to remember: give the fact as text")
    if found := find_secrets(text):
        raise SecretDetectedError(
            f"refusing to remember: it holds what looks like a secret ({found[0].kind}); "
            "memory must never hold credentials"
        )
    allowed = categories(scope.agent.settings)
    if category is not None and category not in allowed:
        raise UsageError(
            f"unknown category {category!r}; use one of {', '.join(allowed)} "
            "(the categories setting adds more)"
        )
    if session_id is not None and not _SESSION.fullmatch(session_id):
        raise UsageError(f"session id {session_id!r} is not valid: letters, digits, '.', '_', '-'")
    agent = scope.agent
    today = agent.now().date()
    category = category or fit_category(guess_category(text, today.isoformat()), allowed)
    if (blocker := forgotten_blocker(scope)(text)) is not None:
        if not force:
            return RememberResult(
                None, Action.SKIPPED, reason=_blocked_reason(blocker, text), blocked=True
            )
        record_relearned(scope, text)
    # One change from the first write to the last: undo takes back the correction of an
    # old fact, its evidence and any inbox item together with the entry itself.
    with journal.change(agent, "remember", prefix=scope.prefix):
        return _settle_and_write(scope, text, category, session_id, source, by_person, model)


def _settle_and_write(
    scope: Scope,
    text: str,
    category: str,
    session_id: str | None,
    source: str,
    by_person: bool,
    model: ChatModel | Judge | None = None,
) -> RememberResult:
    """:func:`remember` once the text is checked: weigh it against memory, then write."""
    agent = scope.agent
    settled = settle(
        scope,
        text,
        source=source,
        by_person=by_person,
        session=session_id,
        category=category,
        model=model,
    )
    if not settled.write:
        return _held(scope, settled)
    text = settled.statement
    with scope.editing() as edit:
        # Read, decide and write under one hold: a concurrent edit is never undone.
        files = EntryFiles(scope, edit)
        result, record = _remember_locked(scope, files, text, category, session_id, by_person)
    if result.action is Action.HELD and result.previous is not None:
        # The entry rules call it a changed value though the judge did not: hold it too.
        wanted = fact_id(" ".join(result.previous.text.split()), scope.prefix)
        old = next(f for f in facts_of(scope) if f.id == wanted)
        item = hold(scope, old, text, "a new value for the same thing", source=source)
        return _held(scope, Settled(Outcome.HELD, text, [old], [item]))
    if settled.outcome is Outcome.CORRECTED:
        old = settled.against[0]
        result = replace(
            result,
            action=Action.SUPERSEDED,
            previous=Entry(old.id, old.statement, old.category),
        )
        record = {
            "action": "superseded",
            "id": old.id,
            "old_text": old.statement,
            "by": result.entry.id if result.entry else None,
            "owner": scope.owner,
            "files": settled.changed,
        }
    record_written(scope, text, source=source, by_person=by_person, session=session_id)
    if record is not None:
        append_log(agent, LOG, record)
        sync_index(agent)
    return result


def _held(scope: Scope, settled: Settled) -> RememberResult:
    ids = [item.id for item in settled.items]
    old = settled.against[0]
    append_log(scope.agent, LOG, {"action": "held", "inbox": ids, "owner": scope.owner})
    reason = (
        f"it contradicts {old.id} ({old.statement}), which stays; "
        f"waiting in `memclaw inbox {scope.agent.id}` as {', '.join(ids)}"
    )
    previous = Entry(old.id, old.statement, old.category)
    return RememberResult(None, Action.HELD, previous, reason, ids)


def _remember_locked(
    scope: Scope,
    files: EntryFiles,
    text: str,
    category: str,
    session_id: str | None,
    by_person: bool = True,
) -> tuple[RememberResult, dict[str, Any] | None]:
    """What :func:`remember` does once the lock is held: the result and its log record."""
    owner = scope.owner
    today = scope.agent.now().date()
    target = file_of(category, session_id)
    visible = {
        rel: entries
        for rel, entries in files.entries.items()
        if not rel.startswith(f"{ENTRIES_DIR}/session-") or rel == target
    }
    for rel, entries in visible.items():
        for index, old in enumerate(entries):
            if restates(text, old.text):
                return _update(scope, files, rel, index, text)
    extra = {"scope": str(scope.visibility)}
    if scope.personal and owner:
        extra["owner"] = owner
    if session_id:
        extra["session"] = session_id
    if not by_person:
        # The facts layer reads the author from here: a model's entry is not the person's word.
        extra["by"] = "model"
    taken = {e.id for entries in files.entries.values() for e in entries}
    entry = Entry(
        _new_id(text, today.isoformat(), category, taken), text, category, today, today, extra
    )
    for entries in visible.values():
        for old in entries:
            if (
                old.category == category
                and supersedes(text, old.text)
                and not _both_hold(old, text)
            ):
                # A changed value that is not an explicit correction never replaces silently.
                return RememberResult(None, Action.HELD, old, "held"), None
    if (older := _older_version(scope, visible, text, by_person)) is not None:
        return _absorb(scope, files, older, entry, target)
    files.save(target, [*files.entries.get(target, []), entry], introduced=text)
    record = {"action": "added", "id": entry.id, "owner": owner, "file": target}
    return RememberResult(entry, Action.ADDED), record


def _both_hold(old: Entry, text: str) -> bool:
    """The facts judge is sure both are true ("likes green tea", "likes dark mode"): the
    entry rule's changed value is then no change, and nothing waits in the inbox for it."""
    from memclaw.facts.conflict import judge

    verdict = judge(old.text, text)
    return verdict.kind == "compatible" and verdict.sure


def _older_version(
    scope: Scope, visible: dict[str, list[Entry]], text: str, by_person: bool
) -> tuple[str, Entry] | None:
    """The entry (and its file) that ``text`` is a newer version of, if any."""
    from memclaw.facts.store import stated_by_person

    found = [(rel, old) for rel, entries in visible.items() for old in entries]
    found = [
        (rel, old)
        for rel, old in found
        if updates(text, old.text) and absorb(text, old.text) is not None
    ]
    if not found:
        return None
    if not by_person:
        # A model's statement never takes over what a person said in their own words.
        ids = {fact_id(" ".join(old.text.split()), scope.prefix) for _, old in found}
        theirs = stated_by_person(scope.agent, ids)
        found = [
            (rel, old)
            for rel, old in found
            if fact_id(" ".join(old.text.split()), scope.prefix) not in theirs
        ]
    return max(found, key=lambda pair: pair[1].sort_date, default=None)


def _absorb(
    scope: Scope, files: EntryFiles, older: tuple[str, Entry], entry: Entry, target: str
) -> tuple[RememberResult, dict[str, Any] | None]:
    """``entry`` takes in what only the older entry said; the older one goes (one change)."""
    rel, old = older
    text = absorb(entry.text, old.text) or entry.text  # checked by _older_version
    extra = {**entry.extra, "absorbed": old.id}
    new = replace(entry, text=text, created=old.created or entry.created, extra=extra)
    files.save(rel, [e for e in files.entries[rel] if e.id != old.id], introduced="")
    files.save(target, [*files.entries.get(target, []), new], introduced=text)
    record = {
        "action": "absorbed",
        "id": new.id,
        "absorbed": old.id,
        "old_text": old.text,
        "owner": scope.owner,
        "file": target,
    }
    return RememberResult(new, Action.UPDATED, old, "a newer version of an entry"), record


def _update(
    scope: Scope, files: EntryFiles, rel: str, index: int, text: str
) -> tuple[RememberResult, dict[str, Any] | None]:
    entries = list(files.entries[rel])
    old = entries[index]
    if " ".join(old.text.split()) == text:
        return RememberResult(old, Action.UNCHANGED, old), None
    # Keep the more complete wording; either way the entry was confirmed today.
    richer = text if len(tokens(text)) > len(tokens(old.text)) else old.text
    entries[index] = replace(old, text=richer, updated=scope.agent.now().date())
    files.save(rel, entries, introduced=richer)
    record = {"action": "updated", "id": old.id, "owner": scope.owner, "old_text": old.text}
    return RememberResult(entries[index], Action.UPDATED, old), record
