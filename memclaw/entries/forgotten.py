"""What the user asked to forget, so that it is not learned again.

Only a fingerprint is kept (hashed normalised tokens in
``.memclaw/logs/forgotten.jsonl``): enough to recognise the same fact when
an extraction or a ``remember`` brings it back, not enough to read it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from memclaw.text.likeness import containment, fingerprint, jaccard
from memclaw.workspace.logs import append_log, read_log

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent

LOG = "forgotten"


def _scope(agent: Agent, owner: str | None) -> str:
    return agent.owner_prefix(owner) or "team"


def record_forgotten(agent: Agent, text: str, *, entry_id: str, owner: str | None) -> None:
    append_log(
        agent,
        LOG,
        {
            "action": "forget",
            "id": entry_id,
            "scope": _scope(agent, owner),
            "fingerprint": fingerprint(text),
        },
    )


def record_relearned(agent: Agent, text: str, *, owner: str | None) -> None:
    """The user explicitly asked to remember a forgotten fact again."""
    append_log(
        agent,
        LOG,
        {"action": "relearn", "scope": _scope(agent, owner), "fingerprint": fingerprint(text)},
    )


def same_fact(forgot: list[str], candidate: list[str]) -> bool:
    if not forgot or not candidate:
        return False
    if jaccard(forgot, candidate) >= 0.6:
        return True
    # A longer restatement of the forgotten fact ("... because of speed") is the same fact.
    return containment(forgot, candidate) >= 0.85 and len(candidate) <= 2 * len(forgot) + 2


def forgotten_fingerprints(agent: Agent, owner: str | None) -> list[list[str]]:
    scope = _scope(agent, owner)
    active: list[list[str]] = []
    for record in read_log(agent, LOG):
        if record.get("scope") != scope or not isinstance(record.get("fingerprint"), list):
            continue
        prints = [str(token) for token in record["fingerprint"]]
        if record.get("action") == "relearn":
            active = [f for f in active if not same_fact(f, prints)]
        else:
            active.append(prints)
    return active


def forgotten_checker(agent: Agent, owner: str | None) -> Callable[[str], bool]:
    """A predicate: True when ``text`` restates something forgotten in this scope."""
    prints = forgotten_fingerprints(agent, owner)

    def check(text: str) -> bool:
        if not prints:
            return False
        candidate = fingerprint(text)
        return any(same_fact(f, candidate) for f in prints)

    return check
