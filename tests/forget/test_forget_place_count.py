"""A forget counts its places once, alike in its own message, the timeline and the chat."""

import re
from pathlib import Path

from typer.testing import CliRunner

from memclaw.cli.app import app


def test_the_forget_message_and_the_timeline_count_the_same_places(isolated_env: Path) -> None:
    runner = CliRunner()
    runner.invoke(app, ["init", "pal"], catch_exceptions=False)
    runner.invoke(app, ["remember", "pal", "Jonas is a cardiologist in Uppsala"])
    runner.invoke(app, ["search", "cardiologist", "--agent", "pal"])  # indexed: a place too
    done = runner.invoke(app, ["forget", "pal", "Jonas cardiologist", "--yes"])
    said = re.search(r"from (\d+) places?", done.stderr)
    timeline = runner.invoke(app, ["timeline", "pal"]).stdout
    logged = re.search(r"everywhere \((\d+) places?\)", timeline)
    assert said and logged and said.group(1) == logged.group(1), (done.stderr, timeline)
