"""The mark ``memclaw watch`` leaves while it keeps an index current.

The watcher re-indexes every edit within its debounce time, so while it runs a
search need not check anything. It touches ``.memclaw/watching`` every
``HEARTBEAT_S`` seconds and removes it when it stops; a search trusts a mark
younger than ``TRUST_S`` (a watcher killed without cleaning up stops being
trusted that long after its last beat).
"""

from __future__ import annotations

import contextlib
import os
from datetime import datetime
from pathlib import Path

from memclaw.workspace.paths import META_DIR

MARKER = "watching"
HEARTBEAT_S = 2.0
TRUST_S = 3 * HEARTBEAT_S


def marker_path(base: Path) -> Path:
    return base / META_DIR / MARKER


def beat(base: Path) -> None:
    """Create or touch the mark of ``base`` (called by the watcher)."""
    path = marker_path(base)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(f"{os.getpid()}\n")


def clear(base: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        marker_path(base).unlink()


def watched(base: Path, now: datetime) -> bool:
    """True while a watcher's mark on ``base`` is younger than ``TRUST_S``."""
    try:
        beat_at = marker_path(base).stat().st_mtime
    except OSError:
        return False
    return 0 <= now.timestamp() - beat_at < TRUST_S
