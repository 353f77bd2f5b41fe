"""``memclaw config set/unset``: change one key of a settings file, keeping the rest.

The file is edited as text, not loaded and dumped again, so comments, blank lines
and the order of keys survive; only the line of the key itself is rewritten (a
comment at the end of that line goes with it).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from memclaw.config import check_value, normalise_key
from memclaw.config_shapes import plain
from memclaw.errors import ConfigError
from memclaw.workspace.atomic import atomic_write

_TOP_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)\s*:")


def _lines_of(path: Path, key: str) -> tuple[list[str], list[int]]:
    """The file's lines and the indexes of ``key``'s line and its indented continuation."""
    try:
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read it as UTF-8 text ({exc})") from exc
    lines = text.splitlines(keepends=True)
    found: list[int] = []
    inside = False
    for index, line in enumerate(lines):
        match = _TOP_KEY.match(line)
        if match:
            inside = normalise_key(match.group(1)) == key
        elif line.strip() and not line[:1].isspace():
            inside = False
        if inside and line.strip():
            found.append(index)
    return lines, found


def set_key(path: Path, key: str, value: str) -> tuple[str, Any]:
    """Write ``key: value`` into ``path`` (created if missing); returns the stored pair."""
    import yaml

    name, typed = check_value(key, value, str(path))
    typed = plain(typed)  # a mapping setting (categories, Mem0's parts) is frozen when read
    line = yaml.safe_dump({name: typed}, allow_unicode=True, width=10**6, sort_keys=False)
    lines, found = _lines_of(path, name)
    if found:
        lines[found[0] : found[-1] + 1] = [line]
    else:
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        lines.append(line)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, "".join(lines))
    return name, typed


def unset_key(path: Path, key: str) -> bool:
    """Remove ``key`` from ``path``; False when it was not set there."""
    name = normalise_key(key)
    check_known(name)
    lines, found = _lines_of(path, name)
    if not found:
        return False
    del lines[found[0] : found[-1] + 1]
    atomic_write(path, "".join(lines))
    return True


def check_known(key: str) -> None:
    from memclaw.config import setting_fields, suggest_key
    from memclaw.errors import UnknownKeyError

    if key not in {f.name for f in setting_fields()}:
        raise UnknownKeyError(f"unknown key '{key}'{suggest_key(key)}")
