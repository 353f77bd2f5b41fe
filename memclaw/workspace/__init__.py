"""The workspace layer: agents, scopes, safe paths, atomic writes, locks, sections, history.

May import: config, errors, clock, gates, text.
"""

from memclaw.workspace.agent import Agent, FileInfo, Workspace, WriteResult, WriteStrategy
from memclaw.workspace.entries import Entry
from memclaw.workspace.owners import OwnerKey, Visibility, normalise_owner
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
