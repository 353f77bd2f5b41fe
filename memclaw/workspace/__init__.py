"""The workspace layer: agents, scopes, safe paths, atomic writes, locks, sections, history.

``guard`` is the one door for machine rewrites of PROFILE.md and MEMORY.md
(extraction, dreaming): it refuses one that drops too much of what a person wrote.

The names below are imported on first use, so that a module that needs one light
submodule (``memclaw.workspace.paths``, on every search) does not load the writing
machinery (safeguards, sections, entries) along with it.

May import: config, errors, clock, gates, text.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent as Agent
    from memclaw.workspace.agent import FileInfo as FileInfo
    from memclaw.workspace.agent import Workspace as Workspace
    from memclaw.workspace.agent import WriteResult as WriteResult
    from memclaw.workspace.agent import WriteStrategy as WriteStrategy
    from memclaw.workspace.entries import Entry as Entry
    from memclaw.workspace.owners import OwnerKey as OwnerKey
    from memclaw.workspace.owners import Visibility as Visibility
    from memclaw.workspace.owners import normalise_owner as normalise_owner
    from memclaw.workspace.scope import Scope as Scope

# name -> the module that defines it
_HOMES = {
    "Agent": "memclaw.workspace.agent",
    "FileInfo": "memclaw.workspace.agent",
    "WriteResult": "memclaw.workspace.agent",
    "WriteStrategy": "memclaw.workspace.agent",
    "Entry": "memclaw.workspace.entries",
    "OwnerKey": "memclaw.workspace.owners",
    "Visibility": "memclaw.workspace.owners",
    "normalise_owner": "memclaw.workspace.owners",
    "Workspace": "memclaw.workspace.agent",
    "Scope": "memclaw.workspace.scope",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        # Not one of ours: ``from memclaw.workspace import atomic`` then imports the submodule.
        raise AttributeError(f"module 'memclaw.workspace' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
