"""What the global options hand to every command."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import typer

from memclaw.workspace import Workspace


@dataclass
class CliState:
    root: str | None = None
    debug: bool = False
    overrides: dict[str, Any] = field(default_factory=dict)

    def workspace(self, **extra: Any) -> Workspace:
        """Open the workspace with flags layered over files and environment."""
        return Workspace.open(self.root, os.environ, {**self.overrides, **extra})


def state(ctx: typer.Context) -> CliState:
    root = ctx.find_root()
    if not isinstance(root.obj, CliState):
        root.obj = CliState()
    return root.obj
