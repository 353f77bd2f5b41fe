"""Feedback from the person: confirm or reject a fact (``facts confirm``, chat ``/good``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memclaw.facts import store
from memclaw.facts.ledger import facts_of, find_fact, group
from memclaw.facts.model import Event, EventKind, Fact
from memclaw.facts.project import project_file
from memclaw.workspace.safeguards import journal

# The kinds of change a rating journals.
CONFIRM, REJECT = "confirm", "reject"

if TYPE_CHECKING:
    from collections.abc import Iterable

    from memclaw.workspace.scope import Scope


def give(scope: Scope, wanted: str, *, good: bool, source: str = "cli") -> Fact:
    """Confirm (``good``) or reject the fact ``wanted`` names; returns it with its new trust."""
    fact = find_fact(scope, wanted)
    _record(scope, [fact.id], good, source)
    return next(f for f in facts_of(scope) if f.id == fact.id)


def _record(
    scope: Scope, ids: list[str], good: bool, source: str, session: str | None = None
) -> None:
    kind = EventKind.CONFIRMED if good else EventKind.REJECTED
    now = scope.agent.now().isoformat(timespec="seconds")
    event = Event(kind, now, source, session)
    # A rating is a change like any other: `undo` right after it takes back the rating,
    # not the remember before it.
    with journal.change(scope.agent, CONFIRM if good else REJECT, prefix=scope.prefix):
        if session is None:
            store.record(scope.agent, ids, event)
        else:
            # One conversation has one opinion of a fact: /good then /bad is a rejection.
            store.record_verdict(scope.agent, ids, event)


def facts_at(scope: Scope, spans: Iterable[tuple[str, int, int]]) -> list[Fact]:
    """The facts living on lines ``first..last`` of the files named (relative to the agent)."""
    wanted: dict[str, list[tuple[int, int]]] = {}
    for path, first, last in spans:
        wanted.setdefault(path, []).append((first, last))
    places = []
    for path, ranges in wanted.items():
        for place in project_file(scope.agent, path):
            if any(lo <= place.line <= hi for lo, hi in ranges):
                places.append(place)
    # A recalled line may be the team's while the chat is an owner's: group what was hit.
    return group(scope, places)


def give_spans(
    scope: Scope,
    spans: Iterable[tuple[str, int, int]],
    *,
    good: bool,
    source: str = "chat",
    session: str | None = None,
) -> list[Fact]:
    """Confirm or reject every fact on the lines given (the memories recalled for an answer).

    Within one ``session`` the last word on a fact replaces the earlier one.
    """
    facts = facts_at(scope, spans)
    _record(scope, [f.id for f in facts], good, source, session)
    return facts_at(scope, spans)
