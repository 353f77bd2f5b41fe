"""What the browser shows and does, without any Textual: plain data in, plain data out.

Keeping it apart from the widgets means every read and every action the
browser offers is one library call that tests can check on real files, and
the app only lays out and routes keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from memclaw.changes.timeline import timeline
from memclaw.erasure import apply_forget, plan_forget
from memclaw.facts import feedback, inbox
from memclaw.facts.ledger import list_facts
from memclaw.facts.resolve import resolve
from memclaw.index.search import search

if TYPE_CHECKING:
    from memclaw.changes.timeline import Event
    from memclaw.erasure import ForgetPlan
    from memclaw.facts.model import Fact
    from memclaw.facts.resolve import Resolution
    from memclaw.index.rank import Hit
    from memclaw.workspace.scope import Scope

# Search as you type stays cheap: a handful of hits, no recall log for keystrokes.
SEARCH_LIMIT = 20


@dataclass(frozen=True)
class FileRow:
    name: str
    size: int
    injected: bool


class Source:
    """One scope's memory, as the browser's panes need it."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    @property
    def title(self) -> str:
        owner = f" · {self.scope.owner}" if self.scope.owner else ""
        return f"memclaw · {self.scope.agent.id}{owner}"

    def files(self) -> list[FileRow]:
        return [FileRow(f.name, f.size, f.enabled) for f in self.scope.list_files()]

    def read(self, name: str) -> str:
        return self.scope.read(name)

    def search(self, query: str) -> list[Hit]:
        if not query.strip():
            return []
        return search(
            self.scope.agent.workspace,
            query,
            agents=[self.scope.agent.id],
            owner=self.scope.owner,
            limit=SEARCH_LIMIT,
            log=False,
        )

    # --- facts and the inbox: the fact layer's own calls, as `memclaw facts` and `inbox` make

    def facts(self) -> list[Fact]:
        """The scope's facts, lowest trust first: what most needs a look. Facts that live
        only in daily notes are listed too, as `memclaw facts` lists them."""
        return list_facts(self.scope, lowest_first=True)

    def place_of(self, fact_id: str) -> tuple[str, int] | None:
        """Where to edit a fact: its first copy's file (relative to the scope) and line."""
        fact = next((f for f in self.facts() if f.id == fact_id), None)
        if fact is None or not fact.places:
            return None
        place = fact.places[0]
        return place.path.removeprefix(self.scope.prefix), place.line

    def confirm(self, fact_id: str) -> Fact:
        return feedback.give(self.scope, fact_id, good=True, source="browse")

    def reject(self, fact_id: str) -> Fact:
        return feedback.give(self.scope, fact_id, good=False, source="browse")

    def forget(self, fact_id: str) -> ForgetPlan:
        return apply_forget(plan_forget(self.scope, fact_id))

    def inbox(self) -> list[inbox.Item]:
        return inbox.open_items(self.scope.agent, self.scope.prefix)

    def resolve(self, item_id: str, keep: str) -> Resolution:
        return resolve(self.scope, item_id, keep)

    def timeline(self) -> list[Event]:
        """Every memory event of the scope, newest first, each with its diff."""
        return timeline(self.scope)
