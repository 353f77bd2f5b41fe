"""Notice edits to memory files made by people and other programs.

``WorkspaceWatcher`` wraps a watchdog observer: it collects the markdown
paths touched under some folders and, once nothing has happened for the
debounce time, hands them to a callback in one batch. Editors that save by
writing a temporary file and renaming it over the original show up as a
change of the original; hidden files and ``.memclaw/`` are ignored.

``run_watch`` is what ``memclaw watch`` runs: it re-indexes whatever changed.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from memclaw.errors import MemclawError
from memclaw.index.fresh.marker import HEARTBEAT_S, beat, clear
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.index import SyncStats
    from memclaw.workspace import Workspace

_log = logging.getLogger("memclaw.index.watch")
OnChange = Callable[[set[Path]], None]


def is_relevant(path: Path, base: Path, is_directory: bool = False) -> bool:
    """A markdown file (or folder) under ``base`` with no hidden part in its relative path."""
    try:
        rel = path.relative_to(base)
    except ValueError:
        return False
    if any(part.startswith(".") for part in rel.parts):
        return False
    return is_directory or path.suffix == ".md"


class WorkspaceWatcher:
    """Calls ``on_change(paths)`` after ``debounce_ms`` of quiet following any edit."""

    def __init__(
        self, folders: Iterable[Path], on_change: OnChange, *, debounce_ms: int = 300
    ) -> None:
        self.folders = [Path(f).absolute() for f in folders]
        self.on_change = on_change
        self.debounce = max(debounce_ms, 0) / 1000.0
        self._pending: set[Path] = set()
        self._last = 0.0
        self._cond = threading.Condition()
        self._stopping = False
        self._observer: Any = None
        self._worker: threading.Thread | None = None

    def start(self) -> None:
        from watchdog.events import FileSystemEventHandler
        from watchdog.observers import Observer

        watcher = self

        class Handler(FileSystemEventHandler):
            def __init__(self, base: Path) -> None:
                self.base = base

            def on_any_event(self, event: Any) -> None:
                if event.event_type in ("opened", "closed_no_write"):
                    return
                if event.is_directory and event.event_type in ("modified", "created"):
                    return  # the files inside report their own changes
                paths = [event.src_path, getattr(event, "dest_path", "") or ""]
                watcher._note(self.base, [p for p in paths if p], bool(event.is_directory))

        self._observer = Observer()
        for folder in self.folders:
            folder.mkdir(parents=True, exist_ok=True)
            self._observer.schedule(Handler(folder), str(folder), recursive=True)
        self._worker = threading.Thread(target=self._run, name="memclaw-watch", daemon=True)
        self._worker.start()
        self._observer.start()

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
        if self._worker is not None:
            self._worker.join(timeout=5)

    def __enter__(self) -> WorkspaceWatcher:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _note(self, base: Path, raw_paths: Sequence[str | bytes], is_directory: bool) -> None:
        paths = []
        for raw in raw_paths:
            path = Path(raw.decode() if isinstance(raw, bytes) else raw)
            if is_relevant(path, base, is_directory):
                paths.append(path)
        if not paths:
            return
        with self._cond:
            self._pending.update(paths)
            self._last = time.monotonic()
            self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._stopping:
                    self._cond.wait()
                if self._stopping:
                    return
                quiet = time.monotonic() - self._last
                if quiet < self.debounce:
                    self._cond.wait(self.debounce - quiet)
                    continue
                batch, self._pending = self._pending, set()
            try:
                self.on_change(batch)
            except MemclawError as exc:
                _log.warning("could not process changes: %s", exc)


def run_watch(
    workspace: Workspace,
    agents: Sequence[str] | None,
    *,
    report: Callable[[str], None],
    stop: threading.Event | None = None,
) -> None:
    """Re-index agents (all, and GLOBAL, when ``agents`` is None) as their files change."""
    from memclaw.index import sync_agent, sync_global

    def resync(name: str) -> SyncStats | None:
        if name == workspace.global_dir.name:
            return sync_global(workspace)
        try:
            return sync_agent(workspace.agent(name))
        except MemclawError:  # not an agent folder (or one that was just removed)
            return None

    names = list(agents) if agents else [*workspace.agent_ids(), workspace.global_dir.name]
    for name in names:
        if name != workspace.global_dir.name:
            workspace.agent(name)  # fail early on a typo
        result = resync(name)
        if result is not None and (result.files or name in (agents or ())):
            report(f"indexed {name}: {plural(result.files, 'file')}")

    def on_change(paths: set[Path]) -> None:
        touched: dict[str, list[str]] = {}
        for path in sorted(paths):
            rel = path.relative_to(workspace.root)
            if rel.parts and (agents is None or rel.parts[0] in names):
                touched.setdefault(rel.parts[0], []).append(rel.as_posix())
        for name, rels in touched.items():
            report(f"changed: {', '.join(rels)}")
            try:
                result = resync(name)
            except (sqlite3.Error, OSError) as exc:  # keep watching; the next change retries
                report(f"could not re-index {name}: {exc}")
                continue
            if result is not None:
                report(_describe(name, result))

    folders = [workspace.root] if agents is None else [workspace.root / n for n in names]
    workspace.root.mkdir(parents=True, exist_ok=True)
    debounce = workspace.settings.watch_debounce_ms
    sweep = workspace.settings.freshness_sweep_seconds
    bases = [workspace.root / n for n in names if (workspace.root / n).is_dir()]
    with WorkspaceWatcher(folders, on_change, debounce_ms=debounce):
        beaten = swept = time.monotonic()
        for base in bases:
            beat(base)  # searches of these indexes now trust this watcher (fresh/marker.py)
        report(f"watching {workspace.root} (Ctrl-C to stop)")
        try:
            while not (stop and stop.wait(0.2)):
                if stop is None:
                    time.sleep(0.2)
                if time.monotonic() - beaten >= HEARTBEAT_S:
                    beaten = time.monotonic()
                    for base in bases:
                        beat(base)
                if sweep and time.monotonic() - swept >= sweep:
                    # An event the file system dropped (queue overflow) is caught here.
                    swept = time.monotonic()
                    for name in names:
                        with contextlib.suppress(sqlite3.Error, OSError):
                            resync(name)
        except KeyboardInterrupt:
            report("stopped")
        finally:
            for base in bases:
                clear(base)


def _describe(name: str, result: SyncStats) -> str:
    parts = [f"{name}/{rel}" for rel in result.changed]
    gone = [f"{name}/{rel} (removed)" for rel in result.removed]
    if not parts and not gone:
        return f"{name}: index already current"
    blocks = plural(result.blocks, "block")
    return f"re-indexed {', '.join(parts + gone)}: {blocks} in {result.seconds:.2f} s"
