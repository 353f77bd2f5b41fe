"""The external providers the settings switch on (the workspace files are always there)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memclaw.config import Settings
    from memclaw.providers.base import MemoryProvider


def mem0_configured(settings: Settings) -> bool:
    """Mem0 is on once it has an address or a key; a half setting is an error, not off."""
    return bool(settings.mem0_base_url or settings.mem0_api_key)


def external_providers(settings: Settings) -> list[MemoryProvider]:
    """Providers besides the workspace files, in recall order; raises Mem0Error on a bad set-up."""
    found: list[MemoryProvider] = []
    if mem0_configured(settings):
        from memclaw.providers.mem0 import Mem0Provider
        from memclaw.providers.mem0_api import Mem0Client

        found.append(
            Mem0Provider(
                Mem0Client.from_settings(settings),
                search_enabled=settings.mem0_search_enabled,
                sync_enabled=settings.mem0_sync_enabled,
                max_results=settings.mem0_max_results,
                queue_size=settings.mem0_queue_size,
            )
        )
    return found
