"""A provider from an installed package: the memclaw.providers entry-point group.

The package is real: a module and a ``*.dist-info`` folder with its
``entry_points.txt``, on sys.path (or PYTHONPATH for a subprocess), found by
importlib.metadata as any installed distribution is.
"""

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from chat.chatkit import OpenChat, sent_messages
from fake_openai import FakeOpenAI
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.errors import ConfigError

MODULE = "memclaw_echo_provider"
PLUGIN = '''
from pathlib import Path

from memclaw.providers import RecallBlock


class EchoProvider:
    """Recalls one fixed line and writes down every finished turn it is told of."""

    name = "echo"

    def __init__(self, settings):
        self.settings = settings

    def system_block(self, scope):
        return ""

    def recall(self, turn):
        return RecallBlock("echo", "[Echo Recall]", ("- the echo remembers the lighthouse",))

    def after_turn(self, turn, user_text, answer):
        with Path(turn.scope.agent.path, "echo-turns.txt").open("a", encoding="utf-8") as handle:
            handle.write(user_text + "\\n")

    def tools(self):
        return []

    def close(self, wait):
        return []


class NotAProvider:
    def __init__(self, settings):
        pass
'''


def _install(site: Path) -> Path:
    """Write the package into ``site`` as pip would install it."""
    site.mkdir(parents=True, exist_ok=True)
    (site / f"{MODULE}.py").write_text(PLUGIN, encoding="utf-8")
    info = site / "memclaw_echo_provider-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: memclaw-echo-provider\nVersion: 0.1\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        f"[memclaw.providers]\necho = {MODULE}:EchoProvider\nbroken = {MODULE}:NotAProvider\n",
        encoding="utf-8",
    )
    return site


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = _install(tmp_path / "site")
    monkeypatch.syspath_prepend(str(site))
    yield site
    sys.modules.pop(MODULE, None)


def test_a_named_provider_from_a_package_recalls_and_hears_each_turn(
    plugin: Path, mem0_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = mem0_chat({"mem0_base_url": "", "mem0_api_key": "", "extra_providers": "echo"})
    fake_openai.queue_text("Noted.")
    conversation.turn("Where did we walk on Sunday?")
    conversation.close(wait=5)
    system: str = sent_messages(fake_openai)[0]["content"]
    assert "[Echo Recall]" in system and "the lighthouse" in system
    heard = (conversation.session.agent.path / "echo-turns.txt").read_text(encoding="utf-8")
    assert heard == "Where did we walk on Sunday?\n"


def test_an_installed_provider_is_not_imported_unless_named(
    plugin: Path, mem0_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = mem0_chat({"mem0_base_url": "", "mem0_api_key": ""})
    fake_openai.queue_text("Hello.")
    conversation.turn("Hi there.")
    conversation.close(wait=5)
    assert MODULE not in sys.modules
    assert "[Echo Recall]" not in sent_messages(fake_openai)[0]["content"]


def test_an_unknown_name_is_one_line_listing_the_known_ones(
    plugin: Path, mem0_chat: OpenChat
) -> None:
    with pytest.raises(ConfigError) as caught:
        mem0_chat({"mem0_base_url": "", "mem0_api_key": "", "extra_providers": "echo, ehco"})
    message = str(caught.value)
    assert "'ehco'" in message and "known: mem0, broken, echo" in message
    assert "\n" not in message


def test_a_registered_object_that_is_no_provider_is_refused(
    plugin: Path, mem0_chat: OpenChat
) -> None:
    with pytest.raises(ConfigError, match=r"'broken'.*not a memory provider.*recall"):
        mem0_chat({"mem0_base_url": "", "mem0_api_key": "", "extra_providers": "broken"})


def test_chat_from_the_cli_names_the_unknown_provider_in_one_red_line(
    plugin: Path, isolated_env: Path
) -> None:
    (isolated_env / "memclaw.yaml").write_text(
        "extra_providers: nosuch\nbase_url: http://127.0.0.1:9/v1\nmodel: m\n", encoding="utf-8"
    )
    runner = CliRunner()
    assert runner.invoke(app, ["init", "alpha"], catch_exceptions=False).exit_code == 0
    result = runner.invoke(app, ["chat", "alpha", "-m", "hi"], catch_exceptions=False)
    assert result.exit_code == 1
    assert "no provider named 'nosuch'" in result.output and "echo" in result.output


def test_search_reads_no_entry_points_even_with_a_provider_named(
    tmp_path: Path, demo_agent: Path, isolated_env: Path
) -> None:
    site = _install(tmp_path / "site")
    (isolated_env / "memclaw.yaml").write_text("extra_providers: echo\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "memclaw", "search", "knee", "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert "knee" in done.stdout.lower()  # it searched, and found
    loaded = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert MODULE not in loaded
    assert "importlib.metadata" not in loaded
    # The same process setup does find the package: the check above is not vacuous.
    found: Any = subprocess.run(
        [
            sys.executable,
            "-c",
            "from importlib.metadata import entry_points;"
            "print(sorted(e.name for e in entry_points(group='memclaw.providers')))",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert found.stdout.strip() == "['broken', 'echo']"
