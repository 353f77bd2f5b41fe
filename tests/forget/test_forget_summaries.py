"""Forget reaches the chat's cached summaries of a session (.memclaw/summaries/)."""

from __future__ import annotations

from pathlib import Path

from fake_openai import FakeOpenAI
from typer.testing import CliRunner

from memclaw.cli.app import app

LONG = " We are planning the Porto trip with the whole team." * 40


def ok(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result.stderr


def _long_chat(fake: FakeOpenAI, owner: str, first: str, summary: str) -> None:
    model = ("--set", f"base_url={fake.base_url}", "--set", "api_key=test")
    for n, turn in enumerate([first, "The hotel must be near Ribeira.", "Book February."]):
        if n == 2:  # the third call outgrows the window: the first turn is summarised
            fake.queue_text(summary)
        fake.queue_text("Fine." + " Porto is lovely." * 30)
        ok(*model, "chat", "pal", "-m", turn + LONG, "--session", "trip", "--owner", owner,
           "--no-capture")  # fmt: skip


def test_a_forgotten_fact_leaves_the_summary_cache_of_its_owner_only(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    ok("init", "pal")
    (isolated_env / "memclaw.yaml").write_text(
        "context_window_tokens: 2500\nmin_recent_messages: 2\npreserve_recent_pairs: 1\n"
    )
    said = "The person said their sister Ana lives in Porto."
    _long_chat(fake_openai, "user:maya", "My sister Ana lives in Porto.", said)
    # An owner whose folder name starts with the other's ("user%3Amaya-b"): not hers.
    _long_chat(fake_openai, "user:maya-b", "My sister Ana lives in Porto.", said)
    cache = isolated_env / "pal" / ".memclaw" / "summaries"
    mine = sorted((cache / "user%3Amaya").glob("*.json"))
    theirs = sorted((cache / "user%3Amaya-b").glob("*.json"))
    assert len(mine) == len(theirs) == 1 and "sister Ana" in mine[0].read_text()
    ok("remember", "pal", "My sister Ana lives in Porto", "--owner", "user:maya")
    told = ok("forget", "pal", "sister Ana lives in Porto", "--owner", "user:maya", "--yes")
    assert "summaries" in told and "user%3Amaya-b" not in told
    assert not [p for p in cache.rglob("*.json") if "Ana" in p.read_text() and p not in theirs]
    assert "sister Ana" in theirs[0].read_text()  # another owner's memory is not touched
