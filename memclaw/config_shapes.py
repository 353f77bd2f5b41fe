"""Settings that are not one scalar: nested YAML sections and name-to-description maps.

``providers: mem0: base_url: ...`` in memclaw.yaml, ``providers.mem0.base_url``
on the command line and ``mem0_base_url`` all name one flat setting; the
``categories`` map is the one setting whose value is itself a mapping.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from memclaw.errors import ConfigError

# Nested YAML sections (and dotted --set keys) that name flat settings.
_SECTIONS = {"providers.mem0.": "mem0_"}
MEM0_MODES = ("platform", "self-hosted")


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


def _flatten(pairs: list[tuple[Any, Any]], prefix: str = "") -> list[tuple[Any, Any]]:
    """(key, value) nodes with the known nested sections (``providers: mem0:``) made dotted."""
    import yaml

    flat: list[tuple[Any, Any]] = []
    for key_node, value_node in pairs:
        dotted = f"{prefix}{key_node.value}".strip().lower()
        opens = any(s.startswith(dotted + ".") for s in _SECTIONS)
        if opens and isinstance(value_node, yaml.MappingNode):
            flat.extend(_flatten(value_node.value, dotted + "."))
            continue
        if prefix:
            key_node = yaml.ScalarNode(key_node.tag, dotted, key_node.start_mark, key_node.end_mark)
        flat.append((key_node, value_node))
    return flat
