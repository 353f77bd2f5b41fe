"""An agent holding one fact in every place memclaw keeps text, for the forget tests."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from extract.extractkit import Clock, make_agent
from secretkit import index_blocks

from memclaw.entries.memories import remember
from memclaw.index import search
from memclaw.workspace import Agent
from memclaw.workspace.scope import Scope

WORD = b"pregnan"  # what `grep -ri` looks for: "pregnant" and "pregnancy" alike
PROFILE = (
    "# Profile\n\n- Maya lives in Gothenburg.\n- Maya is pregnant, due in May.\n"
    "- Maya prefers terse answers.\n"
)
MEMORY = (
    "# Memory\n\n## Life\n\n- Maya is pregnant; the baby is due in May.\n"
    "- Maya trains for the Göteborgsvarvet half marathon.\n"
)
DIARY = (
    "# DREAMS.md\n\n## 2026-03-29 03:00\n\n"
    "- **Patterns:** Maya is pregnant came up on two days. Running came up on three days.\n"
    "- **Held back:** the standup time (one day).\n"
)
TRANSCRIPT = [
    {"role": "user", "content": "Big news: I'm pregnant! The baby is due in May. Also, hi."},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {
                    "name": "memory_store",
                    "arguments": json.dumps({"text": "Maya is pregnant, due in May"}),
                },
            }
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": '{"action": "added"}'},
    {"role": "assistant", "content": "Congratulations! Noted that you are pregnant."},
    {"role": "user", "content": "Thanks. Can you check my Swedish homework later?"},
]


def planted(root: Path, clock: Clock | None = None, **settings: Any) -> Agent:
    """Agent ``max`` with the pregnancy in its files, history, entries, notes, transcript,
    diary, input history, logs and index (and other facts around it)."""
    agent = make_agent(root, clock, name="max", **settings)
    team = Scope(agent)
    # Entries first: remembered once PROFILE.md says it, it would be "already known".
    remember(team, "Maya is pregnant, due in May")
    remember(team, "Maya prefers uv for Python projects")
    agent.write("PROFILE.md", PROFILE)
    agent.write("MEMORY.md", MEMORY)
    # A second rewrite: history now keeps the version holding the fact.
    agent.write("MEMORY.md", MEMORY + "- Knut is a Finnish Lapphund.\n")
    agent.append_daily(
        "- Maya told me she is pregnant.\n- Standup moved to 09:30.", day=date(2026, 3, 28)
    )
    agent.append_daily(
        "- Pregnant, so Maya wants fewer late meetings.\n- Knut had his vaccination.",
        day=date(2026, 3, 29),
    )
    agent.write("DREAMS.md", DIARY)
    sessions = agent.path / "sessions"
    sessions.mkdir()
    (sessions / "s-1.jsonl").write_text(
        "".join(json.dumps(m) + "\n" for m in TRANSCRIPT), encoding="utf-8"
    )
    typed = agent.meta_dir / "chat-history" / "_team"
    typed.parent.mkdir(parents=True)
    typed.write_text("remember that I'm pregnant\n/help\n", encoding="utf-8")
    assert search(agent.workspace, "pregnant", agents=["max"])  # indexes, and logs the query
    return agent


def traces(folder: Path, word: bytes = WORD) -> list[str]:
    """`grep -ril WORD folder`: every file (.memclaw/ and the index included) holding it;
    the index's compressed blocks are read decompressed."""

    def held(path: Path) -> bytes:
        data = path.read_bytes()
        return data + index_blocks(path) if path.name == "index.sqlite" else data

    return sorted(
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and word in held(path).lower()
    )


def snapshot_of(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "index.sqlite" not in p.name
    }
