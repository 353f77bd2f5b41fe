"""SOUL.md evolution: what the agent learned about working with this person.

Every ``soul_update_interval`` newly confirmed facts, the "## Learned" section
of SOUL.md is written again from the preference and rule facts (memory entries
of those categories): by the model when one is configured, asked for short
lines about tone, the answers the person wants and their boundaries; offline,
as the facts themselves. Only that section is ever written, and only while it
still reads what memclaw last wrote there: a person's edit of it (or of any
other part of SOUL.md) is never overwritten. The previous SOUL.md goes to the
history like any rewrite (the change journal keeps it), and the diff waits in
the ledger (``soul.<scope>``) for the next morning card.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memclaw.workspace import ledger
from memclaw.workspace.agent import WriteStrategy
from memclaw.workspace.safeguards import journal
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.sections import section_body

if TYPE_CHECKING:
    from memclaw.llm import ChatModel
    from memclaw.workspace.scope import Scope

SOUL = "SOUL.md"
SECTION = "Learned"
MARK = (
    "<!-- memclaw keeps this section from confirmed preference and rule facts; "
    "edit it and memclaw leaves it alone -->"
)
CATEGORIES = ("preference", "rule")
MAX_LINES = 12


@dataclass(frozen=True)
class SoulResult:
    status: str  # updated, unchanged, hand-edited, waiting
    reason: str
    diff: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "reason": self.reason, "diff": self.diff}


def _state(scope: Scope) -> str:
    """The ledger's document of what this scope's SOUL.md last learned."""
    return f"soul.{scope.label}"


def load_state(scope: Scope) -> dict[str, Any]:
    data = ledger.load(scope.agent.meta_dir, _state(scope))[0]
    return data if isinstance(data, dict) else {}


def _save_state(scope: Scope, state: dict[str, Any]) -> None:
    ledger.save(scope.agent.meta_dir, _state(scope), state)


def confirmed_count(scope: Scope) -> int:
    """How many of the scope's facts the person confirmed (the fact layer's evidence).

    Evidence is kept per agent; only ids of facts living in this scope count, so a
    confirmation in an owner's memory does not move the team's SOUL.md.
    """
    from memclaw.facts.ledger import facts_of
    from memclaw.facts.model import EventKind
    from memclaw.facts.store import load_events

    confirmed = {
        fid
        for fid, events in load_events(scope.agent).items()
        if any(e.kind is EventKind.CONFIRMED for e in events)
    }
    return len(confirmed & {f.id for f in facts_of(scope)})


def learned_facts(scope: Scope) -> list[str]:
    from memclaw.entries.lookup import list_memories

    return [e.text for e in list_memories(scope) if e.category in CATEGORIES][:MAX_LINES]


def _body(scope: Scope, facts: list[str], model: ChatModel | None) -> str:
    lines = facts
    if model is not None:
        answer = model.chat_json(
            [
                {
                    "role": "system",
                    "content": (
                        "You keep the 'Learned' section of an assistant's SOUL.md: short lines "
                        "on how to work with this person (tone, what answers they want, "
                        "boundaries), drawn only from the facts given. Answer JSON: "
                        '{"lines": ["...", ...]} with at most 8 lines.'
                    ),
                },
                {"role": "user", "content": "\n".join(f"- {f}" for f in facts)},
            ],
            required={"lines": list},
            max_tokens=400,
        )
        raw = answer.get("lines")
        if isinstance(raw, list) and raw:
            lines = [" ".join(str(x).split()) for x in raw if str(x).strip()][:MAX_LINES]
    return MARK + "\n\n" + "\n".join(f"- {line}" for line in lines) + "\n"


def evolve(scope: Scope, *, model: ChatModel | None = None, force: bool = False) -> SoulResult:
    """Rewrite SOUL.md's Learned section if enough new facts were confirmed since last time."""
    settings = scope.agent.settings
    state = load_state(scope)
    confirmed = confirmed_count(scope)
    fresh = confirmed - int(state.get("confirmed", 0))
    interval = settings.soul_update_interval
    if not force and (interval == 0 or fresh < interval):
        return SoulResult("waiting", f"{fresh} of {interval} newly confirmed facts")
    facts = learned_facts(scope)
    if not facts:
        return SoulResult("unchanged", "no preference or rule facts to learn from")
    old = scope.read(SOUL)
    current = section_body(old, SECTION)
    if current is not None and journal.sha(current) != state.get("section"):
        state["confirmed"] = confirmed
        _save_state(scope, state)
        return SoulResult(
            "hand-edited", f"the {SECTION} section of {SOUL} was edited by hand; left as it is"
        )
    if model is None and settings.model_configured:
        from memclaw.llm import open_model

        model = open_model(settings)
    body = _body(scope, facts, model)
    with journal.change(scope.agent, "soul", confirmed=confirmed):
        scope.write(SOUL, body, WriteStrategy.REPLACE_SECTION, section=SECTION, author=Author.MODEL)
    new = scope.read(SOUL)
    diff = "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            f"a/{scope.rel(SOUL)}",
            f"b/{scope.rel(SOUL)}",
        )
    )
    written = section_body(new, SECTION)
    state.update(
        {
            "confirmed": confirmed,
            "section": journal.sha(written),
            "diff": diff,
            "shown": False,
            "time": scope.agent.now().isoformat(timespec="seconds"),
        }
    )
    _save_state(scope, state)
    return SoulResult(
        "updated" if new != old else "unchanged",
        f"learned from {len(facts)} preference and rule facts",
        diff,
    )


def pending_diff(scope: Scope) -> str:
    """The SOUL.md diff the morning card has not shown yet ('' when none)."""
    state = load_state(scope)
    return str(state.get("diff", "")) if not state.get("shown") else ""


def mark_shown(scope: Scope) -> None:
    state = load_state(scope)
    if state.get("diff") and not state.get("shown"):
        state["shown"] = True
        _save_state(scope, state)
