"""`search --scope session|long-term`: a conversation's short-term entries apart from the rest."""

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.entries.memories import remember
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope


def _cli(*args: str) -> Any:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def test_search_by_term(isolated_env: Path) -> None:
    _cli("init", "alpha")
    scope = Scope.resolve(Workspace.open(isolated_env).agent("alpha"), "user:maya")
    remember(scope, "The walrus enclosure opens at nine", session_id="s-42")
    remember(scope, "The walrus keeper is named Ines")
    found = {}
    for term in ("session", "long-term"):
        out = _cli("search", "walrus", "--owner", "user:maya", "--scope", term, "--json").stdout
        found[term] = [json.loads(line)["file"] for line in out.splitlines()]
    assert found["session"] and all("session-s-42" in f for f in found["session"])
    assert found["long-term"] and not any("session-" in f for f in found["long-term"])
