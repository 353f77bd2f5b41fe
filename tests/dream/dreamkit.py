"""Helpers for the dreaming tests: a workspace on a fixed clock, notes, a model endpoint."""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from memclaw.workspace import Agent, Workspace
from memclaw.workspace.scope import Scope

NOW = datetime(2026, 11, 28, 3, 0, tzinfo=UTC)
TODAY = NOW.date()


class Clock:
    """A clock the test can move forward."""

    def __init__(self, now: datetime = NOW) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def workspace(root: Path, clock: Clock | None = None, **overrides: Any) -> Workspace:
    return Workspace.open(root, env={}, overrides=overrides, clock=clock or Clock())


def model_workspace(
    root: Path, base_url: str, clock: Clock | None = None, **extra: Any
) -> Workspace:
    return workspace(root, clock, base_url=base_url, api_key="test-key", max_retries=0, **extra)


def day(offset: int) -> date:
    """``offset`` days before the fixed today."""
    return TODAY - timedelta(days=offset)


def note(agent: Agent, when: date, *items: str, owner: str | None = None) -> None:
    Scope.resolve(agent, owner).append_daily(
        "\n".join(f"- {item}" for item in items), day=when, heading="10:00"
    )


def tree(path: Path) -> dict[str, str]:
    """Every file under ``path`` with the hash of its bytes."""
    return {
        p.relative_to(path).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(path.rglob("*"))
        if p.is_file()
    }


MEMORY = """\
# Memory

## Active projects

- The lotsen PostGIS migration moves PostgreSQL 14 to 16.
- Half-marathon training for Göteborgsvarvet on 2027-05-15.

## Decisions

- lotsen uses uv instead of Poetry since 2026-11-18.
- CI caches uv downloads with setup-uv.

## People

- Jonas Ek is the CTO and signs off cutover dates.
- Kenji Morita is a GIS contractor in Osaka.

## Rules (hand-edited)

- Keep answers short; commands first.
- Use ISO dates and 24-hour times.
"""
