"""`init` seeds the core files with their injection metadata, and is safe to run twice."""

from pathlib import Path

import pytest
import yaml

from memclaw.errors import AgentNotFoundError, WorkspaceError
from memclaw.workspace import Agent, Workspace
from memclaw.workspace.files import write_file
from memclaw.workspace.meta import FileMeta
from memclaw.workspace.scope import Scope
from memclaw.workspace.templates import SEED_FILES

CORE = ["AGENTS.md", "SOUL.md", "PROFILE.md", "MEMORY.md"]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.endswith(".lock")
    }


def test_init_seeds_four_files_enabled_in_order(ws: Workspace) -> None:
    agent, created = ws.init_agent("alpha")
    assert created == CORE
    for name in CORE:
        text = (agent.path / name).read_text(encoding="utf-8")
        assert text == SEED_FILES[name]
        assert text.startswith("# ") and "## " in text
    meta = yaml.safe_load((agent.path / ".memclaw" / "agent.yaml").read_text(encoding="utf-8"))
    assert meta["files"] == {
        name: {"enabled": True, "sort_order": order} for order, name in enumerate(CORE)
    }
    assert agent.meta() == {name: FileMeta(True, order) for order, name in enumerate(CORE)}
    assert ws.agent_ids() == ["alpha"]


def test_seeded_files_stay_under_their_ceilings(ws: Workspace) -> None:
    assert len(SEED_FILES["PROFILE.md"]) <= ws.settings.profile_max_chars
    assert len(SEED_FILES["MEMORY.md"]) <= ws.settings.memory_max_chars


def test_rerun_changes_nothing(ws: Workspace) -> None:
    agent, _ = ws.init_agent("alpha")
    (agent.path / "MEMORY.md").write_text("# Memory\n\nedited by hand\n", encoding="utf-8")
    agent.set_meta("SOUL.md", enabled=False)
    before = _snapshot(agent.path)
    again, created = ws.init_agent("alpha")
    assert created == []
    assert again.path == agent.path
    assert _snapshot(agent.path) == before


def test_rerun_restores_only_missing_files(ws: Workspace) -> None:
    agent, _ = ws.init_agent("alpha")
    (agent.path / "SOUL.md").unlink()
    _, created = ws.init_agent("alpha")
    assert created == ["SOUL.md"]


def test_a_file_written_later_is_disabled(agent: Agent) -> None:
    write_file(agent, "NOTES.md", "# Notes\n\n- the garden shed needs paint\n")
    info = {f.name: f for f in agent.list_files()}
    assert info["NOTES.md"].enabled is False
    assert info["NOTES.md"].sort_order is None
    assert [f.name for f in agent.list_files() if f.enabled] == CORE
    assert "NOTES.md" not in agent.meta()


def test_set_meta_enables_and_orders(agent: Agent) -> None:
    write_file(agent, "NOTES.md", "# Notes\n")
    agent.set_meta("NOTES.md", enabled=True, order=1)
    agent.set_meta("SOUL.md", order=9)
    meta = agent.meta()
    assert meta["NOTES.md"] == FileMeta(True, 1)
    assert meta["SOUL.md"] == FileMeta(True, 9)
    names = [f.name for f in agent.list_files()]
    assert names.index("NOTES.md") < names.index("PROFILE.md") < names.index("SOUL.md")


def test_list_files_skips_hidden_and_owner_files(agent: Agent) -> None:
    (agent.path / ".memclaw" / "old.md").write_text("x", encoding="utf-8")
    (agent.path / ".MEMORY.md.abc123.tmp").write_text("half", encoding="utf-8")
    (agent.path / ".draft.md").write_text("hidden", encoding="utf-8")
    (agent.path / "owners" / "user%3Aa").mkdir(parents=True)
    (agent.path / "owners" / "user%3Aa" / "MEMORY.md").write_text("mine", encoding="utf-8")
    assert [f.name for f in agent.list_files()] == CORE
    assert [f.name for f in Scope.resolve(agent, "user:a").list_files()] == ["MEMORY.md"]


def test_init_over_an_existing_file_is_refused(ws: Workspace) -> None:
    (ws.root / "memclaw.yaml").write_text("model: x\n", encoding="utf-8")
    with pytest.raises(WorkspaceError, match="not a folder"):
        ws.init_agent("memclaw.yaml")
    assert (ws.root / "memclaw.yaml").read_text(encoding="utf-8") == "model: x\n"


def test_agent_ids_skip_what_is_not_an_agent(ws: Workspace) -> None:
    ws.init_agent("beta")
    ws.init_agent("alpha")
    for name in ("_global", ".git", "has space", "ümlaut"):
        (ws.root / name).mkdir()
    (ws.root / "file.md").write_text("x", encoding="utf-8")
    assert ws.agent_ids() == ["alpha", "beta"]
    with pytest.raises(AgentNotFoundError):
        ws.agent("file.md")


def test_owner_listing_without_isolation_is_the_team_listing(isolated_env: Path) -> None:
    ws = Workspace.open(isolated_env, overrides={"owner_isolation": False})
    agent, _ = ws.init_agent("alpha")
    (agent.path / "owners" / "user%3Ab").mkdir(parents=True)
    (agent.path / "owners" / "user%3Ab" / "MEMORY.md").write_text("theirs", encoding="utf-8")
    assert Scope.resolve(agent, "user:a").list_files() == agent.list_files()
    assert [f.name for f in Scope.resolve(agent, "user:a").list_files() if f.enabled] == CORE
