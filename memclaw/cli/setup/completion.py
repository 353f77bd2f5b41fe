"""``memclaw completion SHELL``: print the script that teaches a shell memclaw's words."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated

import typer


class Shell(StrEnum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


def completion(
    shell: Annotated[Shell, typer.Argument(help="The shell to complete in.", metavar="SHELL")],
) -> None:
    """Print a shell completion script for memclaw.

    Load it in the current shell, or save it where your shell reads completions.

    Examples:

        eval "$(memclaw completion bash)"

        memclaw completion zsh > ~/.zfunc/_memclaw

        memclaw completion fish > ~/.config/fish/completions/memclaw.fish
    """
    # typer answers the shell's questions through this variable (see typer.completion);
    # the script must name the same one.
    from typer._completion_shared import get_completion_script

    script = get_completion_script(
        prog_name="memclaw", complete_var="_MEMCLAW_COMPLETE", shell=shell.value
    )
    sys.stdout.write(script.rstrip("\n") + "\n")


def register(app: typer.Typer) -> None:
    app.command()(completion)
