"""Recognisable secrets for leak tests, and a grep over every byte a workspace holds.

The secrets are built by concatenation so that this repository never contains a
literal key (a scanner run over the repo must stay quiet).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

GITHUB = "ghp_" + "Zq8Lm2Xv7Rt4Nw1Kb6Yc9Pd3Hf5Js0Ga8Ue2Wi"
OPENAI = "sk-" + "Tb7Qx2Mv9Lr4Kn8Wd1Hc6Zp3Jf5Gs0Ya7Ue2Ri9Ow4Nt1Bx6Cm"
SECRETS = (GITHUB, OPENAI)


def _needles(secret: str) -> list[bytes]:
    # The index stores tokens: case-folded, split at '_' and '-'; the body alone is enough.
    body = secret.split("_", 1)[-1] if secret.startswith("ghp_") else secret.split("-", 1)[-1]
    return [secret.encode(), body.encode(), body.lower().encode()]


def index_blocks(path: Path) -> bytes:
    """The block text a search index holds, decompressed: its raw bytes hide it."""
    from memclaw.index.storage.packs import visible_blocks

    try:
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return b""
    try:
        return "\n".join(f"{b.text}\n{b.extra or ''}" for _, b in visible_blocks(conn)).encode()
    except sqlite3.Error:
        return b""
    finally:
        conn.close()


def everything_under(root: Path) -> str:
    """Every byte under ``root`` as text, with the blocks of each search index (stored
    compressed, so its raw bytes hide them)."""
    parts = []
    for path in sorted(root.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            if path.name == "index.sqlite":
                data += index_blocks(path)
            parts.append(data.decode("utf-8", "replace"))
    return "".join(parts)


def leaks(root: Path, secrets: tuple[str, ...] = SECRETS) -> list[str]:
    """Every file under ``root`` (symlinks not followed) whose raw bytes hold a secret,
    or, for a search index, whose blocks do."""
    found = []
    for folder, dirs, files in os.walk(root):
        for name in files:
            path = Path(folder) / name
            if path.is_symlink():
                continue
            data = path.read_bytes()
            if name == "index.sqlite":
                data += index_blocks(path)
            if any(needle in data for s in secrets for needle in _needles(s)):
                found.append(path.relative_to(root).as_posix())
        dirs.sort()
    return sorted(found)
