"""Memory entries: explicit, addressable facts the user (or the model) asks to keep.

Entries live in ``<scope>/entries/<category>.md`` (session-scoped ones in
``entries/session-<id>.md``) in the format of :mod:`memclaw.workspace.entries`.
``remember`` asks the one judgement first (:func:`memclaw.facts.settle.settle`):
what is already known is not stored again; a newer value or a richer statement
rewrites the fact it replaces, wherever it lives, as one line of both (keeping
what only the older line said); a model's statement that would reword a person's
line waits in the inbox; anything else is a new entry. Reading entries is
:mod:`memclaw.entries.lookup`, forgetting them :mod:`memclaw.entries.forgetting`,
their files :mod:`memclaw.entries.files`.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from memclaw.entries.category import guess_category
from memclaw.entries.files import LOG, EntryFiles, file_of, read_scope, sync_index
from memclaw.errors import SecretDetectedError, UsageError
from memclaw.extract.forgotten import Blocker, forgotten_blocker, record_relearned
from memclaw.facts.candidates import Candidates
from memclaw.facts.ids import fact_id
from memclaw.facts.ledger import group
from memclaw.facts.model import Fact
from memclaw.facts.project import project_scope
from memclaw.facts.settle import Outcome, Settled, record_written, settle
from memclaw.text.likeness import fingerprint
from memclaw.workspace.entries import Entry, categories, fit_category
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


INSTRUCTION = (
    "held back: it reads as an instruction to the assistant, not a fact, and memory would "
    "hand it to every later conversation; a rule of your own: `memclaw remember --force`, "
    "or write it in AGENTS.md"
)
# A fact is a sentence or a short paragraph; longer text is a file's, not one entry's.
MAX_FACT_CHARS = 2000


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
    """Store ``text`` as a memory entry, unless memory already holds it (see the module).

    ``Action.UNCHANGED``: already known. ``Action.UPDATED``: a newer value or a richer
    statement; the fact it replaces now says both (``reason`` says where). ``Action.HELD``:
    a model's statement that would reword a person's line waits in the inbox. A fact
    that was forgotten earlier is skipped unless ``force`` is true. ``source`` and
    ``by_person`` are the evidence recorded (a chat tool is the model's, not the
    person's). ``model`` (see ``memclaw.facts.judge``) judges what the offline rules
    are unsure of; without it the statement is weighed offline.
    Raises SecretDetectedError when ``text`` holds a credential.
    """
    from memclaw.gates import addresses_agent, find_secrets

    text = " ".join(text.split())
    if not text:
        raise UsageError("nothing to remember: give the fact as text")
    if not any(c.isalnum() for c in text):
        raise UsageError(f"{text!r} has no words to remember: give the fact as text")
    if len(text) > MAX_FACT_CHARS:
        raise UsageError(
            f"a memory is one fact, and this is {len(text):,} characters (at most "
            f"{MAX_FACT_CHARS:,}): say it shorter, or keep long text in a file with "
            "`memclaw files write`"
        )
    if found := find_secrets(text):
        raise SecretDetectedError(
            f"refusing to remember: it holds what looks like a secret ({found[0].kind}); "
            "memory must never hold credentials"
        )
    if not force and addresses_agent(text):
        # Memory is injected into every prompt: an instruction to the assistant kept there
        # would be obeyed as if the person had asked (a tool call, a pasted note).
        return RememberResult(None, Action.SKIPPED, reason=INSTRUCTION, blocked=True)
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
    own = file_of(category, session_id) if session_id else None
    settled = settle(
        scope,
        text,
        source=source,
        by_person=by_person,
        session=session_id,
        category=category,
        model=model,
        facts=Candidates(
            f for f in group(scope, project_scope(scope, notes=False)) if _sees(f, own)
        ),
    )
    if settled.outcome is Outcome.HELD:
        return _held(scope, settled)
    old = settled.against[0] if settled.against else None
    previous = Entry(old.id, old.statement, old.category) if old is not None else None
    if settled.outcome is Outcome.RESTATED:
        assert old is not None
        record_written(scope, old.statement, source=source, by_person=by_person, session=session_id)
        return RememberResult(_entry_stating(scope, old.statement), Action.UNCHANGED, previous,
                              f"already known as {old.id}: {old.statement}")  # fmt: skip
    if settled.outcome is Outcome.REPLACED:
        assert old is not None
        append_log(agent, LOG, {"action": "updated", "id": old.id, "old_text": old.statement,
                                "owner": scope.owner, "files": settled.changed})  # fmt: skip
        sync_index(agent)
        where = ", ".join(dict.fromkeys(settled.changed)) or "memory"
        return RememberResult(_entry_stating(scope, settled.merged), Action.UPDATED, previous,
                              f"{settled.reason}; {where} now says: {settled.merged}")  # fmt: skip
    text = settled.statement
    with scope.editing() as edit:
        files = EntryFiles(scope, edit)
        entry = _new_entry(scope, files, text, category, session_id, by_person)
        rel = file_of(category, session_id)
        files.save(rel, [*files.entries.get(rel, []), entry], introduced=text)
    record_written(scope, text, source=source, by_person=by_person, session=session_id)
    append_log(agent, LOG, {"action": "added", "id": entry.id, "owner": scope.owner, "file": rel})
    sync_index(agent)
    return RememberResult(entry, Action.ADDED)


def _sees(fact: Fact, own: str | None) -> bool:
    """Whether a statement for ``own`` session file (None: long-term) is weighed against
    ``fact``: another conversation's short-term memory is not its business."""
    return any(
        not place.path.rsplit("/", 1)[-1].startswith("session-") or place.path.endswith(own or "\0")
        for place in fact.places
    )


def _held(scope: Scope, settled: Settled) -> RememberResult:
    ids = [item.id for item in settled.items]
    old = settled.against[0]
    append_log(scope.agent, LOG, {"action": "held", "inbox": ids, "owner": scope.owner})
    reason = (
        f"{settled.reason}; {old.id} stays ({old.statement}) and the new statement waits in "
        f"`memclaw inbox {scope.agent.id}` as {', '.join(ids)}"
    )
    previous = Entry(old.id, old.statement, old.category)
    return RememberResult(None, Action.HELD, previous, reason, ids)


def _entry_stating(scope: Scope, statement: str) -> Entry | None:
    """The entry whose text is ``statement`` (a fact may live in PROFILE.md instead)."""
    wanted = fact_id(" ".join(statement.split()), scope.prefix)
    for entries in read_scope(scope).values():
        for entry in entries:
            if fact_id(" ".join(entry.text.split()), scope.prefix) == wanted:
                return entry
    return None


def _new_entry(
    scope: Scope,
    files: EntryFiles,
    text: str,
    category: str,
    session_id: str | None,
    by_person: bool,
) -> Entry:
    today = scope.agent.now().date()
    extra = {"scope": str(scope.visibility)}
    if scope.personal and scope.owner:
        extra["owner"] = scope.owner
    if session_id:
        extra["session"] = session_id
    if not by_person:
        # The facts layer reads the author from here: a model's entry is not the person's word.
        extra["by"] = "model"
    taken = {e.id for entries in files.entries.values() for e in entries}
    return Entry(
        _new_id(text, today.isoformat(), category, taken), text, category, today, today, extra
    )
