"""files enable/disable and files write --strategy."""

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from memclaw.cli.app import app


def _cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def _listed(agent: str) -> dict[str, Any]:
    data = json.loads(_cli("files", "list", agent, "--json").stdout)
    return {f["name"]: f for f in data["files"]}


def test_enable_with_order_then_disable(isolated_env: Path) -> None:
    _cli("init", "alpha")
    _cli("files", "write", "alpha", "NOTES.md", "-c", "# Notes\n")
    assert _listed("alpha")["NOTES.md"]["enabled"] is False
    result = _cli("files", "enable", "alpha", "NOTES.md", "--order", "1")
    assert result.exit_code == 0 and "injected, order 1" in result.stderr
    assert (
        _listed("alpha")["NOTES.md"]["enabled"],
        _listed("alpha")["NOTES.md"]["sort_order"],
    ) == (
        True,
        1,
    )
    assert "--- NOTES.md ---" in _cli("prompt", "alpha").stdout
    assert _cli("files", "disable", "alpha", "NOTES.md").exit_code == 0
    assert _listed("alpha")["NOTES.md"]["enabled"] is False
    assert "--- NOTES.md ---" not in _cli("prompt", "alpha").stdout


def test_enable_a_missing_file_is_one_line(isolated_env: Path) -> None:
    _cli("init", "alpha")
    result = _cli("files", "enable", "alpha", "GONE.md")
    assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1
    assert "GONE.md" not in json.dumps(_listed("alpha"))


def test_write_strategies(isolated_env: Path) -> None:
    _cli("init", "alpha")
    path = isolated_env / "alpha" / "NOTES.md"
    _cli("files", "write", "alpha", "NOTES.md", "-c", "# Notes\n")
    _cli("files", "write", "alpha", "NOTES.md", "--strategy", "append", "-c", "- one")
    assert "- one" in path.read_text("utf-8")
    args = ["--strategy", "replace-section", "--section", "Diet", "-c", "- veg"]
    assert _cli("files", "write", "alpha", "NOTES.md", *args).exit_code == 0
    args = ["--strategy", "upsert-kv", "--key", "timezone", "-c", "Europe/Oslo"]
    assert _cli("files", "write", "alpha", "NOTES.md", *args).exit_code == 0
    text = path.read_text("utf-8")
    assert "- one" in text and "## Diet" in text and "- veg" in text
    assert "timezone" in text and "Europe/Oslo" in text
    bad = _cli("files", "write", "alpha", "NOTES.md", "--strategy", "upsert-kv", "-c", "x")
    assert bad.exit_code != 0 and len(bad.stderr.splitlines()) == 1


def test_counts_are_singular_for_one(isolated_env: Path) -> None:
    _cli("init", "alpha")
    _cli("files", "write", "alpha", "NOTES.md", "-c", "# Notes\nold\n")
    result = _cli("files", "edit", "alpha", "NOTES.md", "--old", "old", "--new", "new")
    assert "1 replacement" in result.stderr and "(s)" not in result.stderr
