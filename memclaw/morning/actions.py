"""Confirm, edit and forget a fact: the one door the morning card goes through.

Each action goes through the fact layer, so the card and ``memclaw facts`` see
one truth: Confirm is feedback (:func:`memclaw.facts.feedback.give`), evidence
that raises the fact's trust; Forget is forget everywhere
(:func:`memclaw.erasure.apply_forget`): every copy, the index, the evidence,
and a fingerprint so extraction never learns it again. Edit rewords the line
where it lives (a journalled, undoable change) and records the new wording as
stated by the person, the old one as superseded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memclaw.errors import UsageError
from memclaw.facts import store
from memclaw.facts.ids import FACT_ID, fact_id
from memclaw.facts.model import Event, EventKind
from memclaw.workspace.safeguards import journal
from memclaw.workspace.safeguards.no_secrets import refuse_secrets

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

CONFIRMED = "confirmed"
REJECTED = "rejected"
EDITED = "edited"
FORGOTTEN = "forgotten"
# Where a fact a card names can be reworded: memory, not history.
MEMORY_FILES = ("MEMORY.md", "PROFILE.md")


@dataclass(frozen=True)
class Outcome:
    fact: str
    action: str
    files: list[str]
    note: str = ""  # e.g. what a forget did in Mem0

    def to_dict(self) -> dict[str, Any]:
        found = {"fact": self.fact, "action": self.action, "files": self.files}
        return {**found, "note": self.note} if self.note else found


def resolve_id(scope: Scope, wanted: str) -> str:
    """A fact id as given, or the id of the statement given as text."""
    wanted = wanted.strip()
    if not wanted:
        raise UsageError("name a fact: its id (f1a2b3c4d) or its text")
    return wanted if FACT_ID.match(wanted) else fact_id(wanted, scope.prefix)


def confirm(scope: Scope, wanted: str, *, good: bool = True, source: str = "card") -> Outcome:
    """Confirm (or reject) the fact: evidence for its trust, as ``memclaw facts confirm``."""
    from memclaw.facts.feedback import give

    fact = give(scope, wanted, good=good, source=source)
    return Outcome(fact.id, CONFIRMED if good else REJECTED, [])


def forget(scope: Scope, wanted: str) -> Outcome:
    """Forget the fact everywhere the scope keeps it, and never learn it again."""
    from memclaw.erasure import apply_forget, plan_forget

    fid = resolve_id(scope, wanted)
    plan = apply_forget(plan_forget(scope, fid))
    note = plan.mem0.line(scope.agent.id) if plan.mem0 is not None else ""
    return Outcome(fid, FORGOTTEN, [p.shown for p in plan.places], note)


def _rewrite(scope: Scope, fid: str, new_line: str) -> list[str]:
    """Replace every memory line stating ``fid`` with ``new_line``; one journalled change."""
    touched = []
    with journal.change(scope.agent, "edit", fact=fid), scope.editing() as edit:
        for name in MEMORY_FILES:
            old = edit.read_existing(name)
            if old is None:
                continue
            kept = []
            for line in old.splitlines(keepends=True):
                if _states(line, scope.prefix, fid):
                    marker = line[: len(line) - len(line.lstrip())]
                    bullet = "- " if line.lstrip().startswith(("- ", "* ")) else ""
                    kept.append(f"{marker}{bullet}{new_line}\n")
                    continue
                kept.append(line)
            new = "".join(kept)
            if new != old:
                edit.put(name, old, new, introduced=new_line)
                touched.append(scope.rel(name))
    return touched


def _states(line: str, prefix: str, fid: str) -> bool:
    """Whether ``line`` is a memory line (not blank, not a heading) stating ``fid``."""
    return (
        bool(line.strip()) and not line.lstrip().startswith("#") and (fact_id(line, prefix) == fid)
    )


def edit(scope: Scope, wanted: str, new_text: str) -> Outcome:
    """Reword the fact where it lives; the new wording is stated by the person."""
    new_text = " ".join(new_text.split())
    if not new_text:
        raise UsageError("the new wording is empty; use forget to remove a fact")
    refuse_secrets(new_text, "the new wording")
    fid = resolve_id(scope, wanted)
    touched = _rewrite(scope, fid, new_text)
    if not touched:
        raise UsageError(f"no line of {scope.agent.id}'s memory states {wanted!r}")
    new_id = fact_id(new_text, scope.prefix)
    now = scope.agent.now().isoformat(timespec="seconds")
    if new_id != fid:
        # The old wording was corrected: a daily note still saying it must not bring it back.
        store.record(scope.agent, [fid], Event(EventKind.SUPERSEDED, now, "card-edit"))
    store.record(scope.agent, [new_id], Event(EventKind.STATED, now, "card-edit"))
    return Outcome(new_id, EDITED, touched)
