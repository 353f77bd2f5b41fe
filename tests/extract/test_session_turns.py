"""A session's turns are extracted once: `memclaw extract --session` reads only new turns."""

import json
from pathlib import Path

from typer.testing import CliRunner

from extract.extractkit import CHAT
from memclaw.cli.app import app

TURNS = CHAT[:4]  # a greeting, then a decision worth keeping
LATER = [
    {"role": "user", "content": "Also: we decided to move the backups from S3 to Backblaze B2."},
    {"role": "assistant", "content": "Got it."},
]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def write_session(root: Path, messages: list[dict[str, str]]) -> None:
    sessions = root / "bot" / "sessions"
    sessions.mkdir(exist_ok=True)
    lines = [json.dumps({"role": "system", "content": "You are bot."})]
    lines += [json.dumps(m) for m in messages]
    (sessions / "s-1.jsonl").write_text("\n".join(lines) + "\n")


def memory_files(root: Path) -> dict[str, str]:
    agent = root / "bot"
    files = [agent / "MEMORY.md", agent / "PROFILE.md", *sorted((agent / "memory").glob("*.md"))]
    return {f.name: f.read_text() for f in files if f.is_file()}


def test_re_extracting_a_session_reads_only_its_new_turns(isolated_env: Path) -> None:
    assert run("init", "bot")[0] == 0
    write_session(isolated_env, TURNS)
    code, _, stderr = run("extract", "bot", "--session", "s-1", "--force")
    assert code == 0 and "written" in stderr
    first = memory_files(isolated_env)
    assert "Grafana" in "".join(first.values())

    code, _, stderr = run("extract", "bot", "--session", "s-1", "--force")
    assert code == 0 and "extracted already" in stderr and "--again" in stderr
    assert memory_files(isolated_env) == first

    write_session(isolated_env, TURNS + LATER)
    code, _, stderr = run("extract", "bot", "--session", "s-1", "--force")
    assert code == 0
    after = "".join(memory_files(isolated_env).values())
    assert "Backblaze" in after
    # The turns the first run read were not read again: the daily note says Grafana once.
    assert after.count("Grafana") == "".join(first.values()).count("Grafana")


def test_again_reads_every_turn_of_the_session(isolated_env: Path) -> None:
    assert run("init", "bot")[0] == 0
    write_session(isolated_env, TURNS)
    assert run("extract", "bot", "--session", "s-1", "--force")[0] == 0
    code, stdout, _ = run(
        "extract", "bot", "--session", "s-1", "--force", "--again", "--dry-run", "--json"
    )
    assert code == 0
    assert json.loads(stdout)["status"] != "skipped"
