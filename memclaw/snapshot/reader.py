"""Read and validate a snapshot zip without trusting anything it claims.

Nothing here writes to disk. Sizes are counted on the bytes that decompression
actually produces, so a header that lies or a high-ratio bomb is stopped at the
first byte over a limit. Only stored and deflate members are accepted, because
zipfile's bzip2 and lzma readers cannot bound the output of a single step.

Foreign manifests: a ``manifest.json`` without ``"format": "memclaw-snapshot"``
(for example one written by MateClaw: agent name, export time and a list of
file names) is accepted when it carries no checksums. It is then only a label:
its file list is not compared with the zip, but every other guard (names,
counts, sizes, UTF-8, secrets) applies unchanged.
"""

from __future__ import annotations

import hashlib
import io
import re
import stat
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, BinaryIO

from memclaw.errors import SnapshotError
from memclaw.snapshot.rules import (
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    MAX_ENTRIES,
    MAX_FILE_BYTES,
    MAX_TOTAL_BYTES,
    MAX_ZIP_BYTES,
    classify,
    unsafe_reason,
)
from memclaw.snapshot.state import CarriedState, is_state, parse_state, state_reason
from memclaw.text import jsonsafe

_CHUNK = 64 * 1024
_SHA256 = re.compile(r"[0-9a-f]{64}")
_HASH_KEYS = ("sha", "hash", "checksum", "digest", "md5", "crc")


class ManifestKind(StrEnum):
    MEMCLAW = "memclaw"
    FOREIGN = "foreign"


@dataclass(frozen=True)
class SnapshotFile:
    path: str
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass(frozen=True)
class Skipped:
    path: str
    reason: str


@dataclass(frozen=True)
class Snapshot:
    """A validated snapshot: the files to import, and what was left out and why."""

    kind: ManifestKind
    files: list[SnapshotFile]
    skipped: list[Skipped]
    source_agent: str | None = None
    created: str | None = None
    memclaw_version: str | None = None
    # What memory knew about itself (format 2); empty for older and foreign zips.
    state: CarriedState = field(default_factory=CarriedState)


@dataclass
class _Manifest:
    kind: ManifestKind
    listed: dict[str, tuple[int, str]] = field(default_factory=dict)
    source_agent: str | None = None
    created: str | None = None
    memclaw_version: str | None = None
    version: int = 0


def reject(message: str) -> SnapshotError:
    return SnapshotError(f"snapshot rejected: {message}")


def read_source(stream: BinaryIO, label: str = "stdin") -> bytes:
    """Read a whole zip from ``stream``, refusing more than the compressed cap."""
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            break
        total += len(chunk)
        if total > MAX_ZIP_BYTES:
            raise reject(f"{label} is larger than {MAX_ZIP_BYTES // (1024 * 1024)} MB")
        chunks.append(chunk)
    if not chunks:
        raise reject(f"{label} is empty; expected a snapshot zip")
    return b"".join(chunks)


def load_path(path: Path) -> bytes:
    if path.is_dir():
        raise SnapshotError(f"{path} is a folder; give the snapshot zip file")
    try:
        with open(path, "rb") as handle:
            return read_source(handle, str(path))
    except FileNotFoundError:
        raise SnapshotError(f"{path} does not exist; give the path of a snapshot zip") from None


def read_snapshot(data: bytes) -> Snapshot:
    """Validate ``data`` completely and return its contents, or raise SnapshotError."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, EOFError, ValueError) as exc:
        raise reject(f"not a valid zip file (corrupt or truncated: {exc})") from None
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_ENTRIES:
            raise reject(f"{len(infos)} entries; a snapshot may hold at most {MAX_ENTRIES}")
        files = _check_entries(infos)
        if MANIFEST not in files:
            raise reject("the zip has no manifest.json, so it is not a memory snapshot")
        budget = _Budget()
        manifest = _parse_manifest(_read_member(archive, files[MANIFEST], budget))
        names = sorted(name for name in files if name != MANIFEST)
        if manifest.kind is ManifestKind.MEMCLAW:
            _compare_listing(manifest, names)
        carried: list[SnapshotFile] = []
        skipped: list[Skipped] = []
        state: list[SnapshotFile] = []
        memory = [name for name in names if not is_state(name) and classify(name) is None]
        for name in names:
            if is_state(name) and manifest.version >= 2:
                why = state_reason(name, memory)
                if why is not None:
                    raise reject(f"{name}: {why}")
                state.append(SnapshotFile(name, _read_member(archive, files[name], budget)))
                continue
            reason = classify(name)
            if reason is not None:
                skipped.append(Skipped(name, reason))
                continue
            carried.append(SnapshotFile(name, _read_member(archive, files[name], budget)))
    for item in carried + state:
        _check_content(item, manifest)
    return Snapshot(
        manifest.kind,
        carried,
        skipped,
        manifest.source_agent,
        manifest.created,
        manifest.memclaw_version,
        parse_state({item.path: item.data for item in state}),
    )


def _check_entries(infos: list[zipfile.ZipInfo]) -> dict[str, zipfile.ZipInfo]:
    """Refuse unsafe, special, encrypted, duplicate or colliding entries; return the files."""
    seen: set[str] = set()
    folded: dict[str, str] = {}
    files: dict[str, zipfile.ZipInfo] = {}
    folders: set[str] = set()
    for info in infos:
        # orig_filename keeps what zipfile silently cuts at a NUL byte.
        name = info.orig_filename
        reason = unsafe_reason(name)
        if reason is not None:
            raise reject(f"entry {name!r} has {reason}")
        kind = stat.S_IFMT(info.external_attr >> 16)
        if kind == stat.S_IFLNK:
            raise reject(f"entry {name!r} is a symbolic link")
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise reject(f"entry {name!r} is a device, pipe or socket, not a file")
        is_folder = name.endswith("/")
        if kind == stat.S_IFDIR and not is_folder:
            raise reject(f"entry {name!r} is a folder disguised as a file")
        if name in seen:
            raise reject(f"entry {name!r} appears twice")
        key = unicodedata.normalize("NFC", name.rstrip("/")).casefold()
        if key in folded:
            if folded[key].rstrip("/") == name.rstrip("/"):
                raise reject(f"entry {name!r} is both a file and a folder")
            raise reject(f"entry {name!r} differs from another entry only by letter case")
        seen.add(name)
        folded[key] = name
        if is_folder:
            folders.add(key)
            continue
        if info.flag_bits & 0x1:
            raise reject(f"entry {name!r} is encrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise reject(
                f"entry {name!r} uses compression method {info.compress_type}; "
                "only stored and deflate are accepted"
            )
        files[name] = info
        parts = key.split("/")
        folders.update("/".join(parts[:i]) for i in range(1, len(parts)))
    for name in files:
        if unicodedata.normalize("NFC", name).casefold() in folders:
            raise reject(f"entry {name!r} is both a file and a folder")
    return files


class _Budget:
    """Bytes produced by decompression so far, across every member."""

    def __init__(self) -> None:
        self.total = 0

    def add(self, count: int) -> None:
        self.total += count
        if self.total > MAX_TOTAL_BYTES:
            raise reject(
                f"more than {MAX_TOTAL_BYTES // (1024 * 1024)} MB once decompressed; "
                "stopped reading"
            )


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: _Budget) -> bytes:
    name = info.orig_filename
    chunks: list[bytes] = []
    size = 0
    try:
        with archive.open(info) as member:
            while chunk := member.read(_CHUNK):
                size += len(chunk)
                if size > MAX_FILE_BYTES:
                    raise reject(f"{name} is larger than 1 MB once decompressed; stopped reading")
                budget.add(len(chunk))
                chunks.append(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise reject(f"{name} is corrupt or truncated ({exc})") from None
    return b"".join(chunks)


def _parse_manifest(raw: bytes) -> _Manifest:
    try:
        doc: Any = jsonsafe.loads(raw.decode("utf-8"))
    except jsonsafe.JSONTooDeepError as exc:
        raise reject(f"manifest.json is {exc.msg}, so it is not a snapshot manifest") from None
    except (UnicodeDecodeError, ValueError):
        raise reject("manifest.json is not valid UTF-8 JSON") from None
    if not isinstance(doc, dict):
        raise reject("manifest.json must hold a JSON object")
    fmt = doc.get("format")
    if fmt is None:
        return _foreign_manifest(doc)
    if fmt != FORMAT:
        raise reject(f"manifest.json describes a {fmt!r} archive, not a memory snapshot")
    version = doc.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise reject("manifest.json has no valid format_version")
    if version > FORMAT_VERSION:
        raise reject(
            f"made by a newer memclaw (snapshot format {version}); upgrade memclaw to import it"
        )
    listed: dict[str, tuple[int, str]] = {}
    entries = doc.get("files")
    if not isinstance(entries, list):
        raise reject("manifest.json has no 'files' list")
    for index, entry in enumerate(entries):
        path, size, digest = _manifest_entry(entry)
        if path is None or size is None or digest is None:
            raise reject(f"manifest.json files[{index}] needs a path, a size and a sha256")
        if path in listed:
            raise reject(f"manifest.json lists {path!r} twice")
        listed[path] = (size, digest)
    return _Manifest(
        ManifestKind.MEMCLAW,
        listed,
        _text(doc.get("agent")),
        _text(doc.get("created")),
        _text(doc.get("memclaw_version")),
        version,
    )


def _manifest_entry(entry: Any) -> tuple[str | None, int | None, str | None]:
    if not isinstance(entry, dict):
        return None, None, None
    path, size, digest = entry.get("path"), entry.get("size"), entry.get("sha256")
    valid_size = isinstance(size, int) and not isinstance(size, bool) and size >= 0
    return (
        path if isinstance(path, str) else None,
        size if valid_size else None,
        digest if isinstance(digest, str) and _SHA256.fullmatch(digest) else None,
    )


def _foreign_manifest(doc: dict[str, Any]) -> _Manifest:
    entries = doc.get("files")
    if isinstance(entries, list):
        for entry in entries:
            if isinstance(entry, dict) and any(
                marker in str(key).lower() for key in entry for marker in _HASH_KEYS
            ):
                raise reject(
                    "manifest.json carries checksums in a format memclaw does not know, "
                    "so they cannot be verified"
                )
    source = _text(doc.get("agentName")) or _text(doc.get("agent")) or _text(doc.get("agentId"))
    created = _text(doc.get("exportedAt")) or _text(doc.get("created"))
    return _Manifest(ManifestKind.FOREIGN, {}, source, created, None)


def _text(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str | int | float):
        return str(value)
    return None


def _compare_listing(manifest: _Manifest, names: list[str]) -> None:
    for name in names:
        if name not in manifest.listed:
            raise reject(f"{name} is in the zip but not in manifest.json")
    present = set(names)
    for name in sorted(manifest.listed):
        if name not in present:
            raise reject(f"manifest.json lists {name} but the zip does not hold it")


def _check_content(item: SnapshotFile, manifest: _Manifest) -> None:
    if manifest.kind is ManifestKind.MEMCLAW:
        size, digest = manifest.listed[item.path]
        if item.size != size:
            raise reject(f"{item.path} is {item.size} bytes but manifest.json says {size}")
        if hashlib.sha256(item.data).hexdigest() != digest:
            raise reject(f"{item.path} does not match its sha256 in manifest.json")
    try:
        text = item.data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise reject(f"{item.path} is not UTF-8 text (byte {exc.start})") from None
    from memclaw.gates import find_secrets

    findings = find_secrets(text)
    if findings:
        raise reject(
            f"{item.path} line {findings[0].line} holds what looks like a secret "
            f"({findings[0].kind}) "
            "(memory must never hold credentials); remove it and export again"
        )
