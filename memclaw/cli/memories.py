"""memclaw remember and memclaw memories: explicit, addressable memory entries."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from memclaw.cli.basic import AgentArg, JsonOpt, OwnerOpt
from memclaw.cli.render import err, print_json, print_table
from memclaw.cli.state import scope
from memclaw.errors import UsageError
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.workspace.entries import Entry

memories_app = typer.Typer(
    help=(
        "List, show and forget memory entries.\n\n"
        "Examples:\n\n"
        "    memclaw memories list demo\n\n"
        "    memclaw memories get demo m-3f9a2c1b\n\n"
        '    memclaw memories forget demo --query "Poetry"'
    ),
    no_args_is_help=True,
)

CategoryOpt = Annotated[
    str | None,
    typer.Option(
        "--category",
        "-c",
        help="identity, preference, rule, decision, configuration, "
        "technical, relationship, project or other (or one the categories setting adds).",
    ),
]
SessionOpt = Annotated[
    str | None, typer.Option("--session", help="Session id: the entry lives only in that session.")
]


def _entry_dict(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "text": entry.text,
        "category": entry.category,
        "created": entry.created.isoformat() if entry.created else None,
        "updated": entry.updated.isoformat() if entry.updated else None,
        **entry.extra,
    }


def remember(
    ctx: typer.Context,
    agent: AgentArg,
    text: Annotated[str, typer.Argument(help="The fact to keep, e.g. 'Maya prefers uv'.")],
    category: CategoryOpt = None,
    owner: OwnerOpt = None,
    session: SessionOpt = None,
    force: Annotated[
        bool, typer.Option("--force", help="Remember it even if it was forgotten before.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Keep one fact as a memory entry (long-term unless a session is named).

    The category is guessed when not given. A fact that restates an existing
    entry updates it; one that changes it (same subject, new value) replaces it
    and the old version is kept in history. Credentials are refused.

    Examples:

        memclaw remember demo "Maya prefers uv for Python projects"

        memclaw remember demo "Deadline for the migration is 2026-12-12" -c project

        memclaw remember demo "Wants short answers today" --session s-42 --owner user:maya
    """
    from memclaw.entries.memories import remember as remember_fact

    where = scope(ctx, agent, owner)
    result = remember_fact(where, text, category=category, session_id=session, force=force)
    if as_json:
        print_json(
            {
                "action": str(result.action),
                "entry": _entry_dict(result.entry) if result.entry else None,
                "previous": _entry_dict(result.previous) if result.previous else None,
                "reason": result.reason,
            }
        )
        return
    console = err()
    if result.entry is None:
        console.print(f"skipped: {result.reason}", markup=False)
        return
    line = f"{result.action} {result.entry.id} [{result.entry.category}]"
    if result.previous is not None and result.previous.id != result.entry.id:
        line += f" (replaces {result.previous.id}: {result.previous.text})"
    console.print(line, markup=False)


@memories_app.command("list")
def list_(
    ctx: typer.Context,
    agent: AgentArg,
    owner: OwnerOpt = None,
    kind: Annotated[str, typer.Option("--scope", help="all, long-term or session.")] = "all",
    category: CategoryOpt = None,
    session: SessionOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List memory entries, newest first.

    Examples:

        memclaw memories list demo

        memclaw memories list demo --owner user:maya --category preference --json
    """
    from memclaw.entries.memories import list_memories

    where = scope(ctx, agent, owner)
    entries = list_memories(where, kind, category=category, session_id=session)
    if as_json:
        print_json({"agent": agent, "memories": [_entry_dict(e) for e in entries]})
        return
    if not entries:
        err().print(f"no memory entries in {agent}; add one with `memclaw remember {agent} TEXT`")
        return
    from rich.table import Table

    table = Table(title=f"{plural(len(entries), 'memory')} of {agent}", title_justify="left")
    for column in ("id", "category", "updated", "text"):
        table.add_column(column, overflow="fold")
    for entry in entries:
        table.add_row(entry.id, entry.category, entry.sort_date.isoformat(), entry.text)
    print_table(table)


@memories_app.command("get")
def get(
    ctx: typer.Context,
    agent: AgentArg,
    memory_id: Annotated[str, typer.Argument(metavar="ID", help="Entry id, e.g. m-3f9a2c1b.")],
    owner: OwnerOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Show one memory entry.

    Examples:

        memclaw memories get demo m-3f9a2c1b

        memclaw memories get demo m-3f9a2c1b --owner user:maya --json
    """
    from memclaw.entries.memories import get_memory

    entry = get_memory(scope(ctx, agent, owner), memory_id)
    if as_json:
        print_json(_entry_dict(entry))
        return
    sys.stdout.write(entry.text + "\n")
    meta = ", ".join(f"{k}: {v}" for k, v in _entry_dict(entry).items() if k != "text" and v)
    err().print(meta, markup=False)


@memories_app.command("forget")
def forget(
    ctx: typer.Context,
    agent: AgentArg,
    memory_id: Annotated[
        str | None, typer.Argument(metavar="[ID]", help="Entry id to forget.")
    ] = None,
    query: Annotated[
        str | None, typer.Option("--query", "-q", help="Forget the entries matching these words.")
    ] = None,
    owner: OwnerOpt = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Forget entries by id or by query; they are not learned again later.

    Lists what will be forgotten and asks first, unless --yes.

    Examples:

        memclaw memories forget demo m-3f9a2c1b

        memclaw memories forget demo --query "staging password" --yes
    """
    from memclaw.entries.memories import forget as forget_entries
    from memclaw.entries.memories import get_memory, match_memories

    if (memory_id is None) == (query is None):
        raise UsageError("give an ID or --query, not both and not neither")
    where = scope(ctx, agent, owner)
    targets = (
        [get_memory(where, memory_id)]
        if memory_id is not None
        else match_memories(where, query or "")
    )
    if not targets:
        if as_json:
            print_json({"agent": agent, "forgotten": []})
        else:
            err().print("nothing matches; nothing forgotten")
        return
    if not yes:
        console = err()
        console.print(f"about to forget {len(targets)} memor{'y' if len(targets) == 1 else 'ies'}:")
        for entry in targets:
            console.print(f"  {entry.id} [{entry.category}] {entry.text}", markup=False)
        if not typer.confirm("forget these?", default=False, err=True):
            raise typer.Exit(1)
    forgotten = []
    for entry in targets:
        forgotten.extend(forget_entries(where, id=entry.id))
    if as_json:
        print_json({"agent": agent, "forgotten": [_entry_dict(e) for e in forgotten]})
    else:
        err().print(f"forgot {', '.join(e.id for e in forgotten)}", markup=False)


def register(app: typer.Typer) -> None:
    app.command()(remember)
    app.add_typer(memories_app, name="memories")
