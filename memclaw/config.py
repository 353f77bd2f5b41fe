"""Settings: one frozen object built from layered sources.

Precedence, lowest first: built-in defaults < ``memclaw.yaml`` at the workspaces
root < the user's config file < ``MEMCLAW_*`` environment variables < flags.
Every value remembers where it came from, so ``memclaw config show`` can say.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from memclaw.config_fields import Settings as Settings  # re-exported: callers use config
from memclaw.config_shapes import close_key, coerce_value, masked
from memclaw.config_shapes import normalise_key as normalise_key  # re-exported: callers use config
from memclaw.config_yaml import read_yaml
from memclaw.errors import ConfigError, UnknownKeyError


def setting_fields() -> list[dataclasses.Field[Any]]:
    """The user-facing keys, in declaration order."""
    return [f for f in dataclasses.fields(Settings) if f.name != "sources"]


_FIELDS = {f.name: f for f in setting_fields()}
# Well-known variables of the OpenAI ecosystem, read after their MEMCLAW_ twins.
_ENV_ALIASES = {
    "api_key": ("OPENAI_API_KEY",),
    "base_url": ("OPENAI_BASE_URL",),
    "mem0_api_key": ("MEM0_API_KEY",),
}


def suggest_key(key: str) -> str:
    """The tail of an unknown-key message: the closest real key, or where to look."""
    return close_key(key, _FIELDS)


def _coerce(key: str, value: Any, where: str) -> Any:
    """Convert ``value`` to the type of ``key``, or raise a ConfigError naming ``where``."""
    return coerce_value(_FIELDS[key], value, where)


def user_config_path(env: Mapping[str, str]) -> Path:
    """The user's own config file: $MEMCLAW_CONFIG, else the XDG location."""
    if env.get("MEMCLAW_CONFIG"):
        return Path(env["MEMCLAW_CONFIG"]).expanduser()
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME", "~")) / ".config")
    return Path(base).expanduser() / "memclaw" / "config.yaml"


def load_settings(
    root: Path,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Settings:
    """Build the effective settings for the workspaces at ``root``.

    ``overrides`` are command-line flags: {key: value}, already named by key.
    """
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}

    for path in (root / "memclaw.yaml", user_config_path(env)):
        if path == user_config_path(env) and env.get("MEMCLAW_CONFIG") and not path.exists():
            raise ConfigError(
                f"$MEMCLAW_CONFIG names {path}, which does not exist: fix or unset it"
            )
        if path.is_dir():  # silently skipping it would drop every setting the user meant
            raise ConfigError(f"{path} is a folder, not a settings file: remove or rename it")
        if path.is_file():
            for key, (value, where) in read_yaml(path, _FIELDS).items():
                values[key], sources[key] = value, where

    for key in _FIELDS:
        for name in (f"MEMCLAW_{key.upper()}", *_ENV_ALIASES.get(key, ())):
            if env.get(name):
                where = f"env {name}"
                values[key], sources[key] = _coerce(key, env[name], where), where
                break

    for raw_key, value in (overrides or {}).items():
        key = normalise_key(raw_key)
        if key not in _FIELDS:
            raise UnknownKeyError(f"--set: unknown key '{raw_key}'{suggest_key(key)}")
        values[key], sources[key] = _coerce(key, value, "flag"), "flag"

    if values.get("categories_replace") and not values.get("categories"):
        raise ConfigError(
            f"{sources['categories_replace']}: 'categories_replace' is on but no 'categories' "
            "are set: entries would have no category at all"
        )
    return Settings(**values, sources=MappingProxyType(sources))


def config_files(root: Path, env: Mapping[str, str]) -> list[Path]:
    """The settings files ``load_settings`` reads for ``root``, lowest first."""
    return [p for p in (root / "memclaw.yaml", user_config_path(env)) if p.is_file()]


def check_value(key: str, value: Any, where: str) -> tuple[str, Any]:
    """``key`` normalised and ``value`` converted to its type, or a ConfigError."""
    name = normalise_key(key)
    if name not in _FIELDS:
        raise UnknownKeyError(f"{where}: unknown key '{key}'{suggest_key(name)}")
    return name, _coerce(name, value, where)


def parse_assignment(text: str) -> tuple[str, str]:
    """Split a ``--set key=value`` flag."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"--set expects KEY=VALUE, got {text!r}")
    return normalise_key(key), value


def describe(settings: Settings) -> list[dict[str, Any]]:
    """Every key with its effective value, source and help; secrets masked."""
    rows = []
    for f in setting_fields():
        value = getattr(settings, f.name)
        if isinstance(value, Mapping):
            value = masked(value) if f.metadata.get("secret") else dict(value)
        elif f.metadata.get("secret") and value:
            value = value[:3] + "…" + f" ({len(value)} chars)"
        rows.append(
            {
                "key": f.name,
                "value": value,
                "source": settings.source(f.name),
                "help": f.metadata["help"],
            }
        )
    return rows
