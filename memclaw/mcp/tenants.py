"""One HTTP server, many end users: each bearer token speaks for one owner.

``memclaw mcp --http PORT --owner-tokens FILE`` reads lines ``OWNER TOKEN``
(``user:alice 6f1c…``; ``#`` starts a comment). A request's token picks whose
personal memory its tools see; the operator's token (``MEMCLAW_MCP_TOKEN``)
keeps the server's own ``--owner``. A request may name its end user
(``endUserId``, as the Mem0 plugin does), but only the one its token is bound to:
the body alone is never trusted, so one user's memory stays out of another's reach.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memclaw.errors import UsageError
from memclaw.mcp.catalogue import MemoryTools
from memclaw.workspace import normalise_owner
from memclaw.workspace.owners import OwnerKey
from memclaw.workspace.scope import Scope

END_USER = "endUserId"
MIN_TOKEN_CHARS = 16  # a guessable token would open a person's memory to anyone


def load_owner_tokens(path: Path) -> dict[str, OwnerKey]:
    """token -> owner key, from a file of ``OWNER TOKEN`` lines; one clear line on bad input."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read --owner-tokens {path}: {exc}") from None
    found: dict[str, OwnerKey] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2:
            raise UsageError(f"{path}:{number}: write one 'OWNER TOKEN' pair per line")
        owner, token = normalise_owner(parts[0]), parts[1]
        if len(token) < MIN_TOKEN_CHARS:
            raise UsageError(
                f"{path}:{number}: the token is too short (at least {MIN_TOKEN_CHARS} characters)"
            )
        if token in found:
            raise UsageError(f"{path}:{number}: the same token is given to two owners")
        found[token] = owner
    if not found:
        raise UsageError(f"{path} names no owner: write 'OWNER TOKEN' lines")
    return found


@dataclass
class Tenants:
    """The tool runner of each request: the operator's, or the one its token's owner has."""

    operator: MemoryTools
    owners: dict[str, OwnerKey] = field(default_factory=dict)  # token -> owner key
    _tools: dict[OwnerKey, MemoryTools] = field(default_factory=dict, init=False, repr=False)

    def tokens(self) -> list[str]:
        return list(self.owners)

    def owner_of(self, authorization: str) -> OwnerKey | None:
        """The owner a ``Bearer`` header's token is bound to (None: the operator's, or none)."""
        given = authorization.removeprefix("Bearer ").strip()
        for token, owner in self.owners.items():
            if hmac.compare_digest(given.encode(), token.encode()):
                return owner
        return None

    def pick(self, authorization: str, arguments: Any) -> MemoryTools:
        """The tools for this request; takes ``endUserId`` out of ``arguments`` once checked."""
        owner = self.owner_of(authorization)
        if isinstance(arguments, dict) and END_USER in arguments:
            asked = arguments.pop(END_USER)
            if owner is None or normalise_owner(str(asked)) != owner:
                raise UsageError(
                    f"{END_USER} is honoured only with that user's own token; "
                    "this request's token does not speak for them"
                )
        if owner is None:
            return self.operator
        if owner not in self._tools:
            base = self.operator
            scope = Scope.resolve(base.scope.agent, owner)
            self._tools[owner] = MemoryTools(
                scope, base.session_id, read_only=base.read_only, judge=base.judge
            )
        return self._tools[owner]
