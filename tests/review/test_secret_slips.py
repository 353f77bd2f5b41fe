"""Issue 27: secrets that used to be stored are refused or redacted on every way in.

Each string goes verbatim through ``memclaw remember``, an offline extract of a transcript and
the chat's ``memory_store`` tool; afterwards no file under the root holds the secret and
``memclaw scan`` finds nothing. Credentials in environment variables and on command lines
are also found by ``memclaw scan`` in a file a person wrote by hand. Every credential is
made up.
"""

import json
from pathlib import Path

import pytest
from secretkit import everything_under
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

# Credentials in environment variables and on command lines, in a made-up form each.
ENV_SLIPS = [
    ("PGPASSWORD=Wint3r-is-here psql -h db -U app", "Wint3r"),
    ('setx DB_PASSWORD "walnut-tree-12"', "walnut-tree"),
    ("mysql -u root -p'Oak#Leaf7' shop", "Oak#Leaf7"),
    ("the REDIS_PASSWORD on prod is Kelp-forest-2", "Kelp-forest"),
    ("Authorization: Bearer staging-key-Owl-4471", "Owl-4471"),
    ("setze DB_PASSWORD auf Bergsee-9", "Bergsee"),
    ("redis-cli -h cache -a Lemon-drop-2 info", "Lemon-drop"),
]
ALL = SLIPS + ENV_SLIPS


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("said", "secret"), ALL, ids=[s for _t, s in ALL])
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

    code, _, _ = run("search", "bot", said)
    assert code in (0, 1)
    on_disk = everything_under(isolated_env)  # the search index's blocks included
    assert secret not in on_disk and secret.lower() not in on_disk
    code, stdout, _ = run("scan", "bot", "--json")
    assert code == 0 and json.loads(stdout)["findings"] == []


@pytest.mark.parametrize(("said", "secret"), ENV_SLIPS, ids=[s for _t, s in ENV_SLIPS])
def test_scan_finds_an_env_secret_a_person_wrote_by_hand(
    isolated_env: Path, said: str, secret: str
) -> None:
    assert run("init", "bot")[0] == 0
    notes = isolated_env / "bot" / "memory" / "2026-12-01.md"
    notes.parent.mkdir(parents=True, exist_ok=True)
    notes.write_text(f"# 2026-12-01\n\n- restore notes\n\n```sh\n{said}\n```\n")

    code, stdout, _ = run("scan", "bot", "--json")
    assert code == 1
    (finding,) = [f for f in json.loads(stdout)["findings"] if f["file"].endswith("2026-12-01.md")]
    assert finding["line"] == 6
    assert secret not in stdout

    code, _, _ = run("scan", "bot", "--redact")
    assert code == 0
    assert secret not in notes.read_text() and "[REDACTED:" in notes.read_text()
