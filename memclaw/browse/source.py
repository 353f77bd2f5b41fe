"""What the browser shows and does, without any Textual: plain data in, plain data out.

Keeping it apart from the widgets means every read and every action the
browser offers is one library call that tests can check on real files, and
the app only lays out and routes keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from memclaw.index.search import search

if TYPE_CHECKING:
    from memclaw.index.rank import Hit
    from memclaw.workspace.scope import Scope

# Search as you type stays cheap: a handful of hits, no recall log for keystrokes.
SEARCH_LIMIT = 20


@dataclass(frozen=True)
class FileRow:
    name: str
    size: int
    injected: bool


class Source:
    """One scope's memory, as the browser's panes need it."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    @property
    def title(self) -> str:
        owner = f" · {self.scope.owner}" if self.scope.owner else ""
        return f"memclaw · {self.scope.agent.id}{owner}"

    def files(self) -> list[FileRow]:
        return [FileRow(f.name, f.size, f.enabled) for f in self.scope.list_files()]

    def read(self, name: str) -> str:
        return self.scope.read(name)

    def path_of(self, name: str) -> str:
        return str(self.scope.file(name))

    def search(self, query: str) -> list[Hit]:
        if not query.strip():
            return []
        return search(
            self.scope.agent.workspace,
            query,
            agents=[self.scope.agent.id],
            owner=self.scope.owner,
            limit=SEARCH_LIMIT,
            log=False,
        )
