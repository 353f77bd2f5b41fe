"""The workspace layer: agents, scopes, safe paths, atomic writes, locks, sections, history.

``guard`` is the one door for machine rewrites of PROFILE.md and MEMORY.md
(extraction, dreaming): it refuses one that drops too much of what a person wrote.

May import: config, errors, clock, gates, text.
"""

from memclaw.workspace.agent import Agent, FileInfo, WriteResult, WriteStrategy
from memclaw.workspace.entries import Entry
from memclaw.workspace.owners import OwnerKey, Visibility, normalise_owner
from memclaw.workspace.root import Workspace
from memclaw.workspace.scope import Scope

__all__ = [
    "Agent",
    "Entry",
    "FileInfo",
    "OwnerKey",
    "Scope",
    "Visibility",
    "Workspace",
    "WriteResult",
    "WriteStrategy",
    "normalise_owner",
]
