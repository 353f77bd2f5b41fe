"""Per-agent metadata: which files are injected, in which order, and the agent's own day.

Kept in ``.memclaw/agent.yaml`` rather than in the markdown, so the files stay
pure content that a person can edit freely. An optional ``today: YYYY-MM-DD``
pins the day the agent lives on (the bundled demo, a workspace replayed from a
backup): dates are read from it while the time of day keeps moving.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from memclaw.errors import WorkspaceError
from memclaw.workspace.atomic import atomic_write

CORE_FILES = ("AGENTS.md", "SOUL.md", "PROFILE.md", "MEMORY.md")
_TODAY = re.compile(r"""^today:[ \t]*['"]?([^'"\s#]*)['"]?[ \t]*(?:#.*)?$""", re.MULTILINE)
_HEADER = "# Per-file injection settings for this agent. Files not listed are not injected.\n"


@dataclass(frozen=True)
class FileMeta:
    enabled: bool
    sort_order: int


def default_meta() -> dict[str, FileMeta]:
    return {name: FileMeta(True, order) for order, name in enumerate(CORE_FILES)}


def _read(path: Path) -> Any:
    import yaml  # only when an agent.yaml exists: search never needs it

    from memclaw.config_yaml import deep_recursion

    try:
        with deep_recursion():
            return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise WorkspaceError(f"{path}{line}: invalid agent metadata; fix or delete it") from exc
    except RecursionError:  # PyYAML recurses once per level of nesting
        raise WorkspaceError(f"{path}: nested too deeply to be agent metadata; fix it") from None


def load_today(path: Path) -> date | None:
    """The day agent.yaml pins the agent to, or None when it lives on the clock's day.

    Read from its one top-level line rather than through YAML: every search asks,
    and a search imports no YAML parser."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise WorkspaceError(f"{path}: cannot read the agent metadata ({exc})") from exc
    found = _TODAY.search(text)
    if found is None:
        return None
    try:
        return date.fromisoformat(found.group(1))
    except ValueError:
        raise WorkspaceError(
            f"{path}: 'today' must be a day, YYYY-MM-DD; fix or delete it"
        ) from None


def load_meta(path: Path) -> dict[str, FileMeta]:
    """Read agent.yaml; a missing file means the defaults of a freshly seeded agent."""
    if not path.is_file():
        return default_meta()
    data = _read(path)
    files = (data or {}).get("files", {}) if isinstance(data, dict) else None
    if not isinstance(files, dict):
        raise WorkspaceError(f"{path}: expected a 'files:' mapping; fix or delete it")
    result: dict[str, FileMeta] = {}
    for name, entry in files.items():
        if not isinstance(entry, dict):
            raise WorkspaceError(f"{path}: entry for {name!r} must be a mapping")
        enabled, order = entry.get("enabled", False), entry.get("sort_order", 100)
        if not isinstance(enabled, bool) or not isinstance(order, int):
            raise WorkspaceError(
                f"{path}: {name!r} needs enabled: true/false and an integer sort_order"
            )
        result[str(name)] = FileMeta(enabled, order)
    return result


def save_meta(path: Path, meta: dict[str, FileMeta], today: date | None = None) -> None:
    pin = [f"today: {today.isoformat()}  # the day this agent lives on\n"] if today else []
    lines = [_HEADER, *pin, "files:\n"]
    for name, entry in sorted(meta.items(), key=lambda item: (item[1].sort_order, item[0])):
        enabled = "true" if entry.enabled else "false"
        lines.append(f"  {name}: {{enabled: {enabled}, sort_order: {entry.sort_order}}}\n")
    atomic_write(path, "".join(lines))
