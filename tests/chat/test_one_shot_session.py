"""`chat -m` starts a session per call: it says which one on stderr, and how to go on."""

from pathlib import Path

from fake_openai import FakeOpenAI
from typer.testing import CliRunner

from memclaw.cli.app import app


def test_one_shot_names_its_session_on_stderr(env: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.queue_text("December.")
    fake_openai.queue_text("The 12th.")
    first = CliRunner().invoke(app, ["chat", "pal", "-m", "When?"], catch_exceptions=False)
    assert first.stdout == "December.\n"
    (session,) = [p.stem for p in (env / "pal" / "sessions").glob("*.jsonl")]
    assert f"session {session}: continue it with" in first.stderr
    assert f"memclaw chat pal --session {session} -m" in first.stderr
    again = ["chat", "pal", "--session", session, "-m", "Which day?"]
    second = CliRunner().invoke(app, again, catch_exceptions=False)
    assert second.exit_code == 0 and f"session {session}:" in second.stderr
    assert len(list((env / "pal" / "sessions").glob("*.jsonl"))) == 1  # the same one, reused
