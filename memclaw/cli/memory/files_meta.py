"""``memclaw files enable|disable``: choose which files are injected into the prompt."""

from __future__ import annotations

from typing import Annotated

import typer

from memclaw.cli.render import err
from memclaw.cli.state import complete_agent, state

AgentArg = Annotated[
    str, typer.Argument(help="Agent id.", metavar="AGENT", autocompletion=complete_agent)
]
FileArg = Annotated[str, typer.Argument(help="File relative to the agent.", metavar="FILE")]
OrderOpt = Annotated[
    int | None, typer.Option("--order", help="Place in the prompt (lower comes first).")
]


def _set(ctx: typer.Context, agent: str, name: str, enabled: bool, order: int | None) -> None:
    from memclaw.errors import WorkspaceError

    found = state(ctx).workspace().agent(agent)
    if not (found.path / name).is_file():
        raise WorkspaceError(f"{agent} has no file {name!r}: see `memclaw files list {agent}`")
    found.set_meta(name, enabled=enabled, order=order)
    meta = found.meta()[name]
    word = "injected" if meta.enabled else "not injected"
    err().print(f"{name}: {word}, order {meta.sort_order}", markup=False)


def files_enable(
    ctx: typer.Context, agent: AgentArg, name: FileArg, order: OrderOpt = None
) -> None:
    """Inject a file into the agent's prompt every turn.

    Examples:

        memclaw files enable demo NOTES.md

        memclaw files enable demo NOTES.md --order 5
    """
    _set(ctx, agent, name, True, order)


def files_disable(
    ctx: typer.Context, agent: AgentArg, name: FileArg, order: OrderOpt = None
) -> None:
    """Stop injecting a file; it stays on disk and searchable.

    Examples:

        memclaw files disable demo SOUL.md
    """
    _set(ctx, agent, name, False, order)


def register(app: typer.Typer) -> None:
    from memclaw.cli.memory.files import files_app

    files_app.command("enable")(files_enable)
    files_app.command("disable")(files_disable)
