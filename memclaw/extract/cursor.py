"""Which turns of a chat session were already extracted, so none is extracted twice.

A chat extracts mid-conversation and again when it ends, and ``memclaw extract
--session`` may run over the same transcript later. Each run that reads a
session records a digest of every user and assistant message it read in the
ledger's ``extracted/<digest>`` document; the next run reads only the messages not
recorded yet. Messages are matched by their text (role and content), counted,
so a repeated "ok" later in the session is still new, and the chat (which
reads only messages with text) and the transcript loader (which also returns
system and tool messages) agree on what was read. Losing the record only means
one extra extraction.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from memclaw.workspace import ledger

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

CURSOR_DIR = "extracted"
READ_ROLES = ("user", "assistant")


def _name(scope: Scope, session_id: str) -> str:
    digest = hashlib.sha256(f"{scope.label}\0{session_id}".encode()).hexdigest()[:24]
    return f"{CURSOR_DIR}/{digest}"


def _key(message: dict[str, str]) -> str:
    # A digest, not the text: the record must not become a second copy of the conversation.
    text = f"{message['role']}\0{' '.join(message['content'].split())}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def _read(scope: Scope, session_id: str) -> Counter[str]:
    data = ledger.load(scope.agent.meta_dir, _name(scope, session_id))[0]
    if not isinstance(data, dict):
        return Counter()
    return Counter({str(k): int(v) for k, v in data.items() if isinstance(v, int)})


def unread(
    scope: Scope, session_id: str, messages: Sequence[dict[str, str]]
) -> list[dict[str, str]]:
    """The user and assistant messages of the session no earlier extraction read, in order."""
    seen = _read(scope, session_id)
    fresh = []
    for message in messages:
        if message["role"] not in READ_ROLES:
            continue
        key = _key(message)
        if seen[key] > 0:
            seen[key] -= 1
            continue
        fresh.append(message)
    return fresh


def to_read(
    scope: Scope, session_id: str | None, messages: Sequence[dict[str, str]], *, again: bool
) -> list[dict[str, str]] | None:
    """What a run should extract: the unread turns, all of them, or None when nothing is new."""
    if session_id is None or again:
        return list(messages)
    fresh = unread(scope, session_id, messages)
    return fresh if any(m["role"] == "user" for m in fresh) else None


def read_already(scope: Scope, session_id: str | None) -> str:
    return (
        f"every turn of session {session_id} was extracted already (to read it all again: "
        f"memclaw extract {scope.agent.id} --session {session_id} --again)"
    )


def mark_read(
    scope: Scope, session_id: str | None, messages: Sequence[dict[str, str]], *, again: bool
) -> None:
    """Record ``messages`` as extracted (``again``: instead of the old record); under the lock."""
    if session_id is None:
        return
    seen = Counter() if again else _read(scope, session_id)
    seen.update(_key(m) for m in messages if m["role"] in READ_ROLES)
    ledger.save(scope.agent.meta_dir, _name(scope, session_id), dict(seen))
