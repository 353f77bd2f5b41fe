"""Forget takes the questions with the fact: recall-log records that asked for it or found it."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.workspace import ledger

NOTE = (
    "# 2026-12-02\n\n- Jonas sees a cardiologist in Uppsala every March.\n"
    "- The billing freeze starts 2026-12-18.\n"
)


def _run(root: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["--root", str(root), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def _queries(root: Path) -> list[str]:
    return [record["query"] for record in ledger.read(root / "pal" / ".memclaw", "recall")]


def test_forget_removes_the_searches_for_the_fact_and_keeps_the_others(
    isolated_env: Path,
) -> None:
    _run(isolated_env, "init", "pal")
    (isolated_env / "pal" / "memory").mkdir(exist_ok=True)
    (isolated_env / "pal" / "memory" / "2026-12-02.md").write_text(NOTE, encoding="utf-8")
    for query in ("cardiologist", "every March", "billing freeze"):
        _run(isolated_env, "search", query, "--agent", "pal")
    assert _queries(isolated_env) == ["cardiologist", "every March", "billing freeze"]
    _run(isolated_env, "forget", "pal", "Jonas cardiologist Uppsala", "--yes")
    # "cardiologist" holds a forgotten word; "every March" found the forgotten line.
    assert _queries(isolated_env) == ["billing freeze"]
