"""The workspace layer: agents, safe paths, atomic writes, locks, sections, scopes."""

from memclaw.workspace.agent import Agent, FileInfo, Workspace, WriteResult, WriteStrategy
from memclaw.workspace.entries import Entry
from memclaw.workspace.owners import Scope, normalise_owner

__all__ = [
    "Agent",
    "Entry",
    "FileInfo",
    "Scope",
    "Workspace",
    "WriteResult",
    "WriteStrategy",
    "normalise_owner",
]
