"""The facts of a scope as a reader sees them: grouped places, evidence and trust now."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from datetime import date
from typing import TYPE_CHECKING

from memclaw.errors import UsageError, WorkspaceError
from memclaw.facts.ids import FACT_ID
from memclaw.facts.model import EventKind, Fact, Place
from memclaw.facts.project import project_scope, subject_of
from memclaw.facts.store import load_events
from memclaw.facts.trust import assess
from memclaw.text.likeness import containment, tokens
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope


def group(scope: Scope, places: Iterable[Place]) -> list[Fact]:
    """Places grouped into facts (first place first), with evidence and trust at the clock's now."""
    agent = scope.agent
    now, half_life = agent.now(), agent.settings.trust_half_life_days
    events = load_events(agent)
    by_id: dict[str, list[Place]] = {}
    for place in places:
        by_id.setdefault(place.fact, []).append(place)
    facts = []
    for fid, found in by_id.items():
        # Where it is memory (not only a note), that wording and category speak for it.
        main = next((p for p in found if p.kind.durable), found[0])
        evs = events.get(fid, ())
        judged = assess(found, evs, now, half_life)
        facts.append(
            Fact(
                fid,
                main.statement,
                subject_of(main.statement),
                main.category,
                scope.label,
                tuple(found),
                evs,
                judged.trust,
                judged.age_days,
                judged.source,
                judged.since,
            )
        )
    return facts


def facts_of(scope: Scope, *, durable_only: bool = False) -> list[Fact]:
    """Every fact of the scope's folder, in file order."""
    facts = group(scope, project_scope(scope))
    return [f for f in facts if f.durable] if durable_only else facts


def find_fact(scope: Scope, wanted: str) -> Fact:
    """The one fact ``wanted`` names: its id, or words that match exactly one fact."""
    facts = facts_of(scope)
    wanted = wanted.strip()
    if FACT_ID.fullmatch(wanted):
        for fact in facts:
            if fact.id == wanted:
                return fact
        raise WorkspaceError(
            f"no fact {wanted} in {scope.agent.id}; `memclaw facts {scope.agent.id}` lists them"
        )
    words = tokens(wanted)
    if not words:
        raise UsageError("give a fact id (f1a2b3c4d) or words from the fact")
    scored = sorted(
        ((containment(words, tokens(f.statement)), f) for f in facts), key=lambda p: -p[0]
    )
    best = [f for score, f in scored if score >= 0.8 and score == scored[0][0]]
    if not best:
        raise WorkspaceError(
            f"no fact matches {wanted!r}; `memclaw facts {scope.agent.id}` lists them"
        )
    if len(best) > 1:
        shown = "; ".join(f"{f.id} {f.statement}" for f in best[:5])
        raise UsageError(f"{plural(len(best), 'fact')} match {wanted!r}: {shown}; give the id")
    return best[0]


def list_facts(
    scope: Scope, *, below: float | None = None, lowest_first: bool = False
) -> list[Fact]:
    """The scope's facts (under ``below`` trust only, when given), lowest first on request."""
    facts = facts_of(scope)
    if below is not None:
        facts = [f for f in facts if f.trust < below]
    if lowest_first or below is not None:
        facts.sort(key=lambda f: (f.trust, f.statement.casefold()))
    return facts


def known_facts(
    scopes: Iterable[Scope], query: str | None = None, *, min_trust: float | None = None
) -> list[dict[str, object]]:
    """What an agent may ask it knows: facts of ``scopes`` with trust, category and places.

    ``query`` keeps the facts holding all its words; ``min_trust`` those at or
    above it. Most trusted first, so a short list shows what memory is surest of.
    """
    wanted = tokens(query) if query else None
    kept = [
        fact
        for scope in scopes
        for fact in facts_of(scope)
        if not fact.superseded
        and not (wanted and containment(wanted, tokens(fact.statement)) < 1)
        and (min_trust is None or fact.trust >= min_trust)
    ]
    kept.sort(key=lambda f: -f.trust)
    return [
        {
            "id": f.id,
            "statement": f.statement,
            "trust": round(f.trust, 2),
            "category": f.category,
            "scope": f.scope,
            "where": f.where(),
        }
        for f in kept
    ]


def established_lines(scope: Scope, name: str, text: str) -> frozenset[str]:
    """Line keys (``provenance.line_key``) of ``text``'s lines that state an established fact.

    Only asked when ``text`` is over the ceiling of ``name`` (nothing to rank otherwise).

    A line says an established fact in its words or in close rewording (a model
    rewriting the file rewords what it keeps) with the same values (dates,
    numbers); see ``trust.established``.
    """
    from memclaw.facts.trust import established
    from memclaw.text.likeness import is_value, jaccard
    from memclaw.workspace.safeguards.provenance import line_key

    def values(words: frozenset[str]) -> frozenset[str]:
        return frozenset(w for w in words if is_value(w))

    ceiling = scope.agent.ceiling_of(name)
    if not ceiling or len(text) <= ceiling:
        return frozenset()
    settled = [tokens(f.statement) for f in facts_of(scope) if established(f.places, f.events)]
    if not settled:
        return frozenset()
    return frozenset(
        line_key(line)
        for line in text.splitlines()
        if (words := tokens(line))
        and any(jaccard(words, k) >= 0.5 and values(words) == values(k) for k in settled)
    )


def retention(scope: Scope, fact: Fact) -> tuple[bool, bool]:
    """(expired, immutable) for ``fact`` under the ``retention`` setting of its category."""
    from memclaw.facts.trust import category_of, expired
    from memclaw.workspace.entries import categories

    settings = scope.agent.settings
    if not settings.retention:
        return False, False
    category = category_of(fact.category, list(categories(settings)))
    if settings.immutable(category):
        return False, True
    return expired(said_age(scope, fact), settings.ttl_days(category)), False


def said_age(scope: Scope, fact: Fact) -> float:
    """Days since ``fact`` was last stated, restated or confirmed: the age retention counts.

    From its evidence when there is any: a memory file's date is only its last write,
    which any rewrite of the file moves.
    """
    said = [e.time[:10] for e in fact.events if e.kind in _SAID]
    if said:
        with contextlib.suppress(ValueError):  # an unreadable time: the places' age stands
            return (scope.agent.now().date() - date.fromisoformat(max(said))).days
    return fact.age_days


_SAID = (EventKind.STATED, EventKind.INFERRED, EventKind.CONFIRMED)
