"""Every way a snapshot can be refused: one clear line, and nothing read past a limit."""

from __future__ import annotations

import json
import stat
import warnings
import zipfile
from collections.abc import Iterator

import pytest

from memclaw.errors import SnapshotError
from memclaw.snapshot import ManifestKind, read_snapshot, read_source

from .helpers import manifest_for, patch, patch_sizes, raw_zip, snapshot_zip, special, symlink

GOOD = {"MEMORY.md": b"# Memory\n", "memory/2026-11-15.md": b"# 2026-11-15\n"}
MB = 1024 * 1024


def rejected(data: bytes, match: str) -> str:
    with pytest.raises(SnapshotError, match=match) as caught:
        read_snapshot(data)
    message = str(caught.value)
    assert message.startswith("snapshot rejected: ")
    assert "\n" not in message
    return message


@pytest.fixture
def produced(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the bytes zipfile hands out while decompressing."""
    counter = [0]
    original = zipfile.ZipExtFile.read

    def counting(self: zipfile.ZipExtFile, n: int = -1) -> bytes:
        data = original(self, n)
        counter[0] += len(data)
        return data

    monkeypatch.setattr(zipfile.ZipExtFile, "read", counting)
    yield counter


def test_a_good_snapshot_passes() -> None:
    snapshot = read_snapshot(snapshot_zip(GOOD))
    assert snapshot.kind is ManifestKind.MEMCLAW
    assert {f.path: f.data for f in snapshot.files} == GOOD
    assert snapshot.skipped == []


def test_other_names_are_skipped_and_listed() -> None:
    extra = [
        ("notes.txt", b"hi"),
        (".memclaw/agent.yaml", b"files: {}\n"),
        ("sessions/s1.jsonl", b"{}\n"),
        ("memory/2026-02-30.md", b"no such day\n"),
        ("entries/Upper.md", b"bad category\n"),
        ("owners/not valid/MEMORY.md", b"bad owner folder\n"),
        ("memory.md", b"lower-case copy is not a core file\n"),
    ]
    # memory.md and MEMORY.md would collide by case, so leave MEMORY.md out here.
    snapshot = read_snapshot(snapshot_zip({"PROFILE.md": b"# P\n"}, extra))
    assert [f.path for f in snapshot.files] == ["PROFILE.md"]
    reasons = {s.path: s.reason for s in snapshot.skipped}
    assert set(reasons) == {name for name, _ in extra}
    assert reasons["memory/2026-02-30.md"] == "daily note name is not a real date"
    assert reasons["owners/not valid/MEMORY.md"] == "not a valid owner folder"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("/etc/MEMORY.md", "absolute"),
        ("C:/MEMORY.md", "absolute"),
        ("../MEMORY.md", r"'\.\.'"),
        ("memory/../../x.md", r"'\.\.'"),
        ("memory\\2026-11-15.md", "backslash"),
        ("MEMORY\x01.md", "control"),
        ("./MEMORY.md", "empty or '.'"),
        ("memory//2026-11-15.md", "empty or '.'"),
        ("entries/" + "a" * 250 + ".md", "longer than 200 bytes"),
        ("entries/" + "a" * 300 + ".md", "longer than 200 bytes"),
        ("owners/user%3Aalice/entries/" + "é" * 110 + ".md", "longer than 200 bytes"),
        ("memory/２０２６-１２-０１.md", "non-ASCII digits"),
        ("memory/٢٠٢٦-١٢-٠١.md", "non-ASCII digits"),
        ("owners/user%3Aalice/memory/۲۰۲۶-۱۲-۰۱.md", "non-ASCII digits"),
    ],
)
def test_unsafe_names_reject_the_whole_zip(name: str, reason: str) -> None:
    rejected(snapshot_zip(GOOD, [(name, b"x\n")]), reason)


def test_nul_in_a_name_is_caught() -> None:
    data = snapshot_zip(GOOD, [("DREAMSXmd", b"x\n")])
    rejected(patch(data, b"DREAMSXmd", b"DREAMS\x00md"), "control")


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        (stat.S_IFLNK | 0o777, "symbolic link"),
        (stat.S_IFIFO | 0o644, "device, pipe"),
        (stat.S_IFCHR | 0o644, "device, pipe"),
        (stat.S_IFBLK | 0o644, "device, pipe"),
        (stat.S_IFDIR | 0o755, "folder disguised"),
    ],
)
def test_special_entries(mode: int, reason: str) -> None:
    rejected(snapshot_zip(GOOD, [(special("DREAMS.md", mode), b"/etc/passwd")]), reason)


def test_symlink_over_a_whitelisted_name() -> None:
    data = snapshot_zip({"MEMORY.md": b"# M\n"}, [(symlink("PROFILE.md"), b"../../secret")])
    rejected(data, "symbolic link")


def test_duplicate_names() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = snapshot_zip(GOOD, [("MEMORY.md", b"# other\n")])
    rejected(data, "appears twice")


def test_names_differing_by_case() -> None:
    rejected(snapshot_zip(GOOD, [("Memory.md", b"# other\n")]), "letter case")


def test_file_that_is_also_a_folder() -> None:
    rejected(snapshot_zip(GOOD, [("memory", b"a file\n")]), "both a file and a folder")
    rejected(snapshot_zip(GOOD, [("MEMORY.md/", b"")]), "both a file and a folder")


def test_plain_folder_entries_are_ignored() -> None:
    data = snapshot_zip(GOOD, [("memory/", b"")])
    assert [f.path for f in read_snapshot(data).files] == sorted(GOOD)


def test_entry_count_limit() -> None:
    extra = [(f"junk/{i}.txt", b"") for i in range(500 - 1 - len(GOOD))]
    assert len(read_snapshot(snapshot_zip(GOOD, extra)).skipped) == len(extra)
    rejected(snapshot_zip(GOOD, [*extra, ("junk/one-more.txt", b"")]), "501 entries")


def test_file_over_one_megabyte() -> None:
    rejected(snapshot_zip({"MEMORY.md": b"a" * (MB + 1)}), "MEMORY.md is larger than 1 MB")


def test_total_over_sixteen_megabytes(produced: list[int]) -> None:
    files = {f"memory/2026-01-{day:02d}.md": b"b" * MB for day in range(1, 18)}
    rejected(snapshot_zip(files), "more than 16 MB")
    assert produced[0] <= 16 * MB + 64 * 1024


def test_bomb_is_stopped_early(produced: list[int]) -> None:
    bomb = b"\0" * (50 * MB)
    data = snapshot_zip({"MEMORY.md": bomb})
    assert len(data) < MB  # a high-ratio bomb: tiny zip, 50 MB inside
    rejected(data, "larger than 1 MB")
    assert produced[0] <= MB + 128 * 1024


def test_header_that_understates_the_size(produced: list[int]) -> None:
    data = patch_sizes(snapshot_zip({"MEMORY.md": b"\0" * (20 * MB)}), "MEMORY.md", 10)
    rejected(data, "corrupt")
    assert produced[0] <= MB


def test_header_that_overstates_the_size(produced: list[int]) -> None:
    data = patch_sizes(snapshot_zip({"MEMORY.md": b"\0" * (20 * MB)}), "MEMORY.md", 2**32 - 1)
    rejected(data, "larger than 1 MB")
    assert produced[0] <= MB + 128 * 1024


def test_not_utf8() -> None:
    rejected(snapshot_zip({"MEMORY.md": b"caf\xe9\n"}), r"MEMORY.md is not UTF-8 text \(byte 3\)")


def test_hash_mismatch() -> None:
    manifest = manifest_for(GOOD)
    manifest["files"][0]["sha256"] = "0" * 64
    rejected(snapshot_zip(GOOD, manifest=manifest), "does not match its sha256")


def test_size_mismatch() -> None:
    manifest = manifest_for(GOOD)
    manifest["files"][0]["size"] += 1
    rejected(snapshot_zip(GOOD, manifest=manifest), "manifest.json says")


def test_file_missing_from_the_manifest() -> None:
    manifest = manifest_for({"MEMORY.md": GOOD["MEMORY.md"]})
    rejected(snapshot_zip(GOOD, manifest=manifest), "in the zip but not in manifest.json")


def test_file_missing_from_the_zip() -> None:
    manifest = manifest_for({**GOOD, "SOUL.md": b"# S\n"})
    rejected(snapshot_zip(GOOD, manifest=manifest), "does not hold it")


def test_missing_manifest() -> None:
    rejected(raw_zip(list(GOOD.items())), "no manifest.json")


@pytest.mark.parametrize(
    ("manifest", "reason"),
    [
        (b"{not json", "not valid UTF-8 JSON"),
        (b"[1, 2]", "JSON object"),
        (json.dumps({"format": "something-else"}).encode(), "not a memory snapshot"),
        (json.dumps({"format": "memclaw-snapshot", "format_version": 3}).encode(), "newer"),
        (json.dumps({"format": "memclaw-snapshot", "format_version": 1}).encode(), "'files'"),
        (
            json.dumps({"format": "memclaw-snapshot", "format_version": 1, "files": [{}]}).encode(),
            "needs a path",
        ),
        (json.dumps({"files": [{"name": "MEMORY.md", "md5": "x"}]}).encode(), "checksums"),
        (b"[" * 5000 + b"]" * 5000, "nested deeper than 64 levels"),
        (b'{"format": "memclaw-snapshot", "files": ' + b"[" * 5000 + b"]" * 5000 + b"}", "deeper"),
    ],
)
def test_bad_manifests(manifest: bytes, reason: str) -> None:
    rejected(raw_zip([("manifest.json", manifest), *GOOD.items()]), reason)


def test_truncated_zip() -> None:
    data = snapshot_zip(GOOD)
    rejected(data[: len(data) // 2], "not a valid zip file")
    rejected(b"", "not a valid zip file")


def test_corrupt_member() -> None:
    text = b"The quick brown fox jumps over the lazy dog. " * 40
    data = raw_zip(
        [
            ("manifest.json", json.dumps(manifest_for({"MEMORY.md": text})).encode()),
            ("MEMORY.md", text),
        ],
        compression=zipfile.ZIP_STORED,
    )
    rejected(patch(data, b"lazy dog. The", b"lazy cat. The"), "corrupt")


def test_unsupported_compression() -> None:
    data = raw_zip(
        [("manifest.json", json.dumps(manifest_for(GOOD)).encode()), *GOOD.items()],
        compression=zipfile.ZIP_BZIP2,
    )
    rejected(data, "only stored and deflate")


def test_secret_names_file_and_line() -> None:
    leaked = b"# Memory\n- deploy key\nOPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z\n"
    rejected(
        snapshot_zip({"MEMORY.md": leaked}),
        r"MEMORY.md line 3 holds what looks like a secret \(openai_key\)",
    )


def test_foreign_manifest_without_hashes_is_accepted() -> None:
    manifest = {"agentId": 1, "agentName": "Mate", "files": ["MEMORY.md", "SOUL.md"]}
    data = raw_zip([("manifest.json", json.dumps(manifest).encode()), *GOOD.items()])
    snapshot = read_snapshot(data)
    assert snapshot.kind is ManifestKind.FOREIGN
    assert snapshot.source_agent == "Mate"
    # ...but every other guard still applies.
    bad = raw_zip([("manifest.json", json.dumps(manifest).encode()), ("../x.md", b"x")])
    rejected(bad, r"'\.\.'")


def test_stdin_is_capped() -> None:
    import io

    with pytest.raises(SnapshotError, match="larger than 32 MB"):
        read_source(io.BytesIO(b"\0" * (32 * MB + 1)))
