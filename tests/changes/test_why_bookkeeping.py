"""An entry's bookkeeping lines (`- category: other`) are no fact: search finds none of
them, and why and facts agree."""

import json
from pathlib import Path

from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.facts.ids import fact_id


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout


def test_an_entrys_category_line_has_no_fact_id_in_search_or_why(isolated_env: Path) -> None:
    run("init", "pal")
    run("remember", "pal", "Maya uses Helix")
    _, found = run("search", "category", "--agent", "pal", "--json")
    hits = [json.loads(line) for line in found.splitlines()]
    assert not [h for h in hits if "category:" in h["text"]]
    _, listed = run("facts", "list", "pal", "--json")
    known = {f["id"] for f in json.loads(listed)["facts"]}
    code, _ = run("why", "pal", fact_id("- category: other"), "--json")
    assert code != 0  # no fact by that id, as facts says
    assert all(h["fact"] in known for h in hits if h["fact"])
