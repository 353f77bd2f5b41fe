"""Over MCP too, a model's file write never rewords or removes a line a person wrote."""

from pathlib import Path

from memclaw.facts import inbox
from memclaw.mcp.catalogue import MemoryTools
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope

LINE = "- Maya Lindqvist (she/her) lives in Majorna, Gothenburg, Sweden."


def test_an_mcp_edit_of_a_persons_line_is_held_never_written(isolated_env: Path) -> None:
    ws = Workspace.open(isolated_env)
    agent, _ = ws.init_agent("home")
    agent.write("PROFILE.md", f"# Profile\n{LINE}\n")
    box = MemoryTools(Scope(agent), "mcp-test")
    # No person speaks over MCP: even a correction cue in the model's text is the model's.
    edit = {"filename": "PROFILE.md", "old_text": "Majorna", "new_text": "Linnéstaden"}
    outcome = box.call("memory_files_edit", edit)
    assert outcome.ok and outcome.data is not None and outcome.data["action"] == "held"
    assert agent.read("PROFILE.md") == f"# Profile\n{LINE}\n"
    (item,) = inbox.open_items(agent, "")
    assert item.old == LINE[2:] and "Linnéstaden" in item.new
    removal = {"filename": "PROFILE.md", "old_text": f"# Profile\n{LINE}", "new_text": "# Profile"}
    gone = box.call("memory_files_edit", removal)
    assert not gone.ok and "a person wrote" in gone.text
    assert agent.read("PROFILE.md") == f"# Profile\n{LINE}\n"
