"""Every command and sub-command has help with examples; --version works."""

from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from memclaw import __version__
from memclaw.cli.app import app


def _walk(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    found = [(path, command)]
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        found.extend(_walk(sub, (*path, name)))
    return found


COMMANDS = _walk(typer.main.get_command(app))


def test_the_tree_has_the_foundation_commands() -> None:
    paths = {" ".join(path) for path, _ in COMMANDS}
    assert {"", "init", "status", "prompt", "config", "config show", "files"} <= paths
    assert {"files list", "files read", "files write", "files edit"} <= paths


@pytest.mark.parametrize(
    ("path", "command"),
    [pytest.param(path, command, id=" ".join(("memclaw", *path))) for path, command in COMMANDS],
)
def test_every_command_has_help_with_examples(path: tuple[str, ...], command: Any) -> None:
    assert command.help and "Examples:" in command.help, f"memclaw {' '.join(path)}"
    result = CliRunner().invoke(app, [*path, "--help"], catch_exceptions=False)
    assert result.exit_code == 0
    assert "Examples:" in result.stdout
    assert "memclaw" in result.stdout.split("Examples:")[1]


def test_version() -> None:
    result = CliRunner().invoke(app, ["--version"], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stdout == f"memclaw {__version__}\n"


def test_no_arguments_shows_help() -> None:
    result = CliRunner().invoke(app, [], catch_exceptions=False)
    assert "Usage" in result.output
    assert "init" in result.output
