"""The external providers the settings switch on (the workspace files are always there).

Mem0 is built in. Any other provider comes from an installed package that
registers it in the ``memclaw.providers`` entry-point group, for example in
its ``pyproject.toml``::

    [project.entry-points."memclaw.providers"]
    echo = "memclaw_echo:EchoProvider"

and is switched on by naming it: ``extra_providers: echo`` in memclaw.yaml.
The object registered is called with the :class:`~memclaw.config.Settings`
and returns a :class:`~memclaw.providers.base.MemoryProvider`. Entry points
are read only when a name is configured: a search, or a chat without one,
never scans the installed packages nor imports any of them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from memclaw.errors import ConfigError
from memclaw.providers.mem0_api import mem0_configured

if TYPE_CHECKING:
    from memclaw.config import Settings
    from memclaw.providers.base import MemoryProvider

GROUP = "memclaw.providers"
BUILT_IN = ("mem0",)
# What a chat calls on every provider (the MemoryProvider protocol).
_REQUIRED = ("name", "system_block", "recall", "after_turn", "tools", "close")

__all__ = ["GROUP", "external_providers", "load_provider", "mem0_configured", "named_providers"]


class UnknownProviderError(ConfigError):
    """extra_providers names a provider that no installed package registers."""


def named_providers(settings: Settings) -> list[str]:
    """The names in ``extra_providers``, in order, each once."""
    names = (n.strip() for n in re.split(r"[,\s]+", settings.extra_providers))
    return list(dict.fromkeys(n for n in names if n))


def external_providers(settings: Settings) -> list[MemoryProvider]:
    """Providers besides the workspace files, in recall order; raises on a bad set-up."""
    found: list[MemoryProvider] = []
    if mem0_configured(settings):
        from memclaw.providers.mem0 import Mem0Provider
        from memclaw.providers.mem0_connect import connector

        found.append(
            Mem0Provider(
                connector(settings),
                timeout_ms=settings.mem0_timeout_ms,
                search_enabled=settings.mem0_search_enabled,
                sync_enabled=settings.mem0_sync_enabled,
                max_results=settings.mem0_max_results,
                queue_size=settings.mem0_queue_size,
            )
        )
    found += [load_provider(name, settings) for name in named_providers(settings)]
    return found


def load_provider(name: str, settings: Settings) -> MemoryProvider:
    """The provider an installed package registers as ``name``; ConfigError says what is wrong."""
    # Scanning every installed distribution costs time: only a configured name pays it.
    from importlib.metadata import entry_points

    registered = {ep.name: ep for ep in entry_points(group=GROUP)}
    if name in BUILT_IN:
        raise UnknownProviderError(
            f"extra_providers: {name} is built in; configure it under providers: {name}: instead"
        )
    if name not in registered:
        known = ", ".join([*BUILT_IN, *sorted(registered)])
        raise UnknownProviderError(
            f"extra_providers: no provider named {name!r} is installed (known: {known}); "
            f"install the package that registers it in the {GROUP} entry points"
        )
    entry = registered[name]
    try:
        made: Any = entry.load()(settings)
    except ConfigError:
        raise
    except Exception as exc:  # a third party's bug must say whose it is, in one line
        raise ConfigError(
            f"provider {name!r} ({entry.value}) failed to start: {type(exc).__name__}: {exc}"
        ) from exc
    missing = [attr for attr in _REQUIRED if not hasattr(made, attr)]
    if missing:
        raise ConfigError(
            f"provider {name!r} ({entry.value}) is not a memory provider: "
            f"it lacks {', '.join(missing)}"
        )
    provider: MemoryProvider = made
    return provider
