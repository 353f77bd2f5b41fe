"""Prompt assembly: what the model receives, block by block, with exact offline token counts."""

import json
import socket
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
import tiktoken
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.prompt import assemble_prompt, token_counter
from memclaw.prompt.assemble import BASE_PROMPT
from memclaw.workspace import Workspace
from memclaw.workspace.entries import Entry, format_entries
from memclaw.workspace.owners import owner_dirname
from memclaw.workspace.scope import Scope

CORE = ["AGENTS.md", "SOUL.md", "PROFILE.md", "MEMORY.md"]


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Fail any attempt to reach the network, and reload the encoding under that rule."""
    attempts: list[Any] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        attempts.append(args)
        raise OSError("network access attempted during a test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})  # force a fresh load
    token_counter.cache_clear()
    yield attempts
    token_counter.cache_clear()
    assert attempts == []


def _cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_counter_is_exact_cl100k_without_network(no_network: list[Any]) -> None:
    counter = token_counter()
    assert counter.exact
    assert counter.name == "cl100k_base"
    # A known cl100k_base encoding: "tiktoken is great!" is six tokens.
    assert counter.count("tiktoken is great!") == 6
    assert counter.count("<|endoftext|>") > 1  # special tokens are counted as plain text
    assert no_network == []


def test_counter_falls_back_to_a_labelled_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(name: str) -> Any:
        raise ValueError("no such encoding")

    monkeypatch.setattr(tiktoken, "get_encoding", broken)
    token_counter.cache_clear()
    try:
        counter = token_counter()
        assert not counter.exact
        assert "estimate" in counter.name
        assert counter.count("x" * 40) == 10
    finally:
        token_counter.cache_clear()


def test_prompt_command_prints_blocks_in_sort_order(
    demo_agent: Path, no_network: list[Any]
) -> None:
    result = _cli("prompt", "demo")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith(BASE_PROMPT)
    positions = [text.index(f"--- {name} ---\n") for name in CORE]
    assert positions == sorted(positions)
    for name in CORE:
        body = (demo_agent / name).read_text(encoding="utf-8").strip()
        assert f"--- {name} ---\n{body}" in text
    assert "--- DREAMS.md ---" not in text
    assert "--- memory/" not in text  # daily notes are not injected

    counter = token_counter()
    assembled = assemble_prompt(Scope(Workspace.open().agent("demo")))
    table = result.stderr
    assert "cl100k_base" in table
    for block in assembled.blocks:
        assert block.tokens == counter.count(block.text)
        row = next(line for line in table.splitlines() if f" {block.label} " in line)
        assert str(block.tokens) in row
    total_row = next(line for line in table.splitlines() if "total" in line)
    assert str(counter.count(assembled.text)) in total_row
    assert assembled.total_tokens == counter.count(text.rstrip("\n"))


def test_prompt_json(demo_agent: Path, no_network: list[Any]) -> None:
    result = _cli("prompt", "demo", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["agent"] == "demo"
    assert data["owner"] is None
    assert data["exact"] is True
    assert data["counter"] == "cl100k_base"
    assert [b["label"] for b in data["blocks"]] == ["system", *CORE]
    counter = token_counter()
    assert data["tokens"] == counter.count(data["text"])
    for block in data["blocks"]:
        assert block["tokens"] == counter.count(block["text"])
    assert data["text"] == "\n\n".join(b["text"] for b in data["blocks"])
    assert data["omitted_entries"] == 0


def test_sort_order_and_enabled_come_from_agent_yaml(demo_agent: Path) -> None:
    ws = Workspace.open()
    agent = ws.agent("demo")
    agent.set_meta("MEMORY.md", order=-1)
    agent.set_meta("SOUL.md", enabled=False)
    agent.set_meta("DREAMS.md", enabled=True, order=10)
    labels = [b.label for b in assemble_prompt(Scope(agent)).blocks]
    assert labels == ["system", "MEMORY.md", "AGENTS.md", "PROFILE.md", "DREAMS.md"]


def test_enabled_but_missing_file_is_skipped(demo_agent: Path) -> None:
    (demo_agent / "SOUL.md").unlink()
    labels = [b.label for b in assemble_prompt(Scope(Workspace.open().agent("demo"))).blocks]
    assert labels == ["system", "AGENTS.md", "PROFILE.md", "MEMORY.md"]


def test_global_files_are_injected(demo_agent: Path, isolated_env: Path) -> None:
    (isolated_env / "_global").mkdir()
    (isolated_env / "_global" / "HOUSE.md").write_text("# House rules\n\nBe kind.\n", "utf-8")
    blocks = assemble_prompt(Scope(Workspace.open().agent("demo"))).blocks
    assert blocks[-1].label == "global/HOUSE.md"
    assert blocks[-1].text == "--- global/HOUSE.md ---\n# House rules\n\nBe kind."


# --- entry injection budget -----------------------------------------------------------------


def _write_entries(base: Path, category: str, count: int, size: int = 30) -> Path:
    entries = [
        Entry(
            f"m-{category[:3]}-{i:03d}",
            f"{category} fact {i:03d} " + "w" * size,
            category,
            date(2026, 1, 1),
            date(2026, 1, 1) + timedelta(days=i),
        )
        for i in range(count)
    ]
    path = base / "entries" / f"{category}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(format_entries(entries, category), encoding="utf-8")
    return path


def test_entries_are_trimmed_per_category_at_injection_only(demo_agent: Path) -> None:
    path = _write_entries(demo_agent, "preference", 50)
    _write_entries(demo_agent, "rule", 2)
    before = path.read_bytes()
    assembled = assemble_prompt(Scope(Workspace.open().agent("demo")))
    block = next(b for b in assembled.blocks if b.label == "memory entries")
    assert block.text.count("- [preference]") == 40
    assert block.text.count("- [rule]") == 2
    assert "preference fact 049" in block.text  # newest kept
    assert "preference fact 009" not in block.text  # oldest ten left out
    assert "10 older entries not shown" in block.text
    assert assembled.omitted_entries == 10
    assert path.read_bytes() == before  # never trimmed on disk
    lines = [ln for ln in block.text.splitlines() if ln.startswith("- [")]
    assert lines[0].startswith("- [preference] preference fact 049")


def test_entries_are_trimmed_by_characters(demo_agent: Path) -> None:
    _write_entries(demo_agent, "project", 30, size=300)
    assembled = assemble_prompt(Scope(Workspace.open().agent("demo")))
    block = next(b for b in assembled.blocks if b.label == "memory entries")
    shown = [ln for ln in block.text.splitlines() if ln.startswith("- [")]
    assert sum(len(ln) + 1 for ln in shown) <= 4000
    assert len(shown) + assembled.omitted_entries == 30
    assert f"{assembled.omitted_entries} older entries not shown" in block.text


def test_zero_budget_means_unlimited(demo_agent: Path) -> None:
    _write_entries(demo_agent, "preference", 60, size=300)
    ws = Workspace.open(overrides={"inject_max_chars": 0, "inject_max_entries_per_type": 0})
    assembled = assemble_prompt(Scope(ws.agent("demo")))
    block = next(b for b in assembled.blocks if b.label == "memory entries")
    assert block.text.count("- [preference]") == 60
    assert assembled.omitted_entries == 0
    assert "not shown" not in block.text


def test_prompt_cli_reports_omitted_entries(demo_agent: Path) -> None:
    _write_entries(demo_agent, "rule", 45)
    result = _cli("prompt", "demo", "--json")
    data = json.loads(result.stdout)
    assert data["omitted_entries"] == 5
    assert "5 older entries not shown" in data["text"]


# --- owners ------------------------------------------------------------------------------------


def _personal(agent_dir: Path, owner: str, name: str, text: str) -> None:
    folder = agent_dir / "owners" / owner_dirname(owner)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


def test_personal_memory_is_shown_only_to_its_owner(demo_agent: Path) -> None:
    _personal(demo_agent, "user:maya", "MEMORY.md", "# Memory\n\n- Maya's knee is healing\n")
    _personal(demo_agent, "telegram:bob", "MEMORY.md", "# Memory\n\n- Bob's bike is red\n")
    _write_entries(demo_agent / "owners" / owner_dirname("user:maya"), "identity", 3)
    agent = Workspace.open().agent("demo")

    maya = assemble_prompt(
        Scope.resolve(agent, "Maya")
    )  # a bare id is user:Maya, ids are case-sensitive
    assert "knee is healing" not in maya.text
    maya = assemble_prompt(Scope.resolve(agent, "user:maya"))
    assert maya.owner == "user:maya"
    assert "--- personal MEMORY.md of user:maya ---" in maya.text
    assert "knee is healing" in maya.text
    assert "identity fact 002" in maya.text
    assert "bike is red" not in maya.text

    bob = assemble_prompt(Scope.resolve(agent, "telegram:bob"))
    assert "bike is red" in bob.text
    assert "knee is healing" not in bob.text and "identity fact" not in bob.text

    nobody = assemble_prompt(Scope(agent))
    assert "knee is healing" not in nobody.text and "bike is red" not in nobody.text


def test_without_isolation_no_personal_block(demo_agent: Path) -> None:
    _personal(demo_agent, "user:maya", "MEMORY.md", "# Memory\n\n- Maya's knee is healing\n")
    ws = Workspace.open(overrides={"owner_isolation": False})
    assembled = assemble_prompt(Scope.resolve(ws.agent("demo"), "user:maya"))
    assert "knee is healing" not in assembled.text
    assert [b.label for b in assembled.blocks] == ["system", *CORE]


def test_prompt_cli_with_owner(demo_agent: Path) -> None:
    _personal(demo_agent, "user:maya", "PROFILE.md", "# Profile\n\n- likes trail running\n")
    data = json.loads(_cli("prompt", "demo", "--owner", "user:maya", "--json").stdout)
    assert data["owner"] == "user:maya"
    assert data["blocks"][-1]["label"] == "personal PROFILE.md of user:maya"
    assert "trail running" in data["text"]
    other = json.loads(_cli("prompt", "demo", "--owner", "user:sam", "--json").stdout)
    assert "trail running" not in other["text"]


def test_session_entries_are_not_injected_into_every_prompt(isolated_env: Path) -> None:
    from memclaw.entries.memories import remember

    ws = Workspace.open()
    agent, _ = ws.init_agent("a")
    remember(Scope(agent), "Maya prefers uv for Python projects", category="preference")
    remember(Scope(agent), "Maya wants answers in Swedish today", session_id="s-42")
    text = assemble_prompt(Scope(agent)).text
    assert "prefers uv" in text
    assert "Swedish today" not in text
