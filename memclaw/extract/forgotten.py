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
    from memclaw.workspace.scope import Scope

LOG = "forgotten"


def _label(scope: Scope) -> str:
    # The records name a scope by its folder (older logs too), 'team' for the shared one.
    return scope.prefix or "team"


def record_forgotten(scope: Scope, text: str, *, entry_id: str) -> None:
    append_log(
        scope.agent,
        LOG,
        {
            "action": "forget",
            "id": entry_id,
            "scope": _label(scope),
            "fingerprint": fingerprint(text),
        },
    )


def record_relearned(scope: Scope, text: str) -> None:
    """The user explicitly asked to remember a forgotten fact again."""
    append_log(
        scope.agent,
        LOG,
        {"action": "relearn", "scope": _label(scope), "fingerprint": fingerprint(text)},
    )


def same_fact(forgot: list[str], candidate: list[str]) -> bool:
    if not forgot or not candidate:
        return False
    if jaccard(forgot, candidate) >= 0.6:
        return True
    # A longer restatement of the forgotten fact ("... because of speed") is the same fact.
    return containment(forgot, candidate) >= 0.85 and len(candidate) <= 2 * len(forgot) + 2


def forgotten_fingerprints(scope: Scope) -> list[list[str]]:
    label = _label(scope)
    active: list[list[str]] = []
    for record in read_log(scope.agent, LOG):
        if record.get("scope") != label or not isinstance(record.get("fingerprint"), list):
            continue
        prints = [str(token) for token in record["fingerprint"]]
        if record.get("action") == "relearn":
            active = [f for f in active if not same_fact(f, prints)]
        else:
            active.append(prints)
    return active


def forgotten_checker(scope: Scope) -> Callable[[str], bool]:
    """A predicate: True when ``text`` restates something forgotten in this scope."""
    prints = forgotten_fingerprints(scope)

    def check(text: str) -> bool:
        if not prints:
            return False
        candidate = fingerprint(text)
        return any(same_fact(f, candidate) for f in prints)

    return check
