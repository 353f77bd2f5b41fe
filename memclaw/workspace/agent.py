"""The workspace: its root, the agents in it, their files, and every way memclaw writes to them.

All writes go through :meth:`Agent.write` or :meth:`Agent.append_daily`, which
hold the agent's lock, refuse secrets, apply ceilings, keep the previous
version of rewritten core files, and replace files atomically.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.clock import Clock, system_clock
from memclaw.config import Settings, load_settings
from memclaw.errors import AgentNotFoundError, UnsafePathError, UsageError, WorkspaceError
from memclaw.workspace.atomic import (
    append_text,
    atomic_write,
    fence_for,
    file_lock,
    remove_leftovers,
    write_bytes_atomic,
)
from memclaw.workspace.meta import FileMeta, load_meta, load_today, save_meta
from memclaw.workspace.owners import OWNERS_DIR, OwnerKey, migrate_owner_folders, owner_from_dirname
from memclaw.workspace.paths import (
    ENTRIES_DIR,
    GLOBAL_DIR,
    META_DIR,
    RootChoice,
    check_state_inside,
    locate_root,
    resolve_inside,
    validate_agent_id,
)
from memclaw.workspace.reading import read_text
from memclaw.workspace.safeguards import provenance
from memclaw.workspace.safeguards.no_secrets import refuse_secrets, refuse_secrets_in_change
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.templates import SEED_FILES

# The safeguards that only a write runs (ceiling, history, journal) and the section
# editors are imported by the methods that write: a search opens agents too, and
# must not pay for loading them.
if TYPE_CHECKING:
    from memclaw.workspace.safeguards.ceiling import CeilingResult

DAILY_DIR = "memory"
# Rewrites of these files keep the previous version, so a bad rewrite can be undone.
# Entries files (``entries/*.md``) are versioned too: remember, forget and
# consolidation rewrite them, and a person may have written notes in them.
VERSIONED = frozenset({"PROFILE.md", "MEMORY.md"})


def versioned(name: str) -> bool:
    path = Path(name)
    return path.name in VERSIONED or (path.parent.name == ENTRIES_DIR and path.suffix == ".md")


class WriteStrategy(StrEnum):
    APPEND = "append"
    REPLACE_SECTION = "replace_section"
    UPSERT_KV = "upsert_kv"
    OVERWRITE = "overwrite"


@dataclass(frozen=True)
class WriteResult:
    name: str  # relative to the agent folder, e.g. owners/user%3Aalice/MEMORY.md
    path: Path
    changed: bool
    created: bool
    chars: int
    ceiling: CeilingResult | None = None
    backup: str | None = None  # the name of the previous version the history kept

    @property
    def moved(self) -> int:
        """Entries the ceiling moved to the overflow file."""
        return len(self.ceiling.moved) if self.ceiling is not None else 0

    @property
    def over_ceiling(self) -> bool:
        return self.ceiling is not None and self.ceiling.over


@dataclass(frozen=True)
class FileInfo:
    name: str
    size: int
    enabled: bool
    sort_order: int | None
    modified: float


class Agent:
    """One agent's folder, and the only door through which memclaw writes to it."""

    def __init__(self, workspace: Workspace, agent_id: str, path: Path) -> None:
        self.workspace = workspace
        self.id = agent_id
        self.path = path

    @property
    def settings(self) -> Settings:
        return self.workspace.settings

    @property
    def meta_dir(self) -> Path:
        return self.path / META_DIR

    @property
    def meta_path(self) -> Path:
        return self.meta_dir / "agent.yaml"

    # --- locking and metadata -------------------------------------------------

    def lock(self, wait: float | None = 30.0) -> contextlib.AbstractContextManager[None]:
        """Serialise writers of this agent, across threads, processes and (leases) hosts."""
        if self.settings.lock_mode == "lease":
            return self._lease(wait)
        return self._flock(wait)

    @contextlib.contextmanager
    def _flock(self, wait: float | None) -> Iterator[None]:
        with file_lock(self.meta_dir / "write.lock", wait=wait):
            # A temporary file an hour old is what a killed writer left behind (a whole
            # copy of a file, perhaps with a line forgotten since): the next write's
            # hold of the agent removes it.
            remove_leftovers(self.path)
            yield

    @contextlib.contextmanager
    def _lease(self, wait: float | None) -> Iterator[None]:
        from memclaw.workspace.atomic import HELD
        from memclaw.workspace.safeguards import lease

        settings = self.settings
        if wait:  # a lease left by a dead host is taken only after it expired: wait for that
            wait = max(wait, settings.lease_seconds * 2)
        held = lease.acquire(
            self.meta_dir / "lease",
            self.path,
            host=settings.host_id or lease.default_host_id(),
            ttl=settings.lease_seconds,
            wait=wait,
        )
        token = HELD.set(held)
        try:
            yield
        finally:
            HELD.reset(token)
            held.release()

    def meta(self) -> dict[str, FileMeta]:
        return load_meta(self.meta_path)

    def set_meta(self, name: str, *, enabled: bool | None = None, order: int | None = None) -> None:
        resolve_inside(self.path, name)
        with self.lock():
            meta = self.meta()
            current = meta.get(name, FileMeta(False, 100))
            meta[name] = FileMeta(
                current.enabled if enabled is None else enabled,
                current.sort_order if order is None else order,
            )
            save_meta(self.meta_path, meta, self.pinned_day)

    # --- owners -----------------------------------------------------------------

    def owners(self) -> list[OwnerKey]:
        """Owner keys that have personal memory in this agent."""
        folder = self.path / OWNERS_DIR
        if not folder.is_dir():
            return []
        return sorted(owner_from_dirname(p.name) for p in folder.iterdir() if p.is_dir())

    def file(self, name: str) -> Path:
        return resolve_inside(self.path, name)

    # --- reading ------------------------------------------------------------------

    def read(self, name: str) -> str:
        """The text of a memory file (relative to the agent), or '' when it does not exist yet."""
        path = self.file(name)
        try:
            return read_text(path)
        except FileNotFoundError:
            return ""
        except UnicodeDecodeError as exc:
            raise WorkspaceError(
                f"{path} is not UTF-8 text (byte {exc.start}); re-save it as UTF-8"
            ) from exc

    def list_files(self, prefix: str = "", *, base: str = "") -> list[FileInfo]:
        """Markdown files of one scope's folder ``base`` ('' for TEAM), injected ones first."""
        personal = base
        base_dir = self.path / personal
        meta = {} if personal else self.meta()
        infos = []
        for path in base_dir.rglob("*.md"):
            if not path.is_file():
                continue  # a folder, a pipe or a device named like a note
            rel = path.relative_to(base_dir).as_posix()
            if any(part.startswith(".") for part in Path(rel).parts):
                continue
            if not personal and rel.startswith(OWNERS_DIR + "/"):
                continue
            if not rel.startswith(prefix):
                continue
            stat = path.stat()
            entry = meta.get(rel)
            infos.append(
                FileInfo(
                    rel,
                    stat.st_size,
                    bool(entry and entry.enabled),
                    entry.sort_order if entry else None,
                    stat.st_mtime,
                )
            )
        infos.sort(key=lambda i: (i.sort_order is None, i.sort_order or 0, i.name))
        return infos

    # --- writing ------------------------------------------------------------------

    def write(
        self,
        name: str,
        content: str,
        strategy: WriteStrategy = WriteStrategy.OVERWRITE,
        *,
        section: str | None = None,
        key: str | None = None,
        author: Author = Author.PERSON,
        base: str | None = None,
    ) -> WriteResult:
        """Write a memory file with one of the four strategies.

        ``replace_section`` needs ``section``; ``upsert_kv`` needs ``key`` (and
        takes an optional ``section``); ``content`` is the new body or value.
        ``author`` says whether a model wrote it (see ``provenance``). ``base``: the
        version an overwrite was made from; when the file changed since, what turned
        ``base`` into ``content`` is done to the newer version (``text.rebase``).
        """
        if strategy is WriteStrategy.REPLACE_SECTION and not section:
            raise UsageError("replace_section needs a section heading")
        if strategy is WriteStrategy.UPSERT_KV and not key:
            raise UsageError("upsert_kv needs a key")

        from memclaw.text.rebase import rebase
        from memclaw.workspace.sections import replace_section, upsert_kv

        def transform(current: str) -> str:
            if strategy is WriteStrategy.OVERWRITE:
                return content if base is None else rebase(base, content, current)
            if strategy is WriteStrategy.APPEND:
                sep = "" if not current or current.endswith("\n") else "\n"
                return current + sep + content
            if strategy is WriteStrategy.REPLACE_SECTION:
                return replace_section(current, section or "", content)
            return upsert_kv(current, key or "", content, section)

        return self.update(name, transform, introduced=content, author=author)

    def update(
        self,
        name: str,
        transform: Callable[[str], str],
        *,
        introduced: str,
        author: Author = Author.PERSON,
        established: frozenset[str] = frozenset(),
    ) -> WriteResult:
        """Read-modify-write under one hold of the lock, so no concurrent write is lost.

        ``transform`` gets the current text ('' for a new file) and may raise to
        abort; ``introduced`` is the new text it brings, checked for secrets.
        ``established``: keys of lines a ceiling moves last (see ``ceiling.plan``).
        """
        resolve_inside(self.path, name)
        refuse_secrets(introduced, name)
        with self.editing() as edit:
            old = edit.read_existing(name)
            new = transform(old or "")
            return edit.put(name, old, new, introduced=None, author=author, established=established)

    @contextlib.contextmanager
    def editing(self, prefix: str = "") -> Iterator[Editing]:
        """Hold the agent lock for a read-modify-write that spans several files.

        Everything read through the yielded :class:`Editing` and written back
        through it happens under one hold, as :meth:`update` does for one file.
        The lock is not re-entrant: do not call :meth:`write`, :meth:`update`
        or :meth:`lock` inside (they would wait for this very hold).
        """
        with self.lock():
            edit = Editing(self, prefix)
            try:
                yield edit
            finally:
                edit.closed = True

    def append_daily(
        self,
        text: str,
        *,
        folder: str = "",
        day: date | None = None,
        heading: str | None = None,
    ) -> WriteResult:
        """Append to ``memory/YYYY-MM-DD.md``; the file starts with its date heading.

        ``heading`` adds a ``## heading`` above the text (chat extraction uses
        the time of day). Daily notes are only ever appended to.
        """
        from memclaw.workspace.safeguards import journal

        now = self.now()
        day = day or now.date()
        rel = f"{folder}{DAILY_DIR}/{day.isoformat()}.md"
        path = resolve_inside(self.path, rel)
        refuse_secrets(text, rel)
        block = (f"\n## {heading}\n" if heading else "\n") + text.strip("\n") + "\n"
        with self.lock():
            created = not path.exists()
            existing = b"" if created else path.read_bytes()
            if created:
                block = f"# {day.isoformat()}\n" + block
            elif existing and not existing.endswith(b"\n"):
                block = "\n" + block
            # A daily note in another encoding is still appended to; the journal sees it decoded.
            before = None if created else existing.decode("utf-8", errors="replace")
            if fence_for(path) is None:
                append_text(path, block)
            else:  # under a lease even an append is staged and fenced
                write_bytes_atomic(path, existing + block.encode("utf-8"))
            size = path.stat().st_size
            journal.note(self, rel, before, (before or "") + block, None)
        return WriteResult(rel, path, True, created, size)

    def _put(
        self,
        rel: str,
        old: str | None,
        new: str,
        author: Author,
        introduced: str | None,
        established: frozenset[str] = frozenset(),
    ) -> WriteResult:
        """The write half of :meth:`update`; the caller holds the lock (see :class:`Editing`)."""
        from memclaw.workspace.safeguards import ceiling, history, journal

        path = resolve_inside(self.path, rel)
        if introduced is not None:
            refuse_secrets(introduced, rel)
        # The inserted text alone can be harmless while the file it produces is not
        # ("ghp_R8x2" next to an existing "Kq9Lm..."): check the changed lines too.
        refuse_secrets_in_change(old or "", new, rel)
        if new and not new.endswith("\n"):
            new += "\n"
        fitted, record = ceiling.plan(self, rel, old or "", new, author, established)
        if fitted is not None and fitted.moved:
            # The moved text is safe in the overflow file before the file loses it.
            fitted = ceiling.write_overflow(self, rel, fitted)
        new = fitted.text if fitted is not None else new
        if new == old:
            return WriteResult(rel, path, False, False, len(new), fitted, None)
        backup = None
        if old is not None and versioned(rel):
            backup = history.save(self, rel, old)
        atomic_write(path, new)
        if record is not None:
            kept = record.within(new)
            noted = provenance.delta(provenance.load(self, rel), kept, rel)
            if noted["dropped"]:
                journal.note_state(self, noted)
            provenance.save(self, rel, kept)
        journal.note(self, rel, old, new, backup)
        return WriteResult(rel, path, True, old is None, len(new), fitted, backup)

    def ceiling_of(self, name: str) -> int | None:
        """The ceiling of ``name`` in characters (0 = unlimited), None when it has none."""
        base = Path(name).name
        if base == "PROFILE.md":
            return self.settings.profile_max_chars
        if base == "MEMORY.md":
            return self.settings.memory_max_chars
        return None

    @functools.cached_property
    def pinned_day(self) -> date | None:
        """The day agent.yaml pins this agent to (``today:``), if any."""
        return load_today(self.meta_path)

    def now(self) -> datetime:
        """The agent's clock: the workspace's, on the pinned day when agent.yaml names one."""
        now = self.workspace.clock()
        day = self.pinned_day
        return now if day is None else datetime.combine(day, now.timetz())


class Editing:
    """Reads and writes of one agent's files while :meth:`Agent.editing` holds its lock.

    Names are relative to ``prefix`` (a scope's folder, '' for the agent's own).
    """

    def __init__(self, agent: Agent, prefix: str = "") -> None:
        self.agent = agent
        self.prefix = prefix
        self.closed = False

    def _rel(self, name: str) -> str:
        if self.closed:
            raise RuntimeError("this edit is over: the agent lock was released")
        return self.prefix + name

    def read_existing(self, name: str) -> str | None:
        """The text of ``name``, or None when the file does not exist."""
        rel = self._rel(name)
        return self.agent.read(rel) if self.agent.file(rel).exists() else None

    def read(self, name: str) -> str:
        return self.read_existing(name) or ""

    def put(
        self,
        name: str,
        old: str | None,
        new: str,
        *,
        introduced: str | None,
        author: Author = Author.PERSON,
        established: frozenset[str] = frozenset(),
    ) -> WriteResult:
        """Write ``new`` over ``old`` as read in this edit.

        ``introduced`` (the text that is new) is checked for secrets; None when
        the caller checked it already. ``established``: see ``ceiling.plan``.
        """
        return self.agent._put(self._rel(name), old, new, author, introduced, established)

    def write(
        self, name: str, new: str, *, introduced: str, author: Author = Author.PERSON
    ) -> WriteResult:
        """Replace ``name`` with ``new``; ``introduced`` (the new text) must hold no secret."""
        return self.put(name, self.read_existing(name), new, introduced=introduced, author=author)


# Folders of the agent layout; any one of them (or a core file) marks a folder as an agent.
_AGENT_DIRS = (META_DIR, DAILY_DIR, OWNERS_DIR, "entries", "sessions")


class Workspace:
    """A workspaces root holding one folder per agent plus ``_global/``."""

    def __init__(
        self,
        root: Path,
        settings: Settings,
        clock: Clock = system_clock,
        root_choice: RootChoice | None = None,
    ) -> None:
        self.root = root
        self.settings = settings
        self.clock = clock
        self.root_choice = root_choice or RootChoice(root, "named by the caller", True)

    @classmethod
    def open(
        cls,
        root: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        overrides: Mapping[str, Any] | None = None,
        clock: Clock = system_clock,
    ) -> Workspace:
        env = os.environ if env is None else env
        choice = locate_root(root, env)
        return cls(choice.path, load_settings(choice.path, env, overrides), clock, choice)

    @property
    def global_dir(self) -> Path:
        return self.root / GLOBAL_DIR

    def agent_ids(self) -> list[str]:
        if not self.root.is_dir():
            return []
        ids = []
        for child in sorted(self.root.iterdir()):
            if not child.name.startswith(("_", ".")) and looks_like_agent(child):
                with contextlib.suppress(UnsafePathError):
                    ids.append(validate_agent_id(child.name))
        return ids

    def agent(self, agent_id: str) -> Agent:
        path = self.root / validate_agent_id(agent_id)
        if not looks_like_agent(path):
            # An unrelated folder (a root of ``~`` holds ``Documents/``) is not an agent:
            # opening it would create ``.memclaw/`` inside it.
            from difflib import get_close_matches  # only for this message: not on every open

            close = get_close_matches(agent_id, self.agent_ids(), n=1)
            hint = f"did you mean {close[0]!r}? Or " if close else ""
            # Say which root was searched and why: an agent "missing" because discovery
            # picked another root than the person expected is the common case.
            elsewhere = "" if self.root_choice.explicit else ", or name the root with --root"
            raise AgentNotFoundError(
                f"no agent {agent_id!r} under {self.root_choice.told()}: "
                f"{hint}create it with `memclaw init {agent_id}`{elsewhere}"
            )
        check_state_inside(path)
        agent = Agent(self, agent_id, path)
        migrate_owner_folders(agent)  # before any owner's folder is looked up
        return agent

    def init_agent(self, agent_id: str) -> tuple[Agent, list[str]]:
        """Create an agent with its four seeded core files; existing files are kept."""
        path = self.root / validate_agent_id(agent_id)
        if self.root.exists() and not self.root.is_dir():
            raise WorkspaceError(f"the root {self.root} is not a folder: pass --root a folder")
        if path.exists() and not path.is_dir():
            raise WorkspaceError(f"{path} exists and is not a folder: choose another agent id")
        agent = Agent(self, agent_id, path)
        created = []
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a parent is a file, read-only, or otherwise unusable
            raise WorkspaceError(
                f"cannot create {path} ({exc.strerror}): pass --root a folder you can write to"
            ) from exc
        with agent.lock():
            for name, content in SEED_FILES.items():
                if not (path / name).exists():
                    atomic_write(path / name, content)
                    created.append(name)
            if not agent.meta_path.exists():
                save_meta(agent.meta_path, load_meta(agent.meta_path))
        return agent, created


def looks_like_agent(path: Path) -> bool:
    """An agent folder holds a core file, or a folder only memclaw's layout has."""
    if not path.is_dir():
        return False
    return any((path / name).is_file() for name in (*SEED_FILES, "DREAMS.md")) or any(
        (path / name).is_dir() for name in _AGENT_DIRS
    )
