"""Damage a real index file the ways disks and crashes do, for the self-healing tests."""

import os
import random
from pathlib import Path

KINDS = ("zeroed", "truncated", "random")
PAGE = 4096


def filler(days: int = 40, lines: int = 60) -> dict[str, str]:
    """Daily notes big enough for an index of a few hundred pages."""
    rnd = random.Random(7)
    words = [
        "cutover",
        "replica",
        "backfill",
        "rollback",
        "dashboard",
        "deploy",
        "ferry",
        "harbour",
        "permit",
    ]
    return {
        f"memory/2026-10-{day + 1:02d}.md"
        if day < 31
        else f"memory/2026-11-{day - 30:02d}.md": "".join(
            f"- {' '.join(rnd.choices(words, k=7))} item {day}-{i}\n" for i in range(lines)
        )
        for day in range(days)
    }


def damage(path: Path, kind: str) -> None:
    """Zero pages past the header, cut the file in half, or replace it by random bytes."""
    size = path.stat().st_size
    assert size > 40 * PAGE, "the index is too small to damage convincingly"
    for suffix in ("-wal", "-shm"):
        assert not Path(f"{path}{suffix}").exists(), "the index was not closed cleanly"
    if kind == "zeroed":
        with open(path, "r+b") as handle:
            for offset in (PAGE, 2 * PAGE, size // 2, size - 2 * PAGE):
                handle.seek(offset)
                handle.write(b"\0" * PAGE)
    elif kind == "truncated":
        os.truncate(path, size // 2)
    elif kind == "random":
        path.write_bytes(random.Random(3).randbytes(size))
    else:
        raise ValueError(kind)


def corrupt_copies(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.corrupt-*"))
