"""Several reads and writes of one agent's files under one hold of its lock.

:meth:`Agent.editing` yields an :class:`Editing`; :meth:`Agent.update` is the
one-file case. Whatever is read through it and written back through it cannot
be undone by another writer in between, since every writer takes the same lock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memclaw.workspace.safeguards.provenance import Author

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent, WriteResult


class Editing:
    """Reads and writes of one agent's files while :meth:`Agent.editing` holds its lock.

    Names are relative to ``prefix`` (a scope's folder, '' for the agent's own).
    """

    def __init__(self, agent: Agent, prefix: str = "") -> None:
        self.agent = agent
        self.prefix = prefix
        self.closed = False

    def _rel(self, name: str) -> str:
        if self.closed:
            raise RuntimeError("this edit is over: the agent lock was released")
        return self.prefix + name

    def read_existing(self, name: str) -> str | None:
        """The text of ``name``, or None when the file does not exist."""
        rel = self._rel(name)
        return self.agent.read(rel) if self.agent.file(rel).exists() else None

    def read(self, name: str) -> str:
        return self.read_existing(name) or ""

    def put(
        self,
        name: str,
        old: str | None,
        new: str,
        *,
        introduced: str | None,
        author: Author = Author.PERSON,
        established: frozenset[str] = frozenset(),
    ) -> WriteResult:
        """Write ``new`` over ``old`` as read in this edit.

        ``introduced`` (the text that is new) is checked for secrets; None when
        the caller checked it already. ``established``: see ``ceiling.plan``.
        """
        return self.agent._put(self._rel(name), old, new, author, introduced, established)

    def write(
        self, name: str, new: str, *, introduced: str, author: Author = Author.PERSON
    ) -> WriteResult:
        """Replace ``name`` with ``new``; ``introduced`` (the new text) must hold no secret."""
        return self.put(name, self.read_existing(name), new, introduced=introduced, author=author)
