"""A file's blocks survive the compressed pack exactly, whatever their text holds."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from memclaw.index.blocks import split_blocks
from memclaw.index.schema import migrate
from memclaw.index.storage import packs

DOC = """# Trip › plans

- Ana: we booked the ferry\x1e to Umeå for 3 June
  and a cabin with two beds
- Ben: 🚲 bikes ride free

| who | pays |
|-----|------|
| Ana | ferry |

```
code\x1fwith a unit separator
```

As of 2026-11-02 the kayak is red.
"""


def test_a_pack_gives_back_every_block_as_stored() -> None:
    blocks = packs.stored(split_blocks(DOC, "memory/2026-11-28.md"), 7 << 40)
    assert any(b.extra for b in blocks) and any("\x1e" in b.text for b in blocks)
    unpacked = packs.FilePack(packs.pack(blocks), 7 << 40)
    assert unpacked.blocks() == blocks
    assert [b.hash for b in unpacked.blocks()] == [
        b.hash for b in split_blocks(DOC, "memory/2026-11-28.md")
    ]
    with pytest.raises(KeyError):
        unpacked.block((7 << 40) + len(blocks))


def test_a_pack_larger_than_a_chunk_is_written_and_read_back(tmp_path: Path) -> None:
    words = ["kayak", "ferry", "Umeå", "permit", "harbour", "sourdough", "physio"]
    rng = random.Random(3)
    text = "\n".join(
        f"- {' '.join(rng.choice(words) for _ in range(8))} {rng.random()}" for _ in range(400)
    )
    blocks = packs.stored(split_blocks(text), 1 << 40)
    conn = sqlite3.connect(tmp_path / "index.sqlite")
    migrate(conn)
    assert len(packs.pack(blocks)) > 4 * packs.CHUNK
    packs.write(conn, 5, blocks)
    packs.write(conn, 6, blocks[:3])
    rows = conn.execute("SELECT count(*), max(length(data)) FROM packs").fetchone()
    assert rows[0] > 5 and rows[1] <= packs.CHUNK
    got = packs.read(conn, 5, 1 << 40)
    assert got is not None and got.blocks() == blocks
    packs.write(conn, 5, blocks[:2])  # rewritten shorter: no chunk of the old pack is left
    got = packs.read(conn, 5, 1 << 40)
    assert got is not None and got.blocks() == blocks[:2]
    packs.delete(conn, 5)
    assert packs.read(conn, 5, 1 << 40) is None
    other = packs.read(conn, 6, 1 << 40)
    assert other is not None and other.blocks() == blocks[:3]
