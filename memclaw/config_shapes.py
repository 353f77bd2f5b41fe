"""The shapes settings take: nested YAML sections, name-to-description maps, typed values.

``providers: mem0: base_url: ...`` in memclaw.yaml, ``providers.mem0.base_url``
on the command line and ``mem0_base_url`` all name one flat setting; the
``categories`` map is the one setting whose value is itself a mapping.
``coerce_value`` turns any raw value (YAML, environment, flag) into its
setting's type and checks its bounds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from memclaw.errors import ConfigError

if TYPE_CHECKING:
    from dataclasses import Field

# Nested YAML sections (and dotted --set keys) that name flat settings; longest first.
_SECTIONS = {"providers.mem0.oss.": "mem0_oss_", "providers.mem0.": "mem0_"}
MEM0_MODES = ("platform", "self-hosted", "open-source")


_CATEGORY_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")
MAX_CATEGORIES = 40
MAX_CATEGORY_DESCRIPTION = 200
MAX_INSTRUCTIONS = 4000


def _categories(value: Any, where: str) -> Mapping[str, str]:
    """``name: description`` pairs, from YAML or a JSON object (environment, --set)."""
    if isinstance(value, str):
        import json

        try:
            value = json.loads(value) if value.strip() else {}
        except ValueError:
            value = None
    if not isinstance(value, dict):
        raise ConfigError(
            f"{where}: 'categories' must map names to descriptions, "
            'e.g. categories: {health: "conditions, allergies, medication"}'
        )
    if len(value) > MAX_CATEGORIES:
        raise ConfigError(f"{where}: 'categories' has {len(value)} names; at most {MAX_CATEGORIES}")
    found: dict[str, str] = {}
    for name, description in value.items():
        if not isinstance(name, str) or not _CATEGORY_NAME.fullmatch(name):
            raise ConfigError(
                f"{where}: category name {name!r} must be lower-case letters, digits, '_' or "
                "'-', starting with a letter (at most 32)"
            )
        if not isinstance(description, str) or not description.strip():
            raise ConfigError(
                f"{where}: category '{name}' needs a description (what belongs in it)"
            )
        if len(description) > MAX_CATEGORY_DESCRIPTION:
            raise ConfigError(
                f"{where}: the description of category '{name}' is longer than "
                f"{MAX_CATEGORY_DESCRIPTION} characters"
            )
        found[name] = " ".join(description.split())
    return MappingProxyType(found)


def flatten(pairs: list[tuple[Any, Any]], prefix: str = "") -> list[tuple[Any, Any]]:
    """(key, value) nodes with the known nested sections (``providers: mem0:``) made dotted."""
    import yaml

    flat: list[tuple[Any, Any]] = []
    for key_node, value_node in pairs:
        dotted = f"{prefix}{key_node.value}".strip().lower()
        opens = any(s.startswith(dotted + ".") for s in _SECTIONS)
        if opens and isinstance(value_node, yaml.MappingNode):
            flat.extend(flatten(value_node.value, dotted + "."))
            continue
        if prefix:
            key_node = yaml.ScalarNode(key_node.tag, dotted, key_node.start_mark, key_node.end_mark)
        flat.append((key_node, value_node))
    return flat


def normalise_key(key: str) -> str:
    key = key.strip().lower()
    for section, prefix in _SECTIONS.items():
        if key.startswith(section):
            key = prefix + key.removeprefix(section)
    return key.replace("-", "_")


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


_CEILING = 2**53


def coerce_value(f: Field[Any], value: Any, where: str) -> Any:
    """Convert ``value`` to the type of setting ``f``, or raise a ConfigError naming ``where``."""
    key = f.name
    if key in MAPPINGS:
        return MAPPINGS[key](value, where)
    kind: Any = type(f.default)
    bad = ConfigError(f"{where}: '{key}' must be {kind.__name__}, got {value!r}")
    if kind is bool:
        if isinstance(value, bool):
            result: Any = value
        elif isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            result = value.strip().lower() in _TRUE
        else:
            raise bad
    elif kind is int:
        if isinstance(value, bool):
            raise bad
        try:
            result = int(value) if isinstance(value, int | str) else None
        except ValueError:
            result = None
        if result is None:
            raise bad
    elif kind is float:
        if isinstance(value, bool):
            raise bad
        try:
            result = float(value) if isinstance(value, int | float | str) else None
        except ValueError:
            result = None
        if result is None:
            raise bad
    else:
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            raise bad
        result = str(value)
    if kind is float and not math.isfinite(result):
        raise ConfigError(f"{where}: '{key}' must be a finite number, got {result}")
    minimum = f.metadata.get("minimum")
    if kind in (int, float) and minimum is not None and result < minimum:
        raise ConfigError(f"{where}: '{key}' must be at least {minimum}, got {result}")
    # A number no setting means: past it SQLite, timers and sizes overflow.
    maximum = f.metadata.get("maximum") or (_CEILING if kind in (int, float) else None)
    if kind in (int, float) and maximum is not None and result > maximum:
        raise ConfigError(f"{where}: '{key}' must be at most {maximum}, got {result}")
    if key == "compact_trigger_ratio" and not 0 < result <= 1:
        raise ConfigError(f"{where}: '{key}' must be between 0 and 1, got {result}")
    if key == "base_url" and result and not re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", result):
        raise ConfigError(
            f"{where}: '{key}' {result!r} has no scheme: write http://{result} or https://{result}"
        )
    if key == "mem0_mode" and result not in MEM0_MODES:
        raise ConfigError(
            f"{where}: '{key}' must be one of {', '.join(MEM0_MODES)}, got {result!r}"
        )
    if key == "mem0_base_url" and result and not re.match(r"https?://", result):
        raise ConfigError(f"{where}: '{key}' {result!r} must start with http:// or https://")
    if key == "extract_instructions" and len(result) > MAX_INSTRUCTIONS:
        raise ConfigError(
            f"{where}: '{key}' is {len(result)} characters; keep it under {MAX_INSTRUCTIONS}"
        )
    if key == "lock_mode" and result not in ("flock", "lease"):
        raise ConfigError(f"{where}: '{key}' must be flock or lease, got {result!r}")
    if key.endswith("_cron") and len(str(result).split()) != 5:
        raise ConfigError(f"{where}: '{key}' must be a 5-field crontab expression")
    return result


def _retention(value: Any, where: str) -> Mapping[str, Mapping[str, Any]]:
    """``category: {ttl_days: N, immutable: true}``, from YAML or a JSON object."""
    if isinstance(value, str):
        import json

        try:
            value = json.loads(value) if value.strip() else {}
        except ValueError:
            value = None
    example = "e.g. retention: {project: {ttl_days: 90}, identity: {immutable: true}}"
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: 'retention' must map categories to settings, {example}")
    found: dict[str, Mapping[str, Any]] = {}
    for name, rules in value.items():
        if not isinstance(name, str) or not _CATEGORY_NAME.fullmatch(name):
            raise ConfigError(f"{where}: retention category {name!r} is not a category name")
        if not isinstance(rules, dict) or not set(rules) <= {"ttl_days", "immutable"}:
            raise ConfigError(
                f"{where}: retention of '{name}' takes ttl_days and immutable only, {example}"
            )
        ttl, fixed = rules.get("ttl_days", 0), rules.get("immutable", False)
        if isinstance(ttl, bool) or not isinstance(ttl, int) or ttl < 0:
            raise ConfigError(f"{where}: ttl_days of '{name}' must be a whole number of days ≥ 0")
        if not isinstance(fixed, bool):
            raise ConfigError(f"{where}: immutable of '{name}' must be true or false")
        if ttl and fixed:
            raise ConfigError(
                f"{where}: '{name}' cannot both expire (ttl_days) and be immutable; choose one"
            )
        found[name] = MappingProxyType({"ttl_days": ttl, "immutable": fixed})
    return MappingProxyType(found)


def _mem0_part(key: str) -> Callable[[Any, str], Mapping[str, Any]]:
    """Mem0's own shape for one part of open-source mode: ``{provider: ..., config: {...}}``."""
    name = "providers.mem0.oss." + key.removeprefix("mem0_oss_")

    def coerce(value: Any, where: str) -> Mapping[str, Any]:
        if isinstance(value, str):
            import json

            try:
                value = json.loads(value) if value.strip() else {}
            except ValueError:
                value = None
        wrong = ConfigError(
            f"{where}: '{name}' takes Mem0's shape {{provider: NAME, config: {{...}}}}, "
            f"e.g. {{provider: openai, config: {{model: text-embedding-3-small}}}}"
        )
        if not isinstance(value, dict) or set(value) - {"provider", "config"}:
            raise wrong
        if not value:
            return MappingProxyType({})
        provider = value.get("provider") or ""
        config = value.get("config") or {}
        if not isinstance(provider, str) or not isinstance(config, dict):
            raise wrong
        if any(not isinstance(k, str) for k in config):
            raise wrong
        # Frozen as every setting is; Mem0 is given a fresh plain copy each time.
        return MappingProxyType({"provider": provider.strip(), "config": MappingProxyType(config)})

    return coerce


MAPPINGS = {
    "categories": _categories,
    "retention": _retention,
    **{k: _mem0_part(k) for k in ("mem0_oss_embedder", "mem0_oss_vector_store", "mem0_oss_llm")},
}
# Names inside a mapping setting whose values are credentials: shown masked.
_SECRET_NAME = re.compile(r"(^|_)(api_?key|password|secret|token|credentials?)$", re.IGNORECASE)


def plain(value: Any) -> Any:
    """A mapping setting as plain dicts, as YAML and JSON writers take it."""
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    return value


def masked(value: Any) -> Any:
    """A mapping setting as shown to a person: every credential in it masked, at any depth."""
    if isinstance(value, Mapping):
        return {
            k: ("…" if _SECRET_NAME.search(str(k)) and v else masked(v)) for k, v in value.items()
        }
    return value


def close_key(key: str, known: Collection[str]) -> str:
    """The tail of an unknown-key message: the closest real key, or where to look."""
    from difflib import get_close_matches

    close = get_close_matches(key, list(known), n=1)
    return f"; did you mean '{close[0]}'?" if close else " (see `memclaw config show`)"
