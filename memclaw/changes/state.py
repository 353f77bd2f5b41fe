"""Taking back what a change did beside the files: each store reverts its own deltas.

A change notes every write it made to the state beside the memory files (the
fact evidence, the contradiction inbox, who wrote each line) as a delta in the
journal record. Undo hands each delta back to the store that made it, newest
first, under the agent lock it already holds, so files and beliefs move together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memclaw.facts import inbox, store
from memclaw.workspace.safeguards import provenance

if TYPE_CHECKING:
    from collections.abc import Callable

    from memclaw.workspace.agent import Agent

_STORES: dict[str, Callable[[Agent, dict[str, Any]], None]] = {
    store.STORE: store.undo_delta,
    inbox.STORE: inbox.undo_delta,
    provenance.STORE: provenance.undo_delta,
}


def revert_state(agent: Agent, delta: dict[str, Any]) -> None:
    """Revert one noted delta; one from a store this version does not know is left alone."""
    undo = _STORES.get(str(delta.get("store", "")))
    if undo is not None:
        undo(agent, delta)
