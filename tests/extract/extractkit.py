"""Helpers for the extraction and memory-entry tests: a fixed clock, an agent, chats."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memclaw.workspace import Agent, Workspace

NOW = datetime(2026, 3, 30, 14, 5, tzinfo=UTC)


class Clock:
    def __init__(self, now: datetime = NOW) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def make_agent(
    root: Path, clock: Clock | None = None, name: str = "assistant", **overrides: Any
) -> Agent:
    ws = Workspace.open(root, env={}, overrides=overrides, clock=clock or Clock())
    agent, _ = ws.init_agent(name)
    return agent


def model_agent(root: Path, base_url: str, clock: Clock | None = None, **extra: Any) -> Agent:
    return make_agent(root, clock, base_url=base_url, api_key="test", max_retries=0, **extra)


CHAT = [
    {"role": "user", "content": "Hi there, quick setup question."},
    {"role": "assistant", "content": "Sure, go ahead."},
    {
        "role": "user",
        "content": "I'm Sarah, I work at Cloudflare. We decided to switch our monitoring "
        "from Datadog to Grafana because of cost.",
    },
    {"role": "assistant", "content": "Noted. Anything else?"},
    {"role": "user", "content": "I prefer terse answers with code first, thanks."},
]


def tree(path: Path) -> dict[str, bytes]:
    return {
        p.relative_to(path).as_posix(): p.read_bytes()
        for p in sorted(path.rglob("*"))
        if p.is_file()
    }


def saying(*lines: str) -> list[dict[str, str]]:
    """CHAT, and then the person saying ``lines``: a conversation that grounds what a
    model's answer writes of them (a line nobody said is left out as invented)."""
    turns = [
        [{"role": "assistant", "content": "Noted."}, {"role": "user", "content": line}]
        for line in lines
    ]
    return [*CHAT, *(turn for pair in turns for turn in pair)]
