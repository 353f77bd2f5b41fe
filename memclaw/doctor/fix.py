"""The safe fixes of `memclaw doctor --fix`: each is idempotent and loses nothing."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path

from memclaw.config import load_settings, user_config_path
from memclaw.doctor.checks import cron_env, env_only_model_settings
from memclaw.doctor.report import Check, Fix
from memclaw.errors import ConfigError
from memclaw.index import reindex, reindex_global
from memclaw.jobs.crontab import crontab_command, install, wanted_lines
from memclaw.text.plural import plural
from memclaw.workspace import Workspace
from memclaw.workspace.atomic import atomic_write
from memclaw.workspace.paths import GLOBAL_DIR


def write_user_settings(path: Path, values: Mapping[str, str]) -> None:
    """Set ``values`` in the settings file at ``path``, keeping every other line as it was.

    A key already there has its line replaced; the rest are appended. The result
    is read back before it counts: a file that would not load is not written.
    """
    old = path.read_text(encoding="utf-8") if path.is_file() else ""
    lines = old.splitlines()
    for key, value in values.items():
        line = f"{key}: {json.dumps(value, ensure_ascii=False)}"  # a JSON string is YAML too
        pattern = re.compile(rf"\s*{re.escape(key)}\s*:")
        at = next((i for i, text in enumerate(lines) if pattern.match(text)), None)
        if at is None:
            lines.append(line)
        else:
            lines[at] = line
    new = "\n".join(lines) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, new)
    try:
        load_settings(path, {"MEMCLAW_CONFIG": str(path)})  # root: a folder that is no folder
    except ConfigError:
        if old:
            atomic_write(path, old)
        else:
            path.unlink()
        raise


def apply_fix(check: Check, workspace: Workspace, env: Mapping[str, str] | None = None) -> str:
    """Carry out ``check.fix``; returns one line saying what was done."""
    env = os.environ if env is None else env
    settings = workspace.settings
    if check.fix is Fix.WRITE_MODEL_SETTINGS:
        missed = env_only_model_settings(settings, workspace.root, env)
        keys = [k for k in missed if k != "api_key"]
        path = user_config_path(cron_env(env))  # where cron looks, whatever this shell says
        write_user_settings(path, {k: str(getattr(settings, k)) for k in keys})
        said = f"wrote {' and '.join(keys)} to {path}"
        if "api_key" in missed:
            said += f"; put api_key in {path} yourself (and chmod 600 it): doctor never writes keys"
        return said
    if check.fix is Fix.INSTALL_CRONTAB:
        lines = wanted_lines(workspace.root, settings)
        install(crontab_command(env), workspace.root, lines)
        return f"installed {len(lines)} crontab line(s) for {workspace.root}"
    if check.fix is Fix.REBUILD_INDEX:
        if check.target == GLOBAL_DIR:
            stats = reindex_global(workspace)
        else:
            stats = reindex(workspace.agent(check.target))
        return f"rebuilt the index of {check.target} ({plural(stats.files, 'file')})"
    raise ValueError(f"{check.name} has no fix")
