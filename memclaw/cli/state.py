"""What the global options hand to every command."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import typer

from memclaw.errors import UsageError
from memclaw.workspace import OwnerKey, Scope, Workspace, normalise_owner
from memclaw.workspace.paths import check_root

if TYPE_CHECKING:
    from memclaw.config import Settings


@dataclass
class CliState:
    root: str | None = None
    debug: bool = False
    overrides: dict[str, Any] = field(default_factory=dict)

    def workspace(self, *, creating: bool = False, **extra: Any) -> Workspace:
        """Open the workspace with flags layered over files and environment.

        A root named by --root or $MEMCLAW_ROOT must exist: a typo would otherwise
        read as an empty root. Only ``init`` (``creating``) may make one.
        """
        ws = Workspace.open(self.root, os.environ, {**self.overrides, **extra})
        check_root(ws.root_choice, creating=creating)
        return ws


def state(ctx: typer.Context) -> CliState:
    root = ctx.find_root()
    if not isinstance(root.obj, CliState):
        root.obj = CliState()
    return root.obj


def scope(ctx: typer.Context, agent_id: str, owner: str | None) -> Scope:
    """The edge: open the agent and resolve the raw ``--owner`` once, into a Scope."""
    return Scope.resolve(state(ctx).workspace().agent(agent_id), owner)


def owner_key(owner: str | None) -> OwnerKey | None:
    """A reader's raw ``--owner`` normalised once (search spans agents, so no Scope)."""
    return normalise_owner(owner) if owner else None


def refuse_model_without_endpoint(model: str | None, settings: Settings) -> None:
    """--model names a model of an endpoint: with none set it would be silently ignored."""
    if model and not settings.model_configured:
        raise UsageError(
            f"--model {model} needs an endpoint: set base_url (or OPENAI_API_KEY), "
            "or leave --model out to use the offline engine"
        )


def complete_agent(ctx: typer.Context, incomplete: str) -> list[str]:
    """Tab completion of an agent id: the agents under the root the command line names."""
    from memclaw.errors import MemclawError

    root = ctx.find_root().params.get("root")
    try:
        ids = Workspace.open(root, os.environ).agent_ids()
    except MemclawError:  # a broken settings file: offer nothing, print nothing into the shell
        return []
    return [agent for agent in ids if agent.startswith(incomplete)]


def complete_setting(incomplete: str) -> list[str]:
    """Tab completion of a setting's name (config get/set/unset)."""
    from memclaw.config import setting_fields

    return [f.name for f in setting_fields() if f.name.startswith(incomplete)]
