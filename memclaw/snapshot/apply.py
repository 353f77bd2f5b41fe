"""Apply an import so that every file lands or none does.

Into an existing agent (under its lock):

1. every new file is written and fsynced under ``.memclaw/import-staging-<pid>/``;
2. ``.memclaw/import-journal.json`` names every target (and whether it existed);
3. each target's previous version goes to the history (in the ledger) and the staged
   file is renamed over it; then the journal and the staging folder go.

A crash before step 2 leaves the agent untouched (the staging folder is an
orphan that the next import removes). A crash after it is finished by the
next ``memclaw import`` (or :func:`recover`): the staged files are complete, so
the swap is rolled forward.

A brand-new agent is built complete in a hidden folder next to the agents and
renamed into place in one step, so it appears whole or not at all.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from secrets import token_hex
from typing import Any

from memclaw.errors import LockBusyError, SnapshotError
from memclaw.snapshot.plan import ImportPlan, plan_import
from memclaw.snapshot.reader import Snapshot
from memclaw.snapshot.rules import classify, markdown_only, unsafe_reason
from memclaw.snapshot.state import STATE_TARGETS, state_writes
from memclaw.text import jsonsafe
from memclaw.workspace import Agent, Workspace, ledger
from memclaw.workspace.atomic import file_lock, fsync_dir, write_bytes_atomic
from memclaw.workspace.meta import default_meta, save_meta
from memclaw.workspace.paths import IMPORT_JOURNAL, META_DIR, resolve_inside, validate_agent_id
from memclaw.workspace.safeguards import history
from memclaw.workspace.safeguards import journal as change_journal

STAGING_PREFIX = "import-staging-"
# Inside a staging folder, state files for .memclaw wait here (no memory file starts with '.').
STAGED_STATE = ".state"
BUILD_PREFIX = ".import-"
CRASH_ENV = "MEMCLAW_TEST_CRASH_AFTER"


@dataclass(frozen=True)
class ImportResult:
    plan: ImportPlan
    applied: bool
    written: list[str] = field(default_factory=list)
    recovered: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.plan.to_dict(),
            "dry_run": not self.applied,
            "written": self.written,
            "recovered": self.recovered,
        }


def import_snapshot(
    workspace: Workspace,
    agent_id: str,
    snapshot: Snapshot,
    *,
    dry_run: bool = False,
    owners: Collection[str] = (),
) -> ImportResult:
    """Preview (``dry_run``) or apply a validated snapshot to an agent, new or existing;
    the personal memory of the ``owners`` named comes with it, no one else's."""
    validate_agent_id(agent_id)
    if dry_run:
        return ImportResult(plan_import(workspace, agent_id, snapshot, owners), applied=False)
    recovered = recover(workspace, agent_id)
    plan = plan_import(workspace, agent_id, snapshot, owners)
    created = not plan.agent_exists
    if created:
        _build_agent(workspace, plan)
    agent = workspace.agent(agent_id)
    # The import is one change (newer than any history it carried): `memclaw undo` right
    # after it puts back every file it replaced and removes every file it created.
    source = snapshot.source_agent
    with change_journal.change(agent, change_journal.IMPORT, source=source), agent.lock():
        if created:
            written = []
            for rel, data in plan.changes():
                text = data.decode("utf-8", errors="replace")
                change_journal.note(agent, rel, None, text, None)
                written.append(rel)
        else:
            # The files may have changed since the unlocked plan; compare again.
            plan = plan_import(workspace, agent_id, snapshot, owners)
            written = _swap_in(agent, plan)
    if written or recovered:
        _sync_index(agent)
    return ImportResult(plan, True, written, recovered)


def recover(workspace: Workspace, agent_id: str) -> list[str]:
    """Finish an interrupted import of ``agent_id``, if any; return the files it completed."""
    _remove_orphan_builds(workspace, validate_agent_id(agent_id))
    if not (workspace.root / agent_id).is_dir():
        return []
    agent = workspace.agent(agent_id)
    journal = agent.meta_dir / IMPORT_JOURNAL
    if not journal.exists() and not any(agent.meta_dir.glob(STAGING_PREFIX + "*")):
        return []
    with agent.lock():
        return _recover_locked(agent)


def _recover_locked(agent: Agent) -> list[str]:
    done: list[str] = []
    journal = agent.meta_dir / IMPORT_JOURNAL
    if journal.exists():
        done = _roll_forward(agent, _read_journal(journal))
    # Staging folders without a journal come from imports that died before committing.
    for orphan in agent.meta_dir.glob(STAGING_PREFIX + "*"):
        shutil.rmtree(orphan, ignore_errors=True)
    return done


def _swap_in(agent: Agent, plan: ImportPlan) -> list[str]:
    changes = plan.changes()
    # The state lands in the same roll-forward as the files: both or neither.
    states = state_writes(agent, plan.snapshot.state, [rel for rel, _ in changes])
    if not changes and not states:
        return []
    staging = agent.meta_dir / f"{STAGING_PREFIX}{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    for rel, data in changes:
        write_bytes_atomic(staging.joinpath(*rel.split("/")), data)
    for rel, data in states:
        write_bytes_atomic(staging.joinpath(STAGED_STATE, *rel.split("/")), data)
    staged = [rel for rel, _ in changes] + [f"{STAGED_STATE}/{rel}" for rel, _ in states]
    _fsync_folders(staging, staged)
    _crash_point("staging")
    existed = {row.path: row.old_size is not None for row in plan.rows}
    journal = {
        "version": 1,
        "staging": staging.name,
        "files": [{"path": rel, "existed": existed[rel]} for rel, _ in changes]
        + [{"path": rel, "state": True} for rel, _ in states],
    }
    text = json.dumps(journal, indent=2) + "\n"
    write_bytes_atomic(agent.meta_dir / IMPORT_JOURNAL, text.encode("utf-8"))
    _crash_point("journal")
    return _roll_forward(agent, journal)


def _read_journal(path: Path) -> dict[str, Any]:
    try:
        data: Any = jsonsafe.loads(path.read_text(encoding="utf-8"))
        files = data["files"]
        staging = data["staging"]
        assert isinstance(files, list) and isinstance(staging, str)
        assert all(isinstance(f, dict) and isinstance(f.get("path"), str) for f in files)
    except (ValueError, KeyError, TypeError, AssertionError):
        raise SnapshotError(
            f"{path} is damaged, so an interrupted import cannot be finished; "
            "check the agent's files by hand, then delete it"
        ) from None
    return dict(data)


def _roll_forward(agent: Agent, journal: dict[str, Any]) -> list[str]:
    staging_name = journal["staging"]
    if not staging_name.startswith(STAGING_PREFIX) or "/" in staging_name:
        raise SnapshotError(f"{agent.meta_dir / IMPORT_JOURNAL} names an unexpected staging folder")
    staging = agent.meta_dir / staging_name
    done: list[str] = []
    for entry in journal["files"]:
        rel = entry["path"]
        if entry.get("state"):
            _state_forward(agent, staging, rel)
            continue
        if unsafe_reason(rel) is not None or classify(rel) is not None:
            raise SnapshotError(
                f"{agent.meta_dir / IMPORT_JOURNAL} names an unexpected file {rel!r}"
            )
        staged = staging.joinpath(*rel.split("/"))
        if not staged.is_file():
            continue  # moved before the interruption
        target = resolve_inside(agent.path, rel, md_only=markdown_only(rel))
        before = target.read_bytes() if target.is_file() else None
        backup = history.save(agent, rel, before) if before is not None else None
        after = staged.read_bytes()
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staged, target)
        change_journal.note(agent, rel, _text(before), _text(after), backup)
        fsync_dir(target.parent)
        done.append(rel)
        _crash_point(f"swap:{len(done)}")
    (agent.meta_dir / IMPORT_JOURNAL).unlink()
    fsync_dir(agent.meta_dir)
    shutil.rmtree(staging, ignore_errors=True)
    return done


def _state_forward(agent: Agent, staging: Path, rel: str) -> None:
    """Move one staged state file into ``.memclaw``; only the kinds an import writes."""
    folder, _, rest = rel.partition("/")
    record_of = rest[: -len(".json")] if folder in ("provenance", "guard") else ""
    known = rel in STATE_TARGETS or (
        record_of and unsafe_reason(record_of) is None and classify(record_of) is None
    )
    if unsafe_reason(rel) is not None or not known:
        raise SnapshotError(
            f"{agent.meta_dir / IMPORT_JOURNAL} names an unexpected state file {rel!r}"
        )
    staged = staging.joinpath(STAGED_STATE, *rel.split("/"))
    if not staged.is_file():
        return  # moved before the interruption
    target = agent.meta_dir.joinpath(*rel.split("/"))
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(staged, target)
    fsync_dir(target.parent)
    if ledger.takes_in(rel):
        ledger.absorb(agent.meta_dir)  # the records go into the ledger now


def _text(data: bytes | None) -> str | None:
    return None if data is None else data.decode("utf-8", errors="replace")


def _build_agent(workspace: Workspace, plan: ImportPlan) -> None:
    workspace.root.mkdir(parents=True, exist_ok=True)
    # mkdir (not mkdtemp) so the folder gets the usual permissions once renamed into place.
    build = workspace.root / f"{BUILD_PREFIX}{plan.agent}-{os.getpid()}-{token_hex(4)}"
    build.mkdir()
    target = workspace.root / plan.agent
    try:
        # The lock file becomes the agent's own once the folder is renamed into place.
        with file_lock(build / META_DIR / "write.lock", wait=0):
            changes = plan.changes()
            for rel, data in changes:
                write_bytes_atomic(build.joinpath(*rel.split("/")), data)
            states = state_writes(None, plan.snapshot.state, [rel for rel, _ in changes])
            for rel, data in states:
                write_bytes_atomic(build.joinpath(META_DIR, *rel.split("/")), data)
            # The sessions a carried extraction quotes; only a new agent takes its journal.
            for rel, data in plan.snapshot.state.sessions.items():
                write_bytes_atomic(build.joinpath(*rel.split("/")), data)
                changes.append((rel, data))
            if not (build / META_DIR / "agent.yaml").exists():  # a zip without one
                save_meta(build / META_DIR / "agent.yaml", default_meta())
            metas = [f"{META_DIR}/{rel}" for rel, _ in states] + [f"{META_DIR}/agent.yaml"]
            metas = list(dict.fromkeys(metas))
            _fsync_folders(build, [rel for rel, _ in changes] + metas)
            _crash_point("staging")
            if target.exists():
                raise SnapshotError(
                    f"agent {plan.agent} was created while importing; run the import again"
                )
            os.rename(build, target)
            fsync_dir(workspace.root)
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise


def _remove_orphan_builds(workspace: Workspace, agent_id: str) -> None:
    if not workspace.root.is_dir():
        return
    for build in workspace.root.glob(f"{BUILD_PREFIX}{agent_id}-*"):
        # A live build holds its lock; a dead one's lock was released with its process.
        with contextlib.suppress(LockBusyError), file_lock(build / META_DIR / "write.lock", wait=0):
            shutil.rmtree(build, ignore_errors=True)


def _fsync_folders(base: Path, rels: list[str]) -> None:
    folders = {base}
    for rel in rels:
        parts = rel.split("/")[:-1]
        folders.update(base.joinpath(*parts[:i]) for i in range(1, len(parts) + 1))
    for folder in sorted(folders, reverse=True):
        fsync_dir(folder)
    fsync_dir(base.parent)


def _sync_index(agent: Agent) -> None:
    from memclaw.index import catch_up

    catch_up(agent)


def _crash_point(stage: str) -> None:
    # Test hook for the crash tests: MEMCLAW_TEST_CRASH_AFTER=staging|journal|swap:N kills
    # the process right here. os._exit skips every cleanup, as a power cut would.
    if os.environ.get(CRASH_ENV) == stage:
        os._exit(70)
