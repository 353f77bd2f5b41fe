"""Reading one settings file: YAML with every value's ``file:line``, and errors that point there."""

from __future__ import annotations

import contextlib
import gc
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.config_shapes import MAPPINGS, close_key, coerce_value, flatten, normalise_key
from memclaw.errors import ConfigError

if TYPE_CHECKING:
    from dataclasses import Field

    import yaml


@contextlib.contextmanager
def deep_recursion() -> Iterator[None]:
    """Around PyYAML, which recurses once per level of nesting: no garbage collection
    meanwhile. A collection at the recursion limit would run some unrelated object's
    finalizer there, out of stack, and Python would print "Exception ignored in
    sys.unraisablehook" beside the one line a file nested too deeply gets."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def read_yaml(path: Path, fields: Mapping[str, Field[Any]]) -> dict[str, tuple[Any, str]]:
    """Parse a settings file into {key: (value, "file:line")}, validating keys."""
    import yaml  # only when a settings file exists: keeps `memclaw search` start-up fast

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        index = data[: exc.start].count(b"\n")
        lines = data.decode("utf-8", errors="replace").splitlines()
        raise ConfigError(
            f"{path}:{index + 1}:{_near_key(lines, index)} not UTF-8 text ({exc.reason}); "
            "save it as UTF-8"
        ) from exc
    try:
        with deep_recursion():
            root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise _yaml_error(path, text, exc) from exc
    except RecursionError:  # PyYAML recurses once per level: "[[[[..." five thousand deep
        raise ConfigError(f"{path}: nested too deeply to be settings; fix the file") from None
    if root is None:
        return {}
    if not isinstance(root, yaml.MappingNode):
        raise ConfigError(f"{path}:{root.start_mark.line + 1}: expected 'key: value' lines")
    loader = yaml.SafeLoader("")
    values: dict[str, tuple[Any, str]] = {}
    for key_node, value_node in flatten(root.value):
        where = f"{path}:{key_node.start_mark.line + 1}"
        key = normalise_key(str(key_node.value))
        if key not in fields:
            raise ConfigError(f"{where}: unknown key '{key_node.value}'{close_key(key, fields)}")
        if key in values:
            raise ConfigError(f"{where}: '{key}' is set twice")
        nested = key in MAPPINGS and isinstance(value_node, yaml.MappingNode)
        if not isinstance(value_node, yaml.ScalarNode) and not nested:
            raise ConfigError(f"{where}: '{key}' must be a single value")
        try:
            raw = loader.construct_object(value_node, deep=True)
        # What PyYAML's constructors raise for explicit tags they cannot apply
        # (``!!int abc``, ``!!bool maybe``, ``!!python/object:...``).
        except (yaml.YAMLError, ValueError, KeyError, AttributeError, TypeError) as exc:
            tag = value_node.tag.removeprefix("tag:yaml.org,2002:")
            raise ConfigError(
                f"{where}: '{key}' cannot be read as !!{tag} {value_node.value!r}; "
                "write a plain value"
            ) from exc
        values[key] = (coerce_value(fields[key], raw, where), where)
    return values


_KEY_LINE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_-]*)\s*:")


def _near_key(lines: list[str], index: int) -> str:
    """Name the key on line ``index`` (0-based) or the closest one above it, if any."""
    for line in reversed(lines[: index + 1]):
        found = _KEY_LINE.match(line)
        if found:
            return f" near key '{found.group(1)}':"
    return ""


def _yaml_error(path: Path, text: str, exc: yaml.YAMLError) -> ConfigError:
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    mark = getattr(exc, "problem_mark", None)
    context = getattr(exc, "context_mark", None)
    if mark is not None and context is not None and mark.index >= len(text.rstrip()):
        mark = context  # the file ended inside something (a quote, a list) opened earlier
    if mark is None:
        return ConfigError(f"{path}: invalid YAML ({problem})")
    near = _near_key(text.splitlines(), mark.line)
    return ConfigError(f"{path}:{mark.line + 1}:{near} invalid YAML ({problem})")
