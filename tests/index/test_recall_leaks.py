"""A search query holding a secret is logged for dreaming, but without the secret."""

from pathlib import Path

from ledgerkit import stream_text
from secretkit import GITHUB, leaks
from typer.testing import CliRunner

from memclaw.cli.app import app


def test_a_pasted_token_in_a_search_query_never_reaches_the_recall_log(
    demo_agent: Path, isolated_env: Path
) -> None:
    result = CliRunner().invoke(app, ["search", f"cutover window {GITHUB}", "--agent", "demo"])
    assert result.exit_code == 0 and result.stdout
    assert "[REDACTED:" in stream_text(demo_agent / ".memclaw", "recall")
    assert leaks(isolated_env) == []
