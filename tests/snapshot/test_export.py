from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

import pytest

from memclaw.errors import SnapshotError, UsageError
from memclaw.snapshot import default_filename, export_snapshot, write_snapshot_file
from memclaw.workspace import Workspace, normalise_owner

from .helpers import make_agent

FILES = {
    "AGENTS.md": "# Agents\n",
    "SOUL.md": "# Soul\n",
    "PROFILE.md": "# Profile\n- Name: Maya\n",
    "MEMORY.md": "# Memory\n- Ships on Fridays\n",
    "KNOWLEDGE.md": "# Knowledge\n",
    "DREAMS.md": "# Dreams\n",
    "memory/2026-11-15.md": "# 2026-11-15\nmet Ravi\n",
    "entries/preference.md": "## m-1\nLikes tea\n",
}
NOT_CARRIED = {
    "memory/2026-02-30.md": "not a real date\n",
    "memory/notes.md": "free-form\n",
    "entries/Bad Name.md": "bad category\n",
    "sessions/s1.jsonl": "{}\n",
    "NOTES.md": "an extra file\n",
    "owners/user%3Aalice/MEMORY.md": "# Alice\n",
}


def names(data: bytes) -> list[str]:
    return zipfile.ZipFile(io.BytesIO(data)).namelist()


def read_manifest(data: bytes) -> dict[str, object]:
    loaded: dict[str, object] = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("manifest.json"))
    return loaded


def test_carries_memory_files_only(ws: Workspace) -> None:
    make_agent(ws, "a", {**FILES, **NOT_CARRIED})
    result = export_snapshot(ws.agent("a"))
    assert names(result.data) == ["manifest.json", *sorted(FILES), "state/agent.yaml"]


def test_manifest_lists_path_size_and_hash(ws: Workspace) -> None:
    folder = make_agent(ws, "a", FILES)
    for i, name in enumerate(sorted(FILES)):
        os.utime(folder / name, (1_700_000_000 + i, 1_700_000_000 + i))
    manifest = read_manifest(export_snapshot(ws.agent("a")).data)
    assert manifest["format"] == "memclaw-snapshot"
    assert manifest["format_version"] == 2
    assert manifest["agent"] == "a"
    # "created" is the newest modification time: the content is as of then.
    assert manifest["created"] == "2023-11-14T22:13:27+00:00"
    files = manifest["files"]
    assert isinstance(files, list)
    assert [f["path"] for f in files] == [*sorted(FILES), "state/agent.yaml"]
    profile = next(f for f in files if f["path"] == "PROFILE.md")
    assert profile["size"] == len(FILES["PROFILE.md"].encode())
    assert len(profile["sha256"]) == 64


def test_zip_entries_have_fixed_time_and_mode(ws: Workspace) -> None:
    make_agent(ws, "a", FILES)
    archive = zipfile.ZipFile(io.BytesIO(export_snapshot(ws.agent("a")).data))
    for info in archive.infolist():
        assert info.date_time == (1980, 1, 1, 0, 0, 0)
        assert info.external_attr >> 16 == 0o100644
        assert info.compress_type == zipfile.ZIP_DEFLATED


def test_same_files_give_same_bytes(ws: Workspace) -> None:
    folder = make_agent(ws, "a", FILES)
    first = export_snapshot(ws.agent("a")).data
    # Touching files other than the newest changes nothing at all.
    for name in ("AGENTS.md", "SOUL.md"):
        os.utime(folder / name, (1_000_000_000, 1_000_000_000))
    assert export_snapshot(ws.agent("a")).data == first
    assert export_snapshot(ws.agent("a")).data == first


def test_touching_only_moves_created(ws: Workspace) -> None:
    folder = make_agent(ws, "a", FILES)
    first = export_snapshot(ws.agent("a")).data
    os.utime(folder / "MEMORY.md", (2_000_000_000, 2_000_000_000))
    second = export_snapshot(ws.agent("a")).data
    one, two = read_manifest(first), read_manifest(second)
    assert one["created"] != two["created"]
    assert one["files"] == two["files"]
    a, b = zipfile.ZipFile(io.BytesIO(first)), zipfile.ZipFile(io.BytesIO(second))
    assert all(a.read(name) == b.read(name) for name in FILES)


def test_owner_files_only_when_asked(ws: Workspace) -> None:
    personal = {
        "owners/user%3Aalice/MEMORY.md": "# Alice\n",
        "owners/user%3Aalice/memory/2026-11-20.md": "# 2026-11-20\n",
        "owners/user%3Aalice/entries/rule.md": "## m-2\nno emoji\n",
        "owners/user%3Aalice/notes.md": "not carried\n",
        "owners/telegram%3A42/PROFILE.md": "# Bob\n",
    }
    make_agent(ws, "a", {**FILES, **personal})
    agent = ws.agent("a")
    assert not any(n.startswith("owners/") for n in names(export_snapshot(agent).data))
    alice = [
        n
        for n in names(export_snapshot(agent, [normalise_owner("alice")]).data)
        if n.startswith("owners/")
    ]
    assert alice == [
        "owners/user%3Aalice/MEMORY.md",
        "owners/user%3Aalice/entries/rule.md",
        "owners/user%3Aalice/memory/2026-11-20.md",
    ]
    every = names(export_snapshot(agent, all_owners=True).data)
    assert "owners/telegram%3A42/PROFILE.md" in every
    assert "owners/user%3Aalice/MEMORY.md" in every


def test_unknown_owner_and_conflicting_flags(ws: Workspace) -> None:
    make_agent(ws, "a", FILES)
    with pytest.raises(SnapshotError, match="no personal memory"):
        export_snapshot(ws.agent("a"), [normalise_owner("user:nobody")])
    with pytest.raises(UsageError):
        export_snapshot(ws.agent("a"), [normalise_owner("alice")], all_owners=True)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"x" * (1024 * 1024 + 1), "at most 1 MB"),
        (b"caf\xe9\n", "not UTF-8"),
        (b"key: sk-proj-" + b"Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z" * 2 + b"\n", "secret"),
    ],
)
def test_refuses_what_import_would_refuse(ws: Workspace, content: bytes, message: str) -> None:
    folder = make_agent(ws, "a", FILES)
    (folder / "MEMORY.md").write_bytes(content)
    with pytest.raises(SnapshotError, match=message):
        export_snapshot(ws.agent("a"))


def test_empty_agent_has_nothing_to_export(ws: Workspace) -> None:
    make_agent(ws, "a", {})
    with pytest.raises(SnapshotError, match="no memory files"):
        export_snapshot(ws.agent("a"))


def test_symlink_out_of_the_agent_is_refused(ws: Workspace, tmp_path: Path) -> None:
    folder = make_agent(ws, "a", FILES)
    outside = tmp_path / "outside.md"
    outside.write_text("private\n")
    (folder / "DREAMS.md").unlink()
    (folder / "DREAMS.md").symlink_to(outside)
    with pytest.raises(Exception, match="outside the agent"):
        export_snapshot(ws.agent("a"))


def test_output_file_is_never_clobbered(tmp_path: Path) -> None:
    target = tmp_path / "out" / "snap.zip"
    write_snapshot_file(target, b"one")
    with pytest.raises(UsageError, match="--force"):
        write_snapshot_file(target, b"two")
    assert target.read_bytes() == b"one"
    write_snapshot_file(target, b"two", force=True)
    assert target.read_bytes() == b"two"
    assert target.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in target.parent.iterdir()] == ["snap.zip"]


def test_default_filename_uses_the_clock(ws: Workspace) -> None:
    make_agent(ws, "a", FILES)
    assert default_filename(ws.agent("a")) == "a-memclaw-20261129.zip"
