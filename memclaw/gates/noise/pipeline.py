"""The noise pipeline: the gates in their fixed order, and the automated-session test."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from memclaw.gates.noise.content import Message, content_text
from memclaw.gates.noise.fragments import strip_noise_fragments
from memclaw.gates.noise.messages import is_generic_assistant_ack, is_noise_message

AUTOMATED_TRIGGERS: Final = frozenset({"cron", "heartbeat", "automation", "schedule"})
TRUNCATION_MARKER: Final = "…"
_KEPT_ROLES: Final = frozenset({"user", "assistant"})


# ---------------------------------------------------------------------------------------------
# Pipeline
# ---------------------------------------------------------------------------------------------


def _truncate(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    keep = max_chars - len(TRUNCATION_MARKER)
    return text[:keep].rstrip() + TRUNCATION_MARKER


def filter_messages(
    messages: Iterable[Message], *, max_chars: int = 2000, max_messages: int = 30
) -> list[dict[str, str]]:
    """Run the full noise pipeline and return ``[{"role", "content"}]`` for user/assistant.

    Order matters: noise is dropped *before* the ``max_messages`` window is applied, so the
    window holds the last useful messages rather than the last heartbeats. Each surviving
    message is at most ``max_chars`` long including the trailing "…" marker.

    Secrets are not redacted here; callers must pass anything they persist through
    :func:`memclaw.gates.secrets.redact`.
    """
    if max_chars < len(TRUNCATION_MARKER) + 1:
        raise ValueError("max_chars must leave room for text and the truncation marker")
    if max_messages < 0:
        raise ValueError("max_messages must be >= 0")
    kept: list[dict[str, str]] = []
    for msg in messages:
        role = msg.get("role")
        if not isinstance(role, str) or role not in _KEPT_ROLES:
            continue
        if is_noise_message(msg) or is_generic_assistant_ack(msg):
            continue
        text = strip_noise_fragments(content_text(msg))
        if not text:
            continue
        kept.append({"role": role, "content": _truncate(text, max_chars)})
    if max_messages == 0:
        return []
    return kept[-max_messages:]


def is_automated_session(trigger: str | None, session_id: str | None) -> bool:
    """True when a run was started by a scheduler rather than a person.

    Recall and capture are skipped for such runs: a cron job's transcript is the agent
    talking to itself, and storing it would fill memory with system-generated noise. Either
    signal suffices: the runtime's trigger name, or a session key such as
    ``agent:main:cron:nightly`` / ``cron:backup``.
    """
    if trigger and trigger.strip().lower() in AUTOMATED_TRIGGERS:
        return True
    if not session_id:
        return False
    sid = session_id.strip().lower()
    for t in AUTOMATED_TRIGGERS:
        if sid == t or sid.startswith(f"{t}:") or f":{t}:" in sid or sid.endswith(f":{t}"):
            return True
    return False
