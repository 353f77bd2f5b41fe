"""Recognisable secrets for leak tests, and a grep over every byte a workspace holds.

The secrets are built by concatenation so that this repository never contains a
literal key (a scanner run over the repo must stay quiet).
"""

from __future__ import annotations

import os
from pathlib import Path

GITHUB = "ghp_" + "Zq8Lm2Xv7Rt4Nw1Kb6Yc9Pd3Hf5Js0Ga8Ue2Wi"
OPENAI = "sk-" + "Tb7Qx2Mv9Lr4Kn8Wd1Hc6Zp3Jf5Gs0Ya7Ue2Ri9Ow4Nt1Bx6Cm"
SECRETS = (GITHUB, OPENAI)


def _needles(secret: str) -> list[bytes]:
    # The index stores tokens: case-folded, split at '_' and '-'; the body alone is enough.
    body = secret.split("_", 1)[-1] if secret.startswith("ghp_") else secret.split("-", 1)[-1]
    return [secret.encode(), body.encode(), body.lower().encode()]


def leaks(root: Path, secrets: tuple[str, ...] = SECRETS) -> list[str]:
    """Every file under ``root`` (symlinks not followed) whose raw bytes hold a secret."""
    found = []
    for folder, dirs, files in os.walk(root):
        for name in files:
            path = Path(folder) / name
            if path.is_symlink():
                continue
            data = path.read_bytes()
            if any(needle in data for s in secrets for needle in _needles(s)):
                found.append(path.relative_to(root).as_posix())
        dirs.sort()
    return sorted(found)
