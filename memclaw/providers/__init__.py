"""Memory providers: the sources a chat turn recalls from and reports back to.

A provider answers four questions (:class:`~memclaw.providers.base.MemoryProvider`):
what to add to the system block, what to recall for this turn, what to do once
the turn is over, and which tools to offer. The workspace files are the default
provider (it lives in ``chat/``, next to the recall it wraps); Mem0 is an
optional external one (:mod:`~memclaw.providers.mem0`). Recall from every
enabled provider is composed under one budget, shared so that no provider can
crowd the others out (:mod:`~memclaw.providers.compose`).

May import: index, prompt, workspace, llm, gates, config, errors, clock.
"""

from memclaw.providers.base import MemoryProvider, ProviderTool, RecallBlock, TurnContext
from memclaw.providers.compose import compose_recall
from memclaw.providers.registry import external_providers

__all__ = [
    "MemoryProvider",
    "ProviderTool",
    "RecallBlock",
    "TurnContext",
    "compose_recall",
    "external_providers",
]
