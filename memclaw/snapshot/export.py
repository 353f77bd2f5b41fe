"""Export: pack an agent's memory files and a manifest into a deterministic zip.

The same files give the same bytes: entries are sorted, every entry carries a
fixed timestamp (1980-01-01, the zip epoch) and fixed permissions, and the
manifest's ``created`` is the newest modification time among the exported
files ("content as of"), not the time of the export. Touching a file without
changing it therefore moves ``created`` and nothing else.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import stat
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path
from typing import Any

from memclaw.errors import SnapshotError, UsageError
from memclaw.snapshot.carry import collect_state
from memclaw.snapshot.rules import (
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    MAX_ENTRIES,
    MAX_FILE_BYTES,
    MAX_TOTAL_BYTES,
    OWNER_FILES,
    OWNERS_DIR,
    TEAM_FILES,
    classify,
    is_owner_dir,
    markdown_only,
)
from memclaw.workspace import Agent
from memclaw.workspace.owners import OwnerKey, owner_dirname
from memclaw.workspace.paths import resolve_inside

ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
COMPRESS_LEVEL = 9
_UNIX = 3  # "made by" Unix, so the permission bits below are read as such everywhere


@dataclass(frozen=True)
class ManifestEntry:
    path: str
    size: int
    sha256: str


@dataclass(frozen=True)
class ExportResult:
    agent: str
    data: bytes
    files: list[ManifestEntry]
    created: str
    manifest: dict[str, Any]


def export_snapshot(
    agent: Agent, owners: Sequence[OwnerKey] = (), *, all_owners: bool = False
) -> ExportResult:
    """Pack the agent's shared memory, plus the personal memory of the given owners.

    Refuses to write a snapshot that ``import`` would refuse (too large, not
    UTF-8, holding a credential), so a backup is always restorable.
    """
    if owners and all_owners:
        raise UsageError("give either --owner or --all-owners, not both")
    paths = collect_files(agent, owners, all_owners=all_owners)
    if not paths:
        raise SnapshotError(f"{agent.id} has no memory files to export")
    if len(paths) + 1 > MAX_ENTRIES:
        raise SnapshotError(
            f"{agent.id} has {len(paths)} memory files; a snapshot holds at most "
            f"{MAX_ENTRIES - 1}: export owners separately with --owner"
        )
    members: list[tuple[str, bytes]] = []
    entries: list[ManifestEntry] = []
    newest = 0
    total = 0
    for rel, path in paths:
        data = path.read_bytes()
        _check_exportable(agent, rel, data)
        total += len(data)
        if total > MAX_TOTAL_BYTES:
            raise SnapshotError(
                f"{agent.id}: memory files exceed {MAX_TOTAL_BYTES // (1024 * 1024)} MB in "
                "total, the most a snapshot may hold; export owners separately with --owner"
            )
        newest = max(newest, path.stat().st_mtime_ns)
        members.append((rel, data))
        entries.append(ManifestEntry(rel, len(data), hashlib.sha256(data).hexdigest()))
    memory = list(entries)
    # What memory knows about itself travels too; it passes the same gate as the files.
    for rel, data in collect_state(agent, [rel for rel, _ in paths]):
        _check_exportable(agent, rel, data)
        total += len(data)
        if total > MAX_TOTAL_BYTES:
            raise SnapshotError(
                f"{agent.id}: memory files and their state exceed "
                f"{MAX_TOTAL_BYTES // (1024 * 1024)} MB, the most a snapshot may hold; "
                "export owners separately with --owner"
            )
        members.append((rel, data))
        entries.append(ManifestEntry(rel, len(data), hashlib.sha256(data).hexdigest()))
    members.sort()
    entries.sort(key=lambda e: e.path)
    created = datetime.fromtimestamp(newest // 1_000_000_000, tz=UTC).isoformat()
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "memclaw_version": version("memclaw"),
        "agent": agent.id,
        "created": created,
        "files": [{"path": e.path, "size": e.size, "sha256": e.sha256} for e in entries],
    }
    text = json.dumps(manifest, ensure_ascii=False, indent=2) + "\n"
    data = build_zip([(MANIFEST, text.encode("utf-8")), *members])
    return ExportResult(agent.id, data, memory, created, manifest)


def collect_files(
    agent: Agent, owners: Sequence[OwnerKey] = (), *, all_owners: bool = False
) -> list[tuple[str, Path]]:
    """(name inside the zip, file on disk) for every carried file, sorted by name."""
    found = _scope_files(agent, "", TEAM_FILES)
    folder = agent.path / OWNERS_DIR
    dirnames: list[str] = []
    if all_owners and folder.is_dir():
        dirnames = sorted(p.name for p in folder.iterdir() if p.is_dir() and is_owner_dir(p.name))
    for owner in owners:
        dirname = owner_dirname(owner)
        if not (folder / dirname).is_dir():
            raise SnapshotError(
                f"{agent.id} has no personal memory of {owner!r}; "
                "`memclaw status --json` lists the owners of each agent"
            )
        dirnames.append(dirname)
    for dirname in dict.fromkeys(dirnames):
        found += _scope_files(agent, f"{OWNERS_DIR}/{dirname}/", OWNER_FILES)
    return sorted(found)


def _scope_files(agent: Agent, prefix: str, top: tuple[str, ...]) -> list[tuple[str, Path]]:
    names = [prefix + name for name in top]
    for sub in ("memory", "entries", "dreams"):
        folder = agent.path / prefix / sub
        if folder.is_dir():
            names += [f"{prefix}{sub}/{p.name}" for p in folder.iterdir()]
    found = []
    for rel in names:
        if classify(rel) is not None:
            continue
        # resolve_inside refuses a symlink that leads out of the agent folder.
        path = resolve_inside(agent.path, rel, md_only=markdown_only(rel))
        if path.is_file():
            found.append((rel, path))
    return found


def _check_exportable(agent: Agent, rel: str, data: bytes) -> None:
    where = f"{agent.id}/{rel}"
    if len(data) > MAX_FILE_BYTES:
        raise SnapshotError(
            f"{where} is {len(data)} bytes; a snapshot file may hold at most 1 MB: "
            "trim or split it, then export again"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SnapshotError(
            f"{where} is not UTF-8 text (byte {exc.start}); re-save it as UTF-8"
        ) from exc
    from memclaw.gates import find_secrets

    findings = find_secrets(text)
    if findings:
        raise SnapshotError(
            f"{where} line {findings[0].line} holds what looks like a secret ({findings[0].kind}); "
            "remove it before exporting (memory must never hold credentials)"
        )


def build_zip(members: Sequence[tuple[str, bytes]]) -> bytes:
    """A zip whose bytes depend only on the names and contents given, in that order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = _UNIX
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            archive.writestr(info, data, compresslevel=COMPRESS_LEVEL)
    return buffer.getvalue()


def default_filename(agent: Agent) -> str:
    return f"{agent.id}-memclaw-{agent.now():%Y%m%d}.zip"


def write_snapshot_file(path: Path, data: bytes, *, force: bool = False) -> Path:
    """Write the zip atomically; an existing file is replaced only with ``force``.

    The file is readable by its owner only (0600), like the memory it holds.
    """
    if path.is_dir():
        raise UsageError(f"{path} is a folder; give a file name such as backup.zip")
    if path.exists() and not force:
        raise UsageError(f"{path} already exists; pass --force to replace it")
    folder = path.parent if str(path.parent) else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if force:
            os.replace(tmp, path)
        else:
            _publish_new(Path(tmp), path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return path


def _publish_new(tmp: Path, path: Path) -> None:
    # link() fails if the name appeared meanwhile, so nothing is ever clobbered.
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise UsageError(f"{path} already exists; pass --force to replace it") from None
    except OSError:
        # Some filesystems have no hard links; fall back to a checked rename.
        if path.exists():
            raise UsageError(f"{path} already exists; pass --force to replace it") from None
        os.replace(tmp, path)
