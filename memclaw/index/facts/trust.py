"""Reading the facts table: a fact's trust by (file, line) or id, for the search ranker.

The table says where facts live; their trust comes from the evidence beside
the files, computed with the workspace clock when the lookup is made (one
lookup per search: loading it costs one query and one small JSON file).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from memclaw.facts.model import Kind, Place
from memclaw.facts.store import load_events
from memclaw.facts.trust import assess

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent


@dataclass(frozen=True)
class TrustLookup:
    """Trust of every indexed fact of one agent, at the moment the lookup was made."""

    by_id: dict[str, float] = field(default_factory=dict)
    by_line: dict[tuple[str, int], list[str]] = field(default_factory=dict)

    def of(self, fact: str) -> float | None:
        return self.by_id.get(fact)

    def at(self, path: str, line: int, end_line: int | None = None) -> float | None:
        """Mean trust of the facts on lines ``line..end_line`` of ``path``; None: no fact there."""
        found = [
            self.by_id[fid]
            for number in range(line, (end_line or line) + 1)
            for fid in self.by_line.get((path, number), ())
        ]
        return sum(found) / len(found) if found else None

    def __bool__(self) -> bool:
        return bool(self.by_id)


def indexed_facts(conn: sqlite3.Connection) -> list[Place]:
    """Every row of the facts table as a place (empty when the table does not exist yet)."""
    try:
        rows = conn.execute(
            "SELECT f.fact, f.statement, files.path, f.line, f.kind, f.category, f.day, f.author "
            "FROM facts AS f JOIN files ON files.id = f.file_id ORDER BY files.path, f.line"
        ).fetchall()
    except sqlite3.OperationalError:
        return []
    return [
        Place(
            r[0],
            r[1],
            r[2],
            int(r[3]),
            Kind(r[4]),
            r[5],
            date.fromisoformat(r[6]) if r[6] else None,
            r[7],
        )
        for r in rows
    ]


def trust_lookup(agent: Agent) -> TrustLookup:
    """Sync the agent's index and compute every fact's trust now."""
    from memclaw.index import sync_agent
    from memclaw.index.store import with_index

    sync_agent(agent)
    places = with_index(agent.path, indexed_facts)
    events = load_events(agent)
    grouped: dict[str, list[Place]] = {}
    for place in places:
        grouped.setdefault(place.fact, []).append(place)
    now, half_life = agent.now(), agent.settings.trust_half_life_days
    lookup = TrustLookup()
    for fid, found in grouped.items():
        lookup.by_id[fid] = assess(found, events.get(fid, ()), now, half_life).trust
        for place in found:
            lookup.by_line.setdefault((place.path, place.line), []).append(fid)
    return lookup
