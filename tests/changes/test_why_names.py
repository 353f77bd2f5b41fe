"""`why` takes what a person has at hand: words (as forget), FILE:LINE, an id; search shows ids."""

import json
from pathlib import Path

from typer.testing import CliRunner

from memclaw.cli.app import app


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_why_takes_words_all_of_which_must_match(demo_agent: Path) -> None:
    code, stdout, stderr = run("why", "demo", "Tomas raised the lotsen HPA maximum")
    assert code == 0, stderr
    assert "Tomas raised the lotsen HPA maximum from 6 to 10 replicas." in stdout
    assert "lives in memory/2026-11-26.md:20" in stdout
    code, _, stderr = run("why", "demo", "Tomas raised the lotsen HPA minimum zebra")
    assert code == 2 and "no remembered line" in stderr


def test_why_takes_file_and_line(demo_agent: Path) -> None:
    line = (demo_agent / "MEMORY.md").read_text().splitlines()[5]
    code, stdout, stderr = run("why", "demo", "MEMORY.md:6", "--json")
    assert code == 0, stderr
    assert json.loads(stdout)["places"][0] == {"file": "MEMORY.md", "line": 6, "text": line}
    code, _, stderr = run("why", "demo", "MEMORY.md:1")
    assert code == 2 and "not a remembered line" in stderr
    code, _, stderr = run("why", "demo", "NOPE.md:3")
    assert code == 2 and "not a file" in stderr


def test_several_matches_are_listed_with_their_ids(demo_agent: Path) -> None:
    code, _, stderr = run("why", "demo", "cutover")
    assert code == 2 and "remembered lines hold 'cutover'" in stderr
    listed = [line for line in stderr.splitlines() if line.startswith("  f")]
    assert len(listed) > 1 and all("cutover" in line.casefold() for line in listed)
    fid = listed[0].split()[0]
    assert run("why", "demo", fid)[0] == 0


def test_every_fact_id_search_shows_is_one_why_answers(demo_agent: Path) -> None:
    for query in ("cutover", "backfill", "Kenji", "kanelbullar"):
        code, stdout, _ = run("search", query, "--agent", "demo", "--json")
        assert code == 0
        hits = [json.loads(line) for line in stdout.splitlines()]
        ids = [h["fact"] for h in hits if h["fact"]]
        assert ids, query
        for fid in ids:
            code, out, stderr = run("why", "demo", fid, "--json")
            assert code == 0, f"{query}: why {fid}: {stderr}"
            assert json.loads(out)["places"], fid
        code, stdout, _ = run("search", query, "--agent", "demo")
        assert f"  [{ids[0]}]" in stdout
