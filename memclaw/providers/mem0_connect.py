"""Which Mem0 an agent talks to: a server over HTTP, or Mem0's library in this process."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memclaw.providers.mem0_api import OPEN_SOURCE, Connect, Mem0Backend, Mem0Client

if TYPE_CHECKING:
    from memclaw.config import Settings
    from memclaw.workspace.agent import Agent


def connector(settings: Settings) -> Connect:
    """How to reach Mem0 for an agent; a Mem0Error now says what the settings lack.

    Over HTTP one client serves every agent. In-process each agent has its own
    store, opened on first use (importing Mem0's library is for that moment only).
    """
    if settings.mem0_mode == OPEN_SOURCE:
        from memclaw.providers.mem0_oss import open_local
        from memclaw.providers.mem0_oss_config import check_open_source

        check_open_source(settings)
        return open_local
    client = Mem0Client.from_settings(settings)
    return lambda _agent: client


def open_mem0(agent: Agent) -> Mem0Backend:
    """The agent's Mem0, as its settings configure it; raises Mem0Error."""
    return connector(agent.settings)(agent)
