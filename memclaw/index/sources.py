"""The indexes a search reads, kept open between searches by a long-lived searcher."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from memclaw.errors import UnsafePathError, storage_refusal
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


def _refused(exc: OSError | sqlite3.OperationalError) -> str:
    """What the machine refused, or ``exc`` again when it is not such a refusal."""
    refusal = storage_refusal(exc)
    if refusal is None:
        raise exc
    return refusal.refused


def _read_only(path: Path, exc: OSError | sqlite3.OperationalError) -> sqlite3.Connection:
    """The index opened only to read, when the machine refuses to let it be written (a
    full disk, a read-only root): a search answers from what it holds."""
    refused = _refused(exc)
    if not path.is_file():
        raise exc
    # A WAL file is read through its shared-memory file; where even that cannot be made,
    # the main file alone is read as it stands (immutable).
    for mode in ("mode=ro", "immutable=1"):
        try:
            conn = sqlite3.connect(f"{path.as_uri()}?{mode}", uri=True, check_same_thread=False)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error:
            continue
        _say_stale(refused)
        return conn
    raise exc


def _answer_from_what_is_there(
    conn: sqlite3.Connection, exc: OSError | sqlite3.OperationalError
) -> None:
    refused = _refused(exc)
    if conn.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
    _say_stale(refused)


def _say_passed_over(exc: UnsafePathError) -> None:
    import logging

    logging.getLogger("memclaw.index").warning("not searched: %s", exc)


def _say_stale(refused: str) -> None:
    import logging

    logging.getLogger("memclaw.index").warning(
        "searched the index as it was: it could not be brought up to date (%s)", refused
    )


@dataclass
class Source:
    """One open index: an agent's, or the GLOBAL one (``key`` "_global", no agent)."""

    key: str
    conn: sqlite3.Connection
    base: Path
    agent: Agent | None
    opened: FileId | None = None  # the file ``conn`` opened, to heal only that one
    synced: SyncStats | None = None
    read_only: bool = False  # the machine refused to let it be written: it answers as it is
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
                try:
                    agent = ws.agent(agent_id)
                except UnsafePathError as exc:
                    if agents:
                        raise  # named: its problem is the answer
                    # Searching every agent, one whose records would leave its folder is
                    # passed over (and said), not the end of the search.
                    _say_passed_over(exc)
                    continue
                chosen.append(self._get(agent_id, agent.path, agent))
        if filters.scope in ("all", "global") and ws.global_dir.is_dir():
            chosen.append(self._get(GLOBAL_DIR, ws.global_dir, None))
        if bring_up_to_date:
            now, sweep = ws.clock(), ws.settings.freshness_sweep_seconds
            for src in (src for src in chosen if not src.read_only):
                try:
                    src.bring_up_to_date(now, sweep)
                except (OSError, sqlite3.OperationalError) as exc:
                    _answer_from_what_is_there(src.conn, exc)
        return chosen

    def _get(self, key: str, base: Path, agent: Agent | None) -> Source:
        src = self._open.get(key)
        if src is None:
            path, read_only = index_path(base), False
            try:
                conn = open_index(base)
            except (OSError, sqlite3.OperationalError) as exc:
                conn, read_only = _read_only(path, exc), True
            opened = file_id(path)
            src = self._open[key] = Source(key, conn, base, agent, opened, read_only=read_only)
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
