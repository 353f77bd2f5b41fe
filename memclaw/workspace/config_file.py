"""``memclaw config set/unset``: change one key of a settings file, keeping the rest.

The file is edited as text, not loaded and dumped again, so comments, blank lines
and the order of keys survive; only the line of the key itself is rewritten (a
comment at the end of that line goes with it).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
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


# --- `memclaw config edit`: a copy is edited, checked, and only then put in place ------------


@dataclass(frozen=True)
class EditOutcome:
    """How an edit of a settings file ended; the file changed only when ``saved``."""

    saved: bool
    changed: bool  # False: the editor saved what was there (or nothing)
    refused: str = ""  # why the last copy was refused, when it was


def edit_checked(
    path: Path,
    open_editor: Callable[[Path], None],
    retry: Callable[[str], bool],
) -> EditOutcome:
    """Edit ``path`` as ``crontab -e`` does: the editor gets a copy; a copy memclaw would
    refuse never replaces the file, so one typo cannot stop every command (and the
    nightly cron line) until someone notices.

    ``open_editor`` edits the copy in place and raises if the editor failed.
    ``retry(reason)`` is asked after a refusal: True opens the same copy again (the
    mistake is still in it to fix), False keeps the previous file."""
    import tempfile

    before = path.read_text(encoding="utf-8") if path.is_file() else ""
    path.parent.mkdir(parents=True, exist_ok=True)
    # Beside the file (same disk, same permissions), hidden, and named .yaml so the editor
    # colours it; 0600 from mkstemp, as the user's file may hold an API key.
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.edit-", suffix=".yaml")
    copy = Path(name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(before)
        while True:
            open_editor(copy)
            after = copy.read_text(encoding="utf-8", errors="replace")
            if after == before:
                return EditOutcome(saved=False, changed=False)
            try:
                check_settings_text(copy)
            except ConfigError as exc:
                reason = str(exc).replace(str(copy), str(path))
                if retry(reason):
                    continue
                return EditOutcome(saved=False, changed=True, refused=reason)
            atomic_write(path, copy.read_text(encoding="utf-8"))
            return EditOutcome(saved=True, changed=True)
    finally:
        copy.unlink(missing_ok=True)


def check_settings_text(path: Path) -> None:
    """Raise the ConfigError memclaw would raise on reading ``path`` as a settings file."""
    from memclaw.config import setting_fields
    from memclaw.config_yaml import read_yaml

    read_yaml(path, {f.name: f for f in setting_fields()})
