"""Whose memory a call reads and writes: an agent, an owner or none, and what follows.

A ``Scope`` is resolved once at the edge (a CLI command, a chat, a tool call)
from the raw identity a person or host gave, and passed inward. Everything
that depends on whose memory it is comes from it: the folder files live in,
the label that names the scope in locks and logs, and what a reader may see.
Library code below the edge never sees a raw owner string.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.workspace.agent import Agent, Editing, FileInfo, WriteResult, WriteStrategy
from memclaw.workspace.owners import (
    OWNERS_DIR,
    OwnerKey,
    Visibility,
    migrate_owner_folders,
    normalise_owner,
    owner_dirname,
)
from memclaw.workspace.paths import resolve_inside
from memclaw.workspace.safeguards.provenance import Author

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

TEAM_LABEL = "team"


@dataclass(frozen=True)
class Scope:
    """One agent's memory as seen by one owner (``owner`` None: the agent's operator, TEAM).

    With owner isolation off an owner shares the TEAM memory: ``owner`` is kept
    (logs still say who spoke) but ``visibility`` is TEAM and ``prefix`` empty.
    """

    agent: Agent
    owner: OwnerKey | None = None

    @classmethod
    def resolve(cls, agent: Agent, identity: str | None) -> Scope:
        """The edge's door: normalise a raw identity (``alice``, ``telegram:42``) once."""
        if identity is None:
            return cls(agent)
        owner = normalise_owner(identity)
        migrate_owner_folders(agent)  # an old folder name may be another owner's on this disk
        return cls(agent, owner)

    def for_owner(self, owner: OwnerKey | None) -> Scope:
        return Scope(self.agent, owner)

    def for_agent(self, agent_id: str) -> Scope:
        """Another agent of the same root, seen by the same owner (never another owner)."""
        if agent_id == self.agent.id:
            return self
        return Scope(self.agent.workspace.agent(agent_id), self.owner)

    def for_session(self, session_id: str | None) -> Scope:
        """The scope a session key names: ``agent:<id>:…`` is agent ``<id>``, same owner.

        Plain ids and ``agent:main:…`` stay with this scope's agent; a subagent's
        key names its parent, whose memory it recalls.
        """
        from memclaw.gates.session_key import parse_session_key

        return self.for_agent(parse_session_key(session_id).agent_or(self.agent.id))

    @property
    def personal(self) -> bool:
        return self.owner is not None and self.agent.settings.owner_isolation

    @property
    def visibility(self) -> Visibility:
        return Visibility.PERSONAL if self.personal else Visibility.TEAM

    @property
    def prefix(self) -> str:
        """Folder, relative to the agent and ending in '/', where this scope's files live."""
        return f"{OWNERS_DIR}/{owner_dirname(self.owner)}/" if self.personal and self.owner else ""

    @property
    def folder(self) -> Path:
        return self.agent.path / self.prefix

    @property
    def label(self) -> str:
        """Names the scope in lock files, state files and logs: 'team' or the owner's folder."""
        return owner_dirname(self.owner) if self.personal and self.owner else TEAM_LABEL

    def summaries(self) -> Path:
        """The folder of this scope's chat summary caches, one file per session. A folder
        per scope: no owner's name is a prefix of another's folder, as it may be of a name."""
        return self.agent.meta_dir / "summaries" / (self.label if self.personal else "_team")

    @property
    def input_history(self) -> str:
        """The ledger's document of what the person typed in this scope's chats."""
        return "chat-history/" + (self.label if self.personal else "_team")

    def rel(self, name: str) -> str:
        return self.prefix + name

    def file(self, name: str) -> Path:
        return resolve_inside(self.agent.path, self.prefix + name)

    def log_fields(self) -> dict[str, Any]:
        """What a log record says about whose memory it was."""
        return {"owner": self.owner, "scope": str(self.visibility)}

    # --- reading and writing this scope's files, through the agent's one door -----------

    def read(self, name: str) -> str:
        return self.agent.read(self.prefix + name)

    def list_files(self, prefix: str = "") -> list[FileInfo]:
        return self.agent.list_files(prefix, base=self.prefix)

    def write(
        self,
        name: str,
        content: str,
        strategy: WriteStrategy | None = None,
        *,
        section: str | None = None,
        key: str | None = None,
        author: Author = Author.PERSON,
    ) -> WriteResult:
        return self.agent.write(
            self.prefix + name,
            content,
            strategy or WriteStrategy.OVERWRITE,
            section=section,
            key=key,
            author=author,
        )

    def update(
        self,
        name: str,
        transform: Callable[[str], str],
        *,
        introduced: str,
        author: Author = Author.PERSON,
    ) -> WriteResult:
        return self.agent.update(
            self.prefix + name, transform, introduced=introduced, author=author
        )

    def editing(self) -> AbstractContextManager[Editing]:
        """One hold of the agent lock for a read-modify-write of several of this scope's files."""
        return self.agent.editing(self.prefix)

    def append_daily(
        self, text: str, *, day: date | None = None, heading: str | None = None
    ) -> WriteResult:
        return self.agent.append_daily(text, folder=self.prefix, day=day, heading=heading)
