"""Confirm, edit and forget a fact: the one door the morning card (and chat) go through.

Confirmations and rejections are evidence about a fact: they are appended to
``.memclaw/logs/feedback.jsonl`` (which ``why`` and SOUL evolution read).
Forget removes every line that states the fact from the scope's memory files,
PROFILE.md, MEMORY.md and the entries, and records its fingerprint so that
extraction never learns it again. Edit rewords those lines in place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memclaw.errors import UsageError
from memclaw.facts.ids import FACT_ID, fact_id
from memclaw.workspace.agent import refuse_secrets
from memclaw.workspace.logs import append_log, read_log
from memclaw.workspace.safeguards import journal

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

FEEDBACK = "feedback"
CONFIRMED = "confirmed"
REJECTED = "rejected"
EDITED = "edited"
FORGOTTEN = "forgotten"
# Where a fact a card names can live and be reworded or removed: memory, not history.
MEMORY_FILES = ("MEMORY.md", "PROFILE.md")


@dataclass(frozen=True)
class Outcome:
    fact: str
    action: str
    files: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"fact": self.fact, "action": self.action, "files": self.files}


def resolve_id(scope: Scope, wanted: str) -> str:
    """A fact id as given, or the id of the statement given as text."""
    wanted = wanted.strip()
    if not wanted:
        raise UsageError("name a fact: its id (f1a2b3c4) or its text")
    return wanted if FACT_ID.match(wanted) else fact_id(wanted, scope.prefix)


def _files(scope: Scope) -> list[str]:
    return list(MEMORY_FILES)


def _entries_stating(scope: Scope, fid: str) -> list[str]:
    from memclaw.entries.memories import list_memories

    return [e.id for e in list_memories(scope) if fact_id(e.text, scope.prefix) == fid]


def confirm(scope: Scope, wanted: str, *, good: bool = True, source: str = "card") -> Outcome:
    """Record that the person confirmed (or rejected) the fact: evidence for its trust."""
    fid = resolve_id(scope, wanted)
    action = CONFIRMED if good else REJECTED
    append_log(
        scope.agent,
        FEEDBACK,
        {"fact": fid, "action": action, "source": source, **scope.log_fields()},
    )
    return Outcome(fid, action, [])


def confirmations(scope: Scope) -> list[dict[str, Any]]:
    """Every confirmation and rejection of this scope's facts, oldest first."""
    return [r for r in read_log(scope.agent, FEEDBACK) if r.get("owner") == scope.owner]


def _rewrite(scope: Scope, fid: str, new_line: str | None, kind: str) -> list[str]:
    """Replace (or with None remove) every line stating ``fid``; one journalled change."""
    touched = []
    with journal.change(scope.agent, kind, fact=fid), scope.editing() as edit:
        for name in _files(scope):
            old = edit.read_existing(name)
            if old is None:
                continue
            lines = old.splitlines(keepends=True)
            kept = []
            for line in lines:
                if (
                    line.strip()
                    and not line.lstrip().startswith("#")
                    and (fact_id(line, scope.prefix) == fid)
                ):
                    if new_line is not None:
                        marker = line[: len(line) - len(line.lstrip())]
                        bullet = "- " if line.lstrip().startswith(("- ", "* ")) else ""
                        kept.append(f"{marker}{bullet}{new_line}\n")
                    continue
                kept.append(line)
            new = "".join(kept)
            if new != old:
                edit.put(name, old, new, introduced=new_line or "")
                touched.append(scope.rel(name))
    return touched


def _states(line: str, prefix: str, fid: str) -> bool:
    """Whether ``line`` is a memory line (not blank, not a heading) stating ``fid``."""
    return (
        bool(line.strip()) and not line.lstrip().startswith("#") and (fact_id(line, prefix) == fid)
    )


def forget(scope: Scope, wanted: str) -> Outcome:
    """Remove the fact from the scope's memory files and never learn it again."""
    from memclaw.extract.forgotten import record_forgotten

    fid = resolve_id(scope, wanted)
    statement = statement_of(scope, fid)
    from memclaw.entries.memories import forget as forget_entry

    with journal.change(scope.agent, "forget", fact=fid):
        touched = _rewrite(scope, fid, None, "forget")
        for entry_id in _entries_stating(scope, fid):
            touched += [f"entry {e.id}" for e in forget_entry(scope, id=entry_id)]
    if not touched:
        raise UsageError(f"no line of {scope.agent.id}'s memory states {wanted!r}")
    if statement:
        record_forgotten(scope, statement, entry_id=fid)
    append_log(
        scope.agent,
        FEEDBACK,
        {"fact": fid, "action": FORGOTTEN, "source": "card", **scope.log_fields()},
    )
    return Outcome(fid, FORGOTTEN, touched)


def edit(scope: Scope, wanted: str, new_text: str) -> Outcome:
    """Reword the fact where it lives; the new wording counts as confirmed by the person."""
    new_text = " ".join(new_text.split())
    if not new_text:
        raise UsageError("the new wording is empty; use forget to remove a fact")
    refuse_secrets(new_text, "the new wording")
    fid = resolve_id(scope, wanted)
    touched = _rewrite(scope, fid, new_text, "edit")
    if not touched:
        raise UsageError(f"no line of {scope.agent.id}'s memory states {wanted!r}")
    confirm(scope, new_text, source="card-edit")
    return Outcome(fact_id(new_text, scope.prefix), EDITED, touched)


def statement_of(scope: Scope, fid: str) -> str | None:
    """The text of the first memory line stating ``fid``, if any."""
    for name in _files(scope):
        for line in scope.read(name).splitlines():
            if _states(line, scope.prefix, fid):
                return line.strip().lstrip("-* ").strip()
    return None
