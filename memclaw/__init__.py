"""memclaw: long-term memory for AI agents, kept in plain markdown files.

The public API, for a program that embeds memclaw::

    import memclaw

    ws = memclaw.open_workspace("workspaces")
    maya = memclaw.Scope.resolve(ws.agent("demo"), "user:maya")
    memclaw.remember(maya, "Maya prefers tea over coffee")
    for hit in memclaw.search(ws, "tea", owner=maya.owner):
        print(hit.file, hit.line, hit.snippet)
    memclaw.extract_conversation(maya, [{"role": "user", "content": "I moved to Lisbon."}] * 3)
    memclaw.dream_agent(maya)
    backup = memclaw.export_snapshot(ws.agent("demo")).data
    memclaw.import_snapshot(ws, "demo-copy", memclaw.read_snapshot(backup))

Names are imported on first use, so ``import memclaw`` stays cheap (the
``memclaw search`` command starts without loading the rest). They are the
library's own functions, so their names never shadow a subpackage.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from memclaw.dream.run import dream_agent as dream_agent
    from memclaw.entries.forgetting import forget as forget
    from memclaw.entries.lookup import list_memories as list_memories
    from memclaw.entries.memories import remember as remember
    from memclaw.extract.pipeline import extract_conversation as extract_conversation
    from memclaw.index.search import search as search
    from memclaw.snapshot import export_snapshot as export_snapshot
    from memclaw.snapshot import import_snapshot as import_snapshot
    from memclaw.snapshot import read_snapshot as read_snapshot
    from memclaw.workspace import Agent as Agent
    from memclaw.workspace import Scope as Scope
    from memclaw.workspace import Workspace as Workspace
    from memclaw.workspace import normalise_owner as normalise_owner

    open_workspace = Workspace.open


# name -> (module, attribute)
_EXPORTS = {
    "Agent": ("memclaw.workspace", "Agent"),
    "Scope": ("memclaw.workspace", "Scope"),
    "Workspace": ("memclaw.workspace", "Workspace"),
    "normalise_owner": ("memclaw.workspace", "normalise_owner"),
    "search": ("memclaw.index.search", "search"),
    "remember": ("memclaw.entries.memories", "remember"),
    "forget": ("memclaw.entries.forgetting", "forget"),
    "list_memories": ("memclaw.entries.lookup", "list_memories"),
    "extract_conversation": ("memclaw.extract.pipeline", "extract_conversation"),
    "dream_agent": ("memclaw.dream.run", "dream_agent"),
    "export_snapshot": ("memclaw.snapshot", "export_snapshot"),
    "import_snapshot": ("memclaw.snapshot", "import_snapshot"),
    "read_snapshot": ("memclaw.snapshot", "read_snapshot"),
}

__all__ = sorted([*_EXPORTS, "open_workspace", "__version__"])


def __getattr__(name: str) -> Any:
    if name == "open_workspace":
        from memclaw.workspace import Workspace

        # Settings come from the root's memclaw.yaml, the user's config and MEMCLAW_* variables.
        return Workspace.open
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'memclaw' has no attribute {name!r}")
    return getattr(importlib.import_module(target[0]), target[1])
