"""The indexes a search reads, kept open between searches by a long-lived searcher."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from memclaw.index.damage import FileId, IndexDamaged, file_id, is_damage, set_aside
from memclaw.index.fresh import check as fresh
from memclaw.index.layout import Group, groups
from memclaw.index.rank import Filters
from memclaw.index.storage.packs import Reader
from memclaw.index.store import SyncStats, index_path, open_index
from memclaw.workspace.paths import GLOBAL_DIR

if TYPE_CHECKING:
    from memclaw.workspace import Agent, Workspace

_HOLDS = "SELECT rowid FROM blocks_fts WHERE blocks_fts MATCH ? LIMIT 1"


@dataclass
class Source:
    """One open index: an agent's, or the GLOBAL one (``key`` "_global", no agent)."""

    key: str
    conn: sqlite3.Connection
    base: Path
    agent: Agent | None
    opened: FileId | None = None  # the file ``conn`` opened, to heal only that one
    synced: SyncStats | None = None
    _groups: tuple[int, list[Group]] | None = None  # (PRAGMA data_version, groups)
    _reader: tuple[int, Reader] | None = None  # (PRAGMA data_version, reader)

    @property
    def is_global(self) -> bool:
        return self.agent is None

    @contextlib.contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The connection; SQLite's corruption errors under it become ``IndexDamaged``."""
        try:
            yield self.conn
        except sqlite3.DatabaseError as exc:
            if is_damage(exc):
                raise IndexDamaged(self.key, str(exc)) from exc
            raise

    def holds(self, token: str) -> bool:
        """Whether some block of this index holds ``token`` (one indexed word)."""
        quoted = '"' + token.replace('"', '""') + '"'
        with self.reading() as conn:
            return conn.execute(_HOLDS, (quoted,)).fetchone() is not None

    def groups(self, cap: int) -> list[Group]:
        """Id ranges to rank, cached until this or another connection changes the index."""
        with self.reading() as conn:
            version = int(conn.execute("PRAGMA data_version").fetchone()[0])
            if self._groups is None or self._groups[0] != version:
                self._groups = (version, groups(conn, cap))
        return self._groups[1]

    def reader(self) -> Reader:
        """The blocks of this index; the packs read stay unpacked until the index changes."""
        with self.reading() as conn:
            version = int(conn.execute("PRAGMA data_version").fetchone()[0])
            if self._reader is None or self._reader[0] != version:
                self._reader = (version, Reader(conn))
        return self._reader[1]

    def bring_up_to_date(self, now: datetime, sweep_seconds: float) -> SyncStats:
        with self.reading() as conn:
            self.synced = fresh.bring_up_to_date(
                conn, self.base, is_global=self.is_global, now=now, sweep_seconds=sweep_seconds
            )
        if self.synced.dirty or self.synced.rebuilt:
            self._groups = self._reader = None  # our own commits do not move data_version
        return self.synced


class Sources:
    """Open indexes by key; opened on first use, closed together."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._open: dict[str, Source] = {}

    def select(
        self, agents: Sequence[str] | None, filters: Filters, *, bring_up_to_date: bool
    ) -> list[Source]:
        """The indexes ``filters`` can see among ``agents`` (None: all), synced if asked."""
        ws = self.workspace
        chosen: list[Source] = []
        if filters.scope != "global":
            for agent_id in dict.fromkeys(agents or ws.agent_ids()):
                agent = ws.agent(agent_id)
                chosen.append(self._get(agent_id, agent.path, agent))
        if filters.scope in ("all", "global") and ws.global_dir.is_dir():
            chosen.append(self._get(GLOBAL_DIR, ws.global_dir, None))
        if bring_up_to_date:
            now, sweep = ws.clock(), ws.settings.freshness_sweep_seconds
            for src in chosen:
                src.bring_up_to_date(now, sweep)
        return chosen

    def _get(self, key: str, base: Path, agent: Agent | None) -> Source:
        src = self._open.get(key)
        if src is None:
            conn = open_index(base)
            opened = file_id(index_path(base))
            src = self._open[key] = Source(key, conn, base, agent, opened)
        return src

    def path(self, key: str) -> Path:
        return index_path(self._open[key].base)

    def heal(self, damaged: IndexDamaged) -> None:
        """Close the damaged index and move it aside; the next ``select`` rebuilds it."""
        src = self._open.pop(damaged.key)
        src.conn.close()
        set_aside(index_path(src.base), damaged.detail, src.opened)

    def close(self) -> None:
        for src in self._open.values():
            src.conn.close()
        self._open.clear()
