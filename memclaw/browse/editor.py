"""Editing a memory file in the person's $EDITOR from the browser, without racing other writers.

The editor works on a private copy; only when it exits is the text written
back, through the workspace's own door (the agent lock, history, provenance
as the person's edit). If memclaw changed the file while the editor was
open, the save is refused rather than overwriting what was learned meanwhile,
and the person's text is kept in the copy, whose path the message gives.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from memclaw.errors import WorkspaceError

if TYPE_CHECKING:
    from textual.app import App

    from memclaw.workspace.scope import Scope

# Editors that accept "+LINE" to open at a line.
_LINE_AWARE = {"vi", "vim", "nvim", "nano", "emacs", "micro", "kak", "hx", "joe", "mg"}


def editor_command(path: Path, line: int | None = None) -> list[str]:
    """$VISUAL, then $EDITOR, then vi; with ``+LINE`` for editors known to accept it."""
    command = shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi")
    if line and Path(command[0]).name in _LINE_AWARE:
        command.append(f"+{line}")
    return [*command, str(path)]


def edit_in_editor(app: App[None], scope: Scope, name: str, line: int | None = None) -> bool:
    """Open ``name`` in the editor; True when the person saved a change."""
    before = scope.read(name)
    with tempfile.NamedTemporaryFile(
        "w", suffix=f"-{Path(name).name}", delete=False, encoding="utf-8"
    ) as copy:
        copy.write(before)
    copy_path = Path(copy.name)
    _run_editor(app, editor_command(copy_path, line))
    after = copy_path.read_text(encoding="utf-8")
    if after == before:
        copy_path.unlink()
        return False

    def save(current: str) -> str:
        if current != before:
            raise WorkspaceError(
                f"{name} changed while you were editing; your text is kept in {copy_path}"
            )
        return after

    old_lines = set(before.splitlines())
    added = "\n".join(line for line in after.splitlines() if line not in old_lines)
    scope.update(name, save, introduced=added)  # the secret gate sees what the person added
    copy_path.unlink()
    return True


def _run_editor(app: App[None], command: list[str]) -> None:
    from textual.app import SuspendNotSupported

    try:
        with app.suspend():
            result = subprocess.run(command, check=False)
    except SuspendNotSupported:  # headless (tests) or in a browser: no terminal to hand over
        result = subprocess.run(command, check=False, capture_output=True)
    if result.returncode != 0:
        raise WorkspaceError(f"the editor ({command[0]}) exited with status {result.returncode}")
