"""Help names values in a person's words (AGENT, N, OWNER), never in a programmer's
(TEXT, INTEGER RANGE [x>=1], {agent}), and lays out every Examples: block alike."""

import re
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from memclaw.cli.app import app


def _walk(command: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        found.extend(_walk(sub, (*path, name)))
    return found


PATHS = _walk(typer.main.get_command(app))
TYPE_WORDS = re.compile(r"\b(?:TEXT|INTEGER|FLOAT|RANGE|BOOLEAN|FILENAME)\b|\[x[<>]=|\{[a-z]")


def _help(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("path", PATHS, ids=[" ".join(("memclaw", *p)) for p in PATHS])
def test_help_names_values_in_a_persons_words(path: tuple[str, ...]) -> None:
    text = _help(path)
    # The options and arguments tables, and the usage line: where metavars are shown.
    shown = [line for line in text.splitlines() if line.startswith(("│", " Usage:"))]
    columns = [line[:60] for line in shown]  # name and value columns, not the help prose
    leaked = [c.strip() for c in columns if TYPE_WORDS.search(c)]
    assert not leaked, f"memclaw {' '.join(path)}: {leaked}"


def test_examples_are_laid_out_alike_in_every_command() -> None:
    indents = {}
    for path in PATHS:
        lines = _help(path).split(" Examples:", 1)[1].splitlines()
        first = next(line for line in lines if line.strip())
        indents[" ".join(path)] = len(first) - len(first.lstrip())
    assert len(set(indents.values())) == 1, indents


def test_a_number_says_its_range_in_words() -> None:
    text = _help(("dream", "run"))
    assert re.search(r"--days\s+N \[1 or more\]", text)
    assert re.search(r"--workers\s+N \[1 to 1024\]", text)
