"""``memclaw mem0``: check the Mem0 connection, search its memory, back-fill past sessions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from memclaw.cli.basic import AgentArg, JsonOpt, OwnerOpt
from memclaw.cli.render import err, out, print_json
from memclaw.cli.state import scope
from memclaw.errors import UsageError

if TYPE_CHECKING:
    from memclaw.providers.mem0_api import Mem0Backend
    from memclaw.workspace.scope import Scope

MEM0_HELP = """Mem0, the optional external memory provider: status, search, sync.

Set it up in memclaw.yaml under `providers: mem0:` (mode, base_url, api_key;
or mode: open-source, Mem0's own library in-process, and its `oss:` parts);
see `memclaw config show`.

Examples:

    memclaw mem0 status demo

    memclaw mem0 search demo "allergies" --owner user:maya

    memclaw mem0 sync demo
"""
mem0_app = typer.Typer(help=MEM0_HELP, no_args_is_help=True)


def _client(where: Scope) -> Mem0Backend:
    from memclaw.providers.mem0_connect import open_mem0

    return open_mem0(where.agent)


@mem0_app.command("status")
def status(
    ctx: typer.Context, agent: AgentArg, owner: OwnerOpt = None, as_json: JsonOpt = False
) -> None:
    """Check the Mem0 address and key, and count the turns sent and still to send.

    Exits 1 when Mem0 cannot be reached or refuses the key.

    Examples:

        memclaw mem0 status demo

        memclaw mem0 status demo --owner user:maya --json
    """
    from memclaw.providers.mem0_api import OPEN_SOURCE, Mem0Error
    from memclaw.providers.mem0_forget import pending_scopes
    from memclaw.providers.mem0_state import all_synced
    from memclaw.providers.mem0_sync import backfill

    where = scope(ctx, agent, owner)
    settings = where.agent.settings
    data: dict[str, Any] = {"mode": settings.mem0_mode}
    error: str | None = None
    client = None
    try:
        client = _client(where)
        data.update(client.describe())
        client.ping()
    except Mem0Error as exc:
        if client is None and settings.mem0_mode != OPEN_SOURCE:
            raise  # a server's address or key is missing: the message says which to set
        # In-process, reaching Mem0 is opening its store: a failure is reported as a
        # server that is down would be.
        error = str(exc)
    data["search_enabled"] = settings.mem0_search_enabled
    data["sync_enabled"] = settings.mem0_sync_enabled
    data["reachable"], data["error"] = error is None, error
    data["synced_turns"] = sum(len(v) for v in all_synced(where).values())
    pending = backfill(where.agent, None, owner=where.owner, dry_run=True)
    data["unsent_turns"] = pending.sent
    # Forgets whose Mem0 delete could not finish: the next `mem0 sync` finishes them.
    data["forgets_pending"] = len(pending_scopes(where.agent))
    if as_json:
        print_json(data)
    else:
        for key, value in data.items():
            if value is not None:
                out().print(f"{key:15} {value}", markup=False, highlight=False)
    if not data["reachable"]:
        raise typer.Exit(1)


@mem0_app.command("search")
def search(
    ctx: typer.Context,
    agent: AgentArg,
    query: Annotated[list[str], typer.Argument(metavar="QUERY", help="What to look for.")],
    owner: OwnerOpt = None,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", min=1, help="Most memories to show.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Search what Mem0 keeps for one owner of an agent (its user_id and agent_id).

    Examples:

        memclaw mem0 search demo "food allergies" --owner user:maya

        memclaw mem0 search demo editor --owner user:maya --json
    """
    from memclaw.gates import redact

    where = scope(ctx, agent, owner)
    if where.owner is None:
        raise UsageError("Mem0 keeps memory per person: pass --owner, e.g. --owner user:maya")
    client = _client(where)
    top_k = limit or where.agent.settings.mem0_max_results
    from memclaw.providers.mem0_forget import visible

    found = client.search(redact(" ".join(query)), str(where.owner), where.agent.id, top_k)
    found = visible(where, found)  # a forgotten fact never comes back from Mem0
    if as_json:
        print_json({"memories": [m.to_dict() for m in found]})
        return
    if not found:
        err().print("no memories found", style="dim")
        return
    for memory in found:
        score = f"{memory.score:.2f} " if memory.score is not None else ""
        out().print(f"{score}{memory.text}  [{memory.id}]", markup=False, highlight=False)


@mem0_app.command("sync")
def sync(
    ctx: typer.Context,
    agent: AgentArg,
    owner: Annotated[
        str | None, typer.Option("--owner", help="Only this owner's sessions, e.g. user:maya.")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Count what would be sent; send nothing.")
    ] = False,
    again: Annotated[
        bool,
        typer.Option("--again", help="Send every turn again, as if none had been (a rebuild)."),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Send past chat turns to Mem0: each turn once; an interrupted run resumes.

    Turns a chat could not send (Mem0 down, or still queued when the chat
    ended) are sent too. Subagent, scheduled, --no-capture and owner-less turns
    never are, nor turns that say a forgotten fact; Mem0 deletes a forget could
    not finish (Mem0 was down) are finished first.

    Examples:

        memclaw mem0 sync demo

        memclaw mem0 sync demo --owner user:maya --dry-run --json

        memclaw mem0 sync demo --again
    """
    from memclaw.providers.mem0_state import unmark_synced
    from memclaw.providers.mem0_sync import backfill

    where = scope(ctx, agent, owner)
    if again and dry_run:
        raise UsageError("--again forgets what was sent; a --dry-run changes nothing: use one")
    client = _client(where)
    if again:
        unmark_synced(where.agent, where.label if owner else None)
    report = backfill(where.agent, client, owner=where.owner, dry_run=dry_run)
    if as_json:
        print_json(report.to_dict())
    else:
        verb = "would send" if dry_run else "sent"
        parts = [
            f"{verb} {report.sent} turn(s) from {report.sessions} session(s)",
            f"{report.already} already in Mem0",
        ]
        if report.uncaptured:
            parts.append(f"{report.uncaptured} kept private (--no-capture, scheduled)")
        if report.forgotten:
            parts.append(f"{report.forgotten} left out: forgotten")
        out().print("; ".join(parts), markup=False, highlight=False)
        if report.mem0_deleted:
            err().print(f"deleted {report.mem0_deleted} forgotten Mem0 memories", markup=False)
        for reason in report.skipped:
            err().print(f"skipped: {reason}", style="dim", markup=False, highlight=False)
    if report.error:
        err().print(f"stopped: {report.error}; run it again to resume", style="red", markup=False)
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.add_typer(mem0_app, name="mem0")
