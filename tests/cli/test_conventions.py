"""Habits of a well-made CLI: global options anywhere, -h, grouped help, plain metavars,
shell completion, and usage errors as one line with a suggestion."""

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.cli.fast import hoist_globals


def _cli(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, list(args), env=env, catch_exceptions=False)


def _walk(command: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        found.extend(_walk(sub, (*path, name)))
    return found


PATHS = _walk(typer.main.get_command(app))


def test_global_options_move_to_the_front_wherever_they_are() -> None:
    assert hoist_globals(["status", "--root", "x", "--json", "--debug"]) == [
        "--root",
        "x",
        "--debug",
        "status",
        "--json",
    ]
    assert hoist_globals(["files", "list", "a", "--set=k=v"]) == ["--set=k=v", "files", "list", "a"]
    # After `--` every word is data, even one that looks like a flag.
    assert hoist_globals(["search", "--", "--root"]) == ["search", "--", "--root"]


def test_global_options_after_the_subcommand_through_the_entry_point(tmp_path: Path) -> None:
    root = tmp_path / "r"
    assert _cli("--root", str(root), "init", "demo").exit_code == 0
    script = "import sys; from memclaw.cli.fast import main; sys.argv[0] = 'memclaw'; main()"
    env = {**os.environ, "MEMCLAW_ROOT": ""}
    done = subprocess.run(
        [sys.executable, "-c", script, "status", "--json", "--root", str(root)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert '"agent": "demo"' in done.stdout


@pytest.mark.parametrize("path", PATHS, ids=[" ".join(("memclaw", *p)) for p in PATHS])
def test_dash_h_works_and_help_names_no_python_types(path: tuple[str, ...]) -> None:
    result = _cli(*path, "-h")
    assert result.exit_code == 0
    assert "Usage" in result.stdout
    leaked = re.findall(r"<(?:str|int|float|bool|Path|list\[\w+\])>|\blist\[", result.stdout)
    assert not leaked, f"memclaw {' '.join(path)}: {leaked}"


def test_root_help_groups_commands_in_panels() -> None:
    text = _cli("-h").stdout
    panels = [line.split("─ ")[1].split(" ")[0] for line in text.splitlines() if "╭─ " in line]
    assert panels == ["Options", "Talk", "Memory", "Maintenance", "Setup"]
    talk = text.split("─ Talk ")[1].split("╰")[0]
    assert "chat" in talk and "prompt" in talk
    setup = text.split("─ Setup ")[1].split("╰")[0]
    assert "init" in setup and "config" in setup and "completion" in setup


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_a_script_for_the_shell(shell: str) -> None:
    result = _cli("completion", shell)
    assert result.exit_code == 0
    assert "_MEMCLAW_COMPLETE" in result.stdout
    assert f"complete_{shell}" in result.stdout


def test_the_completion_script_is_answered_by_the_app() -> None:
    env = {"_MEMCLAW_COMPLETE": "complete_bash", "COMP_WORDS": "memclaw sta", "COMP_CWORD": "1"}
    result = CliRunner().invoke(app, [], env=env, prog_name="memclaw")
    assert set(result.stdout.split()) == {"status", "stats"}


def test_an_unknown_shell_is_a_usage_error() -> None:
    result = _cli("completion", "tcsh")
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["statu"], "Did you mean 'status'"),
        (["status", "--jsn"], "Did you mean --json?"),
        (["files", "lst", "demo"], "Did you mean 'list'"),
        (["--roo", "x", "status"], "Did you mean --root?"),
        (["why", "demo", "- Tomas raised the HPA maximum"], "put -- before it"),
    ],
)
def test_usage_errors_are_one_line_with_a_suggestion(args: list[str], needle: str) -> None:
    result = _cli(*args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and needle in lines[0]
    assert "-h`" in lines[0]
    assert result.stdout == ""


def test_tables_off_a_terminal_are_tab_separated_rows_with_full_values(
    isolated_env: Path,
) -> None:
    assert _cli("init", "alpha").exit_code == 0
    long_name = "notes/" + "a-very-long-folder-name-" * 6 + "end.md"
    long_text = "x" * 300
    assert _cli("files", "write", "alpha", long_name, "-c", long_text).exit_code == 0
    listed = _cli("files", "list", "alpha").stdout.splitlines()
    assert f"{long_name}\t301 B\tno\t" in listed  # the write ends it with a newline
    assert not any("│" in line or "┃" in line for line in listed)
    shown = _cli("config", "show").stdout.splitlines()
    assert "memory_max_chars\t8000\tdefault" in shown


def test_a_usage_error_is_one_line_even_when_long(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 120)
    result = _cli("--root", str(deep), "status")
    assert len(result.stderr.splitlines()) == 1
