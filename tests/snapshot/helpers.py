"""Build snapshot zips by hand, including broken and hostile ones."""

from __future__ import annotations

import hashlib
import io
import json
import stat
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memclaw.workspace import Workspace

Member = tuple[str | zipfile.ZipInfo, bytes]


def manifest_for(files: Mapping[str, bytes], agent: str = "src") -> dict[str, Any]:
    return {
        "format": "memclaw-snapshot",
        "format_version": 1,
        "memclaw_version": "0.1.0",
        "agent": agent,
        "created": "2026-11-28T10:00:00+00:00",
        "files": [
            {"path": name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            for name, data in sorted(files.items())
        ],
    }


def raw_zip(members: Sequence[Member], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def snapshot_zip(
    files: Mapping[str, bytes],
    extra: Sequence[Member] = (),
    manifest: dict[str, Any] | None = None,
) -> bytes:
    """A well-formed memclaw snapshot of ``files``, plus ``extra`` entries listed too."""
    listed = dict(files)
    for name, data in extra:
        text = name.filename if isinstance(name, zipfile.ZipInfo) else name
        if not text.endswith("/"):  # folder entries are not files
            listed[text] = data
    doc = manifest if manifest is not None else manifest_for(listed)
    members: list[Member] = [("manifest.json", json.dumps(doc).encode())]
    members += list(files.items())
    members += list(extra)
    return raw_zip(members)


def special(name: str, mode: int) -> zipfile.ZipInfo:
    """A zip entry whose Unix mode says symlink, FIFO, device or folder."""
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = mode << 16
    return info


def symlink(name: str) -> zipfile.ZipInfo:
    return special(name, stat.S_IFLNK | 0o777)


def patch(data: bytes, old: bytes, new: bytes) -> bytes:
    """Replace every occurrence (headers and central directory) with same-length bytes."""
    assert len(old) == len(new) and data.count(old) >= 1
    return data.replace(old, new)


def patch_sizes(data: bytes, name: str, size: int) -> bytes:
    """Make the headers of ``name`` claim an uncompressed size of ``size`` bytes."""
    out = bytearray(data)
    encoded = name.encode()
    for signature, size_at, name_at in ((b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)):
        start = 0
        while (at := out.find(signature, start)) >= 0:
            if out[at + name_at : at + name_at + len(encoded)] == encoded:
                out[at + size_at : at + size_at + 4] = size.to_bytes(4, "little")
            start = at + 4
    return bytes(out)


def make_agent(ws: Workspace, agent_id: str, files: Mapping[str, str]) -> Path:
    """An agent folder holding exactly ``files`` (plus its metadata)."""
    agent, _ = ws.init_agent(agent_id)
    for seeded in ("AGENTS.md", "SOUL.md", "PROFILE.md", "MEMORY.md"):
        if seeded not in files:
            (agent.path / seeded).unlink()
    for name, text in files.items():
        path = agent.path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return agent.path


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` except memclaw's own metadata."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".memclaw" not in p.relative_to(folder).parts
    }
