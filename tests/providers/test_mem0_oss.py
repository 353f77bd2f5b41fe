"""Mem0's open-source mode with the real parts: Mem0's library, qdrant on disk in a temp
folder, and multilingual-e5-small served on loopback (the ``e5_server`` fixture).

Each test opens its own store (about a second); keep them few.
"""

import json
import socket
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from chat.chatkit import fixed_clock, model_settings, sent_messages, small_agent
from fake_openai import FakeOpenAI
from typer.testing import CliRunner

from memclaw.chat import Conversation
from memclaw.cli.app import app
from memclaw.llm.gate import is_loopback
from memclaw.providers.mem0_connect import open_mem0
from memclaw.workspace import Workspace
from memclaw.workspace.agent import Agent
from memclaw.workspace.scope import Scope

MAYA, NOOR = "user:maya", "user:noor"
E5 = "multilingual-e5-small"


@pytest.fixture(autouse=True)
def _library() -> None:
    try:
        import mem0  # noqa: F401
    except ImportError:
        pytest.fail("Mem0's library is not installed: run `make install` (memclaw[mem0])")


def _yaml(root: Path, e5_url: str, extra: str = "") -> None:
    # The embedding endpoint is memclaw's own (base_url + embedding_model): the default.
    (root / "memclaw.yaml").write_text(
        f"base_url: {e5_url}\nembedding_model: {E5}\nproviders:\n  mem0:\n"
        f"    mode: open-source\n    timeout_ms: 20000\n{extra}",
        encoding="utf-8",
    )


def _cli(*args: str, code: int = 0) -> Any:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


def _history(agent: Agent) -> str:
    with sqlite3.connect(agent.meta_dir / "mem0" / "history.db") as db:
        return json.dumps(db.execute("SELECT * FROM history").fetchall())


def test_a_chat_recalls_and_captures_through_the_local_store(
    isolated_env: Path, e5_server: str, fake_openai: FakeOpenAI
) -> None:
    # The chat model is the fake; the embedder is the real one, named in the oss block.
    embedder = {"provider": "openai", "config": {"model": E5, "openai_base_url": e5_server}}
    settings = model_settings(
        fake_openai, mem0_mode="open-source", mem0_oss_embedder=embedder, mem0_timeout_ms=20000
    )
    ws = Workspace.open(isolated_env, overrides=settings, clock=fixed_clock)
    agent = small_agent(ws)

    fake_openai.queue_text("Noted, no peanuts.")
    chat = Conversation.open(Scope.resolve(agent, MAYA))
    chat.turn("I am allergic to peanuts, so never suggest satay.")
    chat.close(wait=30)
    kept = open_mem0(agent).list(MAYA, "pal")
    # Infer is off (no LLM): the person's words are kept as said, the model's answer is not.
    assert [m.text for m in kept] == ["I am allergic to peanuts, so never suggest satay."]
    assert (agent.meta_dir / "mem0" / "qdrant").is_dir()

    chat = Conversation.open(Scope.resolve(agent, MAYA))
    chat.turn("What should I cook tonight?")
    chat.close(wait=30)
    system = sent_messages(fake_openai)[0]["content"]
    assert "[Mem0 Recall]" in system and "allergic to peanuts" in system

    # Another owner of the same agent recalls nothing of Maya's.
    chat = Conversation.open(Scope.resolve(agent, NOOR))
    chat.turn("What should I cook tonight?")
    chat.close(wait=30)
    assert "peanuts" not in sent_messages(fake_openai)[0]["content"]
    assert open_mem0(agent).list(NOOR, "pal")[0].text == "What should I cook tonight?"


def test_sync_status_search_and_forget_from_the_command_line(
    isolated_env: Path, e5_server: str
) -> None:
    _yaml(isolated_env, e5_server)
    _cli("init", "alpha")
    agent = Workspace.open(isolated_env).agent("alpha")
    for owner, said in ((MAYA, "I am allergic to peanuts."), (NOOR, "Peanuts are my snack.")):
        folder = Scope.resolve(agent, owner).folder / "sessions"
        folder.mkdir(parents=True)
        turns = [("My editor is Helix.", "Noted."), (said, "Got it.")]
        lines = [
            {"role": r, "content": t} for u, a in turns for r, t in (("user", u), ("assistant", a))
        ]
        (folder / "s1.jsonl").write_text("".join(json.dumps(m) + "\n" for m in lines))

    assert "sent 4 turn(s) from 2 session(s)" in _cli("mem0", "sync", "alpha").stdout
    assert "sent 0 turn(s)" in _cli("mem0", "sync", "alpha").stdout  # once each
    status = json.loads(_cli("mem0", "status", "alpha", "--json").stdout)
    assert status["mode"] == "open-source" and status["reachable"] is True
    assert status["vector_store"].startswith(f"qdrant {agent.meta_dir / 'mem0' / 'qdrant'}")
    assert status["synced_turns"] == 4 and status["unsent_turns"] == 0

    def search(owner: str) -> list[str]:
        found = _cli("mem0", "search", "alpha", "food allergy", "--owner", owner, "--json")
        return [m["memory"] for m in json.loads(found.stdout)["memories"]]

    assert search(MAYA)[0] == "I am allergic to peanuts."
    assert "Peanuts are my snack." not in search(MAYA)

    result = _cli("forget", "alpha", "peanuts", "--owner", MAYA, "--yes")
    assert "also deleted 1 Mem0 memories" in result.stderr
    assert search(MAYA) == ["My editor is Helix."]
    assert "Peanuts are my snack." in search(NOOR)  # Noor's memory is hers: untouched
    # Mem0's history database kept the text of every add and delete: not any more.
    history = _history(agent)
    assert "allergic" not in history and "Peanuts are my snack." in history

    # A copy Mem0 gets later (another device, say) is filtered by the fingerprint.
    open_mem0(agent).add(
        [{"role": "user", "content": "I am allergic to peanuts."}], MAYA, "alpha", {}
    )
    assert search(MAYA) == ["My editor is Helix."]


def test_nothing_leaves_the_machine_and_nothing_lands_in_home(
    isolated_env: Path, e5_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mem0 posts telemetry to its own service and fetches notices from GitHub unless told
    not to: every name looked up and every socket connected must be loopback."""
    looked_up: list[str] = []
    connected: list[str] = []
    real_getaddrinfo = socket.getaddrinfo
    real_connect = socket.socket.connect

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        looked_up.append(str(host))
        return real_getaddrinfo(host, *args, **kwargs)

    def connect(self: socket.socket, address: Any) -> Any:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            connected.append(str(address[0]))
        return real_connect(self, address)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", connect)
    _yaml(isolated_env, e5_server)
    agent = Workspace.open(isolated_env).init_agent("pal")[0]
    mem0 = open_mem0(agent)
    mem0.add([{"role": "user", "content": "I take the 7:40 ferry."}], MAYA, "pal", {})
    assert mem0.search("commute", MAYA, "pal", 3)[0].text == "I take the 7:40 ferry."
    mem0.delete(mem0.list(MAYA, "pal")[0].id)
    assert mem0.list(MAYA, "pal") == []

    assert connected, "the embedder was not asked at all"
    assert [h for h in looked_up + connected if not is_loopback(h)] == []
    import mem0.memory.telemetry as telemetry

    assert telemetry.MEM0_TELEMETRY is False
    # Mem0 writes an anonymous id under MEM0_DIR (else ~/.mem0) on import: never in $HOME.
    assert not (Path.home() / ".mem0").exists()


def test_a_store_another_process_holds_is_a_mem0_error_and_the_forget_waits(
    isolated_env: Path, e5_server: str
) -> None:
    """Qdrant on disk admits one process: a second one's forget is left for `mem0 sync`."""
    import subprocess
    import sys

    _yaml(isolated_env, e5_server)
    _cli("init", "alpha")
    _cli("remember", "alpha", "Maya is allergic to peanuts", "--owner", MAYA)
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(isolated_env)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        result = _cli("forget", "alpha", "peanuts", "--owner", MAYA, "--yes")
        assert "Mem0 not cleaned" in result.stderr and "memclaw mem0 sync alpha" in result.stderr
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=60)
    report = json.loads(_cli("mem0", "sync", "alpha", "--json").stdout)
    assert report["error"] is None and report["mem0_deleted"] == 0


_HOLD = """
import sys
from memclaw.providers.mem0_connect import open_mem0
from memclaw.workspace import Workspace
open_mem0(Workspace.open(sys.argv[1]).agent("alpha"))
print("open", flush=True)
sys.stdin.read()
"""


def test_with_an_llm_mem0_distils_each_turn_and_a_forget_scrubs_what_it_kept(
    isolated_env: Path, e5_server: str, fake_openai: FakeOpenAI
) -> None:
    llm = f"{{provider: openai, config: {{openai_base_url: '{fake_openai.base_url}'}}}}"
    _yaml(isolated_env, e5_server, f"    oss:\n      llm: {llm}\n")
    _cli("init", "alpha")
    agent = Workspace.open(isolated_env).agent("alpha")
    fake_openai.queue_text(json.dumps({"memory": [{"text": "Allergic to peanuts"}]}))
    said = "By the way, I am allergic to peanuts."
    mem0 = open_mem0(agent)
    mem0.add(
        [{"role": "user", "content": said}, {"role": "assistant", "content": "Noted."}],
        MAYA,
        "alpha",
        {},
    )
    assert [m.text for m in mem0.list(MAYA, "alpha")] == ["Allergic to peanuts"]
    assert said in json.dumps(fake_openai.chat_requests()[-1].body)  # Mem0 asked the LLM

    _cli("remember", "alpha", "Maya is allergic to peanuts", "--owner", MAYA)
    result = _cli("forget", "alpha", "peanuts", "--owner", MAYA, "--yes")
    assert "also deleted 1 Mem0 memories" in result.stderr
    assert mem0.list(MAYA, "alpha") == []
    # Mem0 keeps the recent messages it distils from: the person's sentence went too.
    with sqlite3.connect(agent.meta_dir / "mem0" / "history.db") as db:
        kept = json.dumps(db.execute("SELECT * FROM messages").fetchall())
    assert "Noted." in kept and "peanuts" not in kept and "peanuts" not in _history(agent)


def test_status_with_the_embedder_down_says_so_and_exits_1(isolated_env: Path) -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]  # closed once the block ends: nothing listens there
    _yaml(isolated_env, f"http://127.0.0.1:{port}/v1", "max_retries: 0\n")
    _cli("init", "alpha")
    data = json.loads(_cli("mem0", "status", "alpha", "--json", code=1).stdout)
    assert data["mode"] == "open-source" and data["reachable"] is False
    assert "could not open its store" in data["error"] and "Connection" in data["error"]
