"""Previous versions of rewritten files, so any rewrite can be undone.

Stored under ``.memclaw/history/<relative path>/<timestamp>.md``; the newest
:data:`KEEP` versions of each file are kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from memclaw.errors import WorkspaceError
from memclaw.workspace.atomic import atomic_write

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent, WriteResult

KEEP = 20


def folder(agent: Agent, rel: str) -> Path:
    return agent.meta_dir / "history" / rel


def save(agent: Agent, rel: str, text: str) -> Path:
    """Store ``text`` as the newest previous version of ``rel``; caller holds the lock."""
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


def versions(agent: Agent, rel: str) -> list[Path]:
    """Previous versions of ``rel``, newest first."""
    target = folder(agent, rel)
    if not target.is_dir():
        return []
    return sorted(target.glob("*.md"), key=_order, reverse=True)


def _order(path: Path) -> tuple[str, int]:
    """(timestamp, sequence): ``<stamp>.md`` is sequence 0, ``<stamp>-<n>.md`` is n."""
    stamp, _, seq = path.stem.partition("-")
    return stamp, int(seq) if seq.isdigit() else 0


def restore(agent: Agent, name: str, owner: str | None = None) -> WriteResult:
    """Put back the newest previous version of ``name`` (the current one is kept too)."""
    from memclaw.workspace.agent import WriteStrategy

    rel = agent.owner_prefix(owner) + name
    found = versions(agent, rel)
    if not found:
        raise WorkspaceError(f"{rel} has no previous version to restore")
    previous = found[0].read_text(encoding="utf-8")
    found[0].unlink()
    result = agent.write(name, previous, WriteStrategy.OVERWRITE, owner=owner)
    # The write saved the version we just replaced; that is the redo point.
    return result
