"""Which copy ranks first: the weightier file for a line said twice, the owner's own memory."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memclaw.index import search
from memclaw.workspace import Workspace

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
RULE = "- Always answer in British English unless asked otherwise."


def _ws(root: Path) -> Workspace:
    agent = root / "pal"
    (agent / "memory").mkdir(parents=True)
    (agent / "AGENTS.md").write_text(
        f"# How I work\n\n## Rules\n{RULE}\n- Keep replies short.\n", encoding="utf-8"
    )
    (agent / "MEMORY.md").write_text(
        "# Memory\n\n- Deploys go out on Tuesdays after the standup.\n", encoding="utf-8"
    )
    (agent / "memory" / "2026-11-20.md").write_text(
        f"# 2026-11-20\n\n## 09:00\n{RULE}\n- Lunch was late today.\n", encoding="utf-8"
    )
    mine = agent / "owners" / "user%3Aalice" / "memory"
    mine.mkdir(parents=True)
    (mine / "2026-11-21.md").write_text(
        "# 2026-11-21\n\n## 10:00\n- I prefer deploys on Tuesdays, before lunch.\n"
        "- Keep replies short.\n",
        encoding="utf-8",
    )
    return Workspace.open(root, env={}, clock=lambda: NOW)


def test_a_line_in_agents_md_ranks_above_its_copy_in_a_daily_note(isolated_env: Path) -> None:
    hits = search(_ws(isolated_env), "British English", log=False)
    assert [h.file for h in hits] == ["AGENTS.md"]  # and its copy is not shown again


def test_the_owners_personal_memory_ranks_first_for_them(isolated_env: Path) -> None:
    ws = _ws(isolated_env)
    team = search(ws, "deploys Tuesdays", log=False)
    assert [h.file for h in team] == ["MEMORY.md"]
    mine = search(ws, "deploys Tuesdays", owner="user:alice", log=False)
    assert [h.scope for h in mine] == ["personal", "team"]
    # A line said in the owner's notes and in AGENTS.md: the owner's copy, once.
    copies = search(ws, "keep replies short", owner="user:alice", log=False)
    assert [h.file for h in copies][:1] == ["owners/user%3Aalice/memory/2026-11-21.md"]
    assert "AGENTS.md" not in [h.file for h in copies]
