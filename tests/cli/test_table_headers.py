"""Piped tables start with one header row of capitalised column names, as `ps` and
`kubectl` print them, then one tab-separated row per item."""

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app


def _cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize(
    ("args", "header"),
    [
        (("status",), "AGENT\tCORE FILES\tDAILY NOTES\tOWNERS\tEXTRACTED\tDREAMED"),
        (("stats",), "INDEX\tFILES\tBLOCKS\tSIZE\tSYNCED\tSTALE\tRECALLED"),
        (("facts", "demo"), "ID\tTRUST\tAGE\tSOURCE\tWHERE\tSTATEMENT"),
        (("files", "list", "demo"), "FILE\tSIZE\tINJECTED\tORDER"),
        (("consolidate", "demo"), "AGENT\tOWNERS\tBUCKETS UPDATED\tENTRIES\tDEFERRED"),
    ],
)
def test_a_piped_table_has_one_header_row(args: tuple[str, ...], header: str) -> None:
    _cli("init", "demo")
    _cli("remember", "demo", "Maya waters the garden on Sundays")
    lines = _cli(*args).splitlines()
    assert lines[0] == header
    rows = [line for line in lines[1:] if "\t" in line]
    assert rows and all(row.count("\t") == header.count("\t") for row in rows)
    assert header not in rows
