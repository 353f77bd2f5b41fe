"""``memclaw config set/unset``: change one key of a settings file, keeping the rest.

The file is edited as text, not loaded and dumped again, so comments, blank lines
and the order of keys survive; only the line of the key itself is rewritten (a
comment at the end of that line goes with it).

A credential (an API key, a password in a provider's settings, anything the secret
gate flags) is written only into the person's own config file, and only when that
file is outside every git work tree: a root's memclaw.yaml is shared by every agent
under it and often committed (the checkout's own is).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memclaw.config import check_value, normalise_key, user_config_path
from memclaw.config_shapes import masked, plain
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


def git_work_tree(path: Path) -> Path | None:
    """The git work tree ``path`` lies in, if any."""
    for folder in path.resolve().parents:
        if (folder / ".git").exists():
            return folder
    return None


def unsafe_for_credentials(path: Path, env: Mapping[str, str]) -> str | None:
    """Why ``path`` must hold no credential; None for the person's own, untracked file."""
    if path.resolve() != user_config_path(env).resolve():
        return "it is shared by every agent of its root"
    if (tree := git_work_tree(path)) is not None:
        return f"it is inside the git work tree {tree}"
    return None


def credential_keys(path: Path) -> list[str]:
    """The settings in ``path`` that hold a credential (read as text: a broken file too)."""
    import yaml

    from memclaw.config import setting_fields
    from memclaw.config_yaml import deep_recursion
    from memclaw.gates import find_secrets

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    try:
        with deep_recursion():
            data = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):
        data = None
    secret = {f.name for f in setting_fields() if f.metadata["secret"]}
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            name = normalise_key(str(key))
            if (name in secret and value and not isinstance(value, Mapping)) or (
                isinstance(value, Mapping) and masked(value) != value
            ):
                found.append(name)
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    for line in lines:
        if find_secrets(line) and (name := line.split(":", 1)[0].strip()) not in found:
            found.append(name or "a value")
    return found


def _refuse_credential(path: Path, name: str, typed: Any, env: Mapping[str, str]) -> None:
    from memclaw.config import setting_fields
    from memclaw.gates import find_secrets

    field = next(f for f in setting_fields() if f.name == name)
    holds = (field.metadata["secret"] and typed and not isinstance(typed, Mapping)) or (
        isinstance(typed, Mapping) and masked(typed) != typed
    )
    if not (holds or find_secrets(f"{name}: {typed}")):
        return
    why = unsafe_for_credentials(path, env)
    if why is None:
        return
    user = user_config_path(env)
    elsewhere = (
        f"`memclaw config set {name} ... --user` ({user})"
        if git_work_tree(user) is None
        else "your shell's environment"
    )
    raise ConfigError(
        f"refusing to write a credential into {path}: {why}; keep {name} in "
        f"MEMCLAW_{name.upper()} or {elsewhere}"
    )


def set_key(
    path: Path, key: str, value: str, env: Mapping[str, str] | None = None
) -> tuple[str, Any]:
    """Write ``key: value`` into ``path`` (created if missing); returns the stored pair.

    A credential is refused unless ``path`` is the person's own untracked file
    (``env`` names it; the process environment by default)."""
    import yaml

    name, typed = check_value(key, value, str(path))
    typed = plain(typed)  # a mapping setting (categories, Mem0's parts) is frozen when read
    _refuse_credential(path, name, typed, os.environ if env is None else env)
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
    env: Mapping[str, str] | None = None,
) -> EditOutcome:
    """Edit ``path`` as ``crontab -e`` does: the editor gets a copy; a copy memclaw would
    refuse never replaces the file, so one typo cannot stop every command (and the
    nightly cron line) until someone notices.

    ``open_editor`` edits the copy in place and raises if the editor failed.
    ``retry(reason)`` is asked after a refusal: True opens the same copy again (the
    mistake is still in it to fix), False keeps the previous file. A copy holding a
    credential is refused as ``config set`` refuses one, unless ``path`` is the
    person's own untracked file."""
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
                _refuse_credentials_in(copy, path, os.environ if env is None else env)
            except ConfigError as exc:
                reason = str(exc).replace(str(copy), str(path))
                if retry(reason):
                    continue
                return EditOutcome(saved=False, changed=True, refused=reason)
            atomic_write(path, copy.read_text(encoding="utf-8"))
            return EditOutcome(saved=True, changed=True)
    finally:
        copy.unlink(missing_ok=True)


def _refuse_credentials_in(copy: Path, path: Path, env: Mapping[str, str]) -> None:
    keys = credential_keys(copy)
    why = unsafe_for_credentials(path, env) if keys else None
    if why is not None:
        raise ConfigError(
            f"refusing a credential ({', '.join(keys)}) in {path}: {why}; "
            f"keep it in MEMCLAW_{keys[0].upper()} or your own config (`--user`)"
        )


def check_settings_text(path: Path) -> None:
    """Raise the ConfigError memclaw would raise on reading ``path`` as a settings file."""
    from memclaw.config import setting_fields
    from memclaw.config_yaml import read_yaml

    read_yaml(path, {f.name: f for f in setting_fields()})
