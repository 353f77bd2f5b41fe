"""``memclaw config get|set|unset|path|edit``: read and change one setting at a time."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer

from memclaw.cli.render import err, print_json
from memclaw.cli.state import complete_setting, state

KeyArg = Annotated[
    str,
    typer.Argument(
        help="Setting name, e.g. memory_max_chars.",
        metavar="KEY",
        autocompletion=complete_setting,
    ),
]
UserOpt = Annotated[
    bool,
    typer.Option("--user", help="The user's config file instead of the root's memclaw.yaml."),
]


def _target(ctx: typer.Context, user: bool) -> Path:
    """The file set/unset/edit change: the root's memclaw.yaml, or the user's file."""
    from memclaw.config import user_config_path
    from memclaw.errors import WorkspaceError

    if user:
        return user_config_path(os.environ)
    ws = state(ctx).workspace()
    if not ws.root.is_dir():  # a fallback root nobody created yet: only `init` makes one
        raise WorkspaceError(
            f"the root {ws.root} does not exist yet: create it with `memclaw init AGENT`, "
            "or pass --user"
        )
    return ws.root / "memclaw.yaml"


def config_get(
    ctx: typer.Context,
    key: KeyArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print one setting's effective value (secrets masked).

    Examples:

        memclaw config get model

        memclaw --set model=llama3.1 config get model --json
    """
    from memclaw.config import describe, normalise_key
    from memclaw.workspace.config_file import check_known

    name = normalise_key(key)
    check_known(name)
    row = next(r for r in describe(state(ctx).workspace().settings) if r["key"] == name)
    if as_json:
        print_json(row)
    else:
        sys.stdout.write(f"{row['value']}\n")


def config_set(
    ctx: typer.Context,
    key: KeyArg,
    value: Annotated[str, typer.Argument(help="New value.", metavar="VALUE")],
    user: UserOpt = False,
) -> None:
    """Write one setting into the root's memclaw.yaml (or the user config with --user).

    The file is edited in place: comments and other keys are kept; a comment at
    the end of the changed line is not.

    Examples:

        memclaw config set memory_max_chars 12000

        memclaw config set base_url http://localhost:11434/v1 --user
    """
    from memclaw.workspace.config_file import set_key

    path = _target(ctx, user)
    name, typed = set_key(path, key, value)
    err().print(f"{path}: {name} = {typed}", soft_wrap=True, markup=False)


def config_unset(ctx: typer.Context, key: KeyArg, user: UserOpt = False) -> None:
    """Remove one setting from the root's memclaw.yaml (or the user config with --user).

    Examples:

        memclaw config unset memory_max_chars

        memclaw config unset model --user
    """
    from memclaw.workspace.config_file import unset_key

    path = _target(ctx, user)
    removed = unset_key(path, key)
    note = "removed" if removed else "was not set there; nothing changed"
    err().print(f"{path}: {key} {note}", soft_wrap=True, markup=False)


def config_path(ctx: typer.Context, user: UserOpt = False) -> None:
    """Print the path of the settings file set/unset/edit change (it may not exist yet).

    Examples:

        memclaw config path

        memclaw config path --user
    """
    from memclaw.config import user_config_path

    path = user_config_path(os.environ) if user else state(ctx).workspace().root / "memclaw.yaml"
    sys.stdout.write(f"{path}\n")


def config_edit(ctx: typer.Context, user: UserOpt = False) -> None:
    """Edit the settings file in $VISUAL or $EDITOR; it is replaced only if memclaw accepts it.

    As with `crontab -e`, the editor gets a copy. When the copy has a mistake (an
    unknown key, a value of the wrong kind) you are asked to edit it again or to
    keep the previous file; without a terminal to ask on, the previous file is kept
    and the exit status is 1.

    Examples:

        memclaw config edit

        EDITOR=nano memclaw config edit --user
    """
    from memclaw.errors import ConfigError
    from memclaw.workspace.config_file import edit_checked

    path = _target(ctx, user)
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"

    def open_editor(copy: Path) -> None:
        try:
            done = subprocess.run([*shlex.split(editor), str(copy)], check=False)
        except OSError as exc:
            raise ConfigError(
                f"cannot start the editor {editor!r} ({exc.strerror}): set $EDITOR"
            ) from exc
        if done.returncode != 0:
            raise ConfigError(
                f"the editor {editor!r} exited with {done.returncode}; {path} is unchanged"
            )

    asked: list[str] = []

    def retry(reason: str) -> bool:
        if not (sys.stdin.isatty() and sys.stderr.isatty()):
            return False  # nobody to ask: the previous file stays
        from memclaw.cli.render import error_line

        error_line(reason)
        asked.append(reason)
        return typer.confirm("edit again? (no keeps the previous file)", default=True, err=True)

    outcome = edit_checked(path, open_editor, retry)
    if outcome.refused:
        if asked:  # the reason was said already, before the question
            raise ConfigError(f"kept the previous {path}, unchanged")
        raise ConfigError(f"{outcome.refused} (kept the previous {path}, unchanged)")
    said = "saved and valid" if outcome.saved else "no changes"
    err().print(f"{path}: {said}", soft_wrap=True, markup=False)


def register(app: typer.Typer) -> None:
    from memclaw.cli.basic import config_app

    config_app.command("get")(config_get)
    config_app.command("set")(config_set)
    config_app.command("unset")(config_unset)
    config_app.command("path")(config_path)
    config_app.command("edit")(config_edit)
