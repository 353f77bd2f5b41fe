"""What a host's session key says about a run: whose agent it is, and who is talking.

Multi-agent hosts name sessions ``agent:<agentId>:<uuid>``: the agent part picks
the agent whose memory the run uses. ``agent:<parent>:subagent:<uuid>`` is an
ephemeral helper the parent started: it recalls the parent's memory but adds
nothing to it (the parent's own turn carries the helper's result). ``main`` is
the host's default agent, i.e. the one the caller named. Scheduler runs are
recognised by :func:`memclaw.gates.noise.is_automated_session`.
"""

from __future__ import annotations

from dataclasses import dataclass

from memclaw.gates.noise import is_automated_session

AGENT_PREFIX = "agent"
SUBAGENT_MARK = "subagent"
DEFAULT_AGENT = "main"


@dataclass(frozen=True)
class SessionKey:
    """A parsed session key; ``agent`` is None when the key names no agent."""

    raw: str
    agent: str | None = None
    subagent: bool = False
    automated: bool = False

    def agent_or(self, named: str) -> str:
        """The agent the run belongs to: the key's, or ``named`` for plain and ``main`` keys."""
        return self.agent if self.agent and self.agent != DEFAULT_AGENT else named


def parse_session_key(key: str | None, trigger: str | None = None) -> SessionKey:
    """Split ``key`` into its meaning; any string is accepted (plain ids name no agent)."""
    raw = key or ""
    parts = raw.split(":")
    agent = None
    subagent = False
    if len(parts) >= 3 and parts[0].lower() == AGENT_PREFIX and parts[1]:
        agent = parts[1]
        subagent = parts[2].lower() == SUBAGENT_MARK and len(parts) >= 4
    return SessionKey(raw, agent, subagent, is_automated_session(trigger, key))
