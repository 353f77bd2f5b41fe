"""Issue 27: secrets that used to be stored are refused or redacted on every way in.

Each string goes verbatim through ``memclaw remember``, an offline extract of a transcript and
the chat's ``memory_store`` tool; afterwards no file under the root holds the secret and
``memclaw scan`` finds nothing.
"""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memclaw.chat.tools import ToolBox
from memclaw.cli.app import app
from memclaw.llm import ToolCall
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope

# (what the person says, the part that must never reach a file)
SLIPS = [
    ("lösenordet till VPN:en är Snöfall#2026", "Snöfall#2026"),
    ("the staging db password hunter2", "hunter2"),
    ("The admin login is root / hunter2", "hunter2"),
    ("The wifi password is CorrectHorseBatteryStaple", "CorrectHorseBatteryStaple"),
    ("DATABASE_URL=postgres://admin:pw@db.internal:5432/app", "admin:pw@"),
]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def everything_under(root: Path) -> str:
    return "".join(
        p.read_bytes().decode("utf-8", "replace") for p in root.rglob("*") if p.is_file()
    )


@pytest.mark.parametrize(("said", "secret"), SLIPS, ids=[s for _t, s in SLIPS])
def test_remember_extract_and_the_chat_tool_keep_no_secret(
    isolated_env: Path, tmp_path: Path, said: str, secret: str
) -> None:
    assert run("init", "bot")[0] == 0

    code, _, stderr = run("remember", "bot", said)
    assert code == 1 and "refusing" in stderr

    transcript = tmp_path / "chat.txt"
    transcript.write_text(
        f"User: I'm Sarah and I work at Cloudflare.\nAssistant: Noted.\nUser: {said}\n"
        "Assistant: Got it.\n"
    )
    code, _, _ = run("extract", "bot", "--transcript", str(transcript))
    assert code == 0

    agent = Workspace.open(isolated_env, env={}).agent("bot")
    record = ToolBox(Scope(agent), "s1").run(
        ToolCall("c1", "memory_store", {"text": said}, json.dumps({"text": said}))
    )
    assert not record.ok and record.result.startswith("error:")

    assert secret not in everything_under(isolated_env)
    code, stdout, _ = run("scan", "bot", "--json")
    assert code == 0 and json.loads(stdout)["findings"] == []
