"""Legacy owner folders (upper-case letters kept as they were) move to their current name."""

from pathlib import Path

from memclaw.workspace import Agent, Workspace
from memclaw.workspace.owners import migrate_owner_folders
from memclaw.workspace.scope import Scope


def _legacy(agent: Agent, dirname: str, text: str) -> Path:
    folder = agent.path / "owners" / dirname
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text(text, encoding="utf-8")
    return folder


def test_a_legacy_folder_is_renamed_and_read_by_its_owner(ws: Workspace, agent: Agent) -> None:
    _legacy(agent, "user%3AMaya", "# Maya\n- Maya's knee is healing\n")
    opened = ws.agent("alpha")  # opening the agent migrates
    assert (agent.path / "owners" / "user%3A%4Daya" / "MEMORY.md").is_file()
    assert not (agent.path / "owners" / "user%3AMaya").exists()
    assert "knee" in Scope.resolve(opened, "user:Maya").read("MEMORY.md")
    assert Scope.resolve(opened, "user:maya").read("MEMORY.md") == ""
    assert opened.owners() == ["user:Maya"]


def test_resolving_a_scope_migrates_before_the_folder_is_looked_up(agent: Agent) -> None:
    _legacy(agent, "user%3AMaya", "# Maya\n- secret plan\n")
    maya = Scope.resolve(agent, "user:maya")  # on macOS user%3AMaya *is* user%3Amaya
    assert maya.prefix == "owners/user%3Amaya/"
    assert not (agent.path / "owners" / "user%3AMaya").exists()
    assert "secret plan" in Scope.resolve(agent, "user:Maya").read("MEMORY.md")


def test_a_taken_name_is_never_merged_and_nothing_is_lost(agent: Agent) -> None:
    old = _legacy(agent, "user%3AMaya", "old\n")
    _legacy(agent, "user%3A%4Daya", "new\n")
    assert migrate_owner_folders(agent) == []
    assert (old / "MEMORY.md").read_text(encoding="utf-8") == "old\n"
    assert Scope.resolve(agent, "user:Maya").read("MEMORY.md") == "new\n"


def test_current_and_foreign_folders_are_left_alone(agent: Agent) -> None:
    _legacy(agent, "user%3Amaya", "maya\n")
    _legacy(agent, "USER%3Aalice", "not a name memclaw wrote\n")
    assert migrate_owner_folders(agent) == []
    assert (agent.path / "owners" / "USER%3Aalice").is_dir()
