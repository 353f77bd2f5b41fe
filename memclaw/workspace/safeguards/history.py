"""Previous versions of rewritten files, so any rewrite can be undone.

Stored under ``.memclaw/history/<relative path>/<timestamp>.md``; the newest
:data:`KEEP` versions of each file are kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from memclaw.workspace.atomic import atomic_write

if TYPE_CHECKING:
    from memclaw.workspace.folder import Folder


KEEP = 20


def folder(agent: Folder, rel: str) -> Path:
    return agent.meta_dir / "history" / rel


def save(agent: Folder, rel: str, text: str) -> Path:
    """Store ``text`` as the newest previous version of ``rel``; caller holds the lock.

    The text goes through the secret gate: a credential typed into a file by hand
    must not outlive the rewrite that removed it (undo brings back the rest).
    """
    from memclaw.gates import redact

    text = redact(text)
    target = folder(agent, rel)
    stamp = agent.now().strftime("%Y%m%dT%H%M%S%f")
    # Two rewrites within one clock tick (a fixed clock in tests, a coarse clock) get
    # increasing sequence numbers, so the newest always sorts first.
    same_tick = [_order(p)[1] for p in versions(agent, rel) if _order(p)[0] == stamp]
    path = target / (f"{stamp}-{max(same_tick) + 1}.md" if same_tick else f"{stamp}.md")
    atomic_write(path, text)
    for stale in versions(agent, rel)[KEEP:]:
        stale.unlink(missing_ok=True)
    return path


def versions(agent: Folder, rel: str) -> list[Path]:
    """Previous versions of ``rel``, newest first."""
    target = folder(agent, rel)
    if not target.is_dir():
        return []
    return sorted(target.glob("*.md"), key=_order, reverse=True)


def _order(path: Path) -> tuple[str, int]:
    """(timestamp, sequence): ``<stamp>.md`` is sequence 0, ``<stamp>-<n>.md`` is n."""
    stamp, _, seq = path.stem.partition("-")
    return stamp, int(seq) if seq.isdigit() else 0
