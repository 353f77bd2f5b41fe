"""memclaw mcp: serve an agent's memory to any host that speaks the Model Context Protocol."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Annotated

import typer

from memclaw.cli.basic import OwnerOpt
from memclaw.cli.state import complete_agent, state
from memclaw.errors import UsageError
from memclaw.workspace import Scope, Workspace

MISSING_SDK = "memclaw mcp needs the MCP SDK, an optional extra: pip install 'memclaw[mcp]'"


def _only_agent(ws: Workspace) -> str:
    agents = ws.agent_ids()
    if len(agents) == 1:
        return agents[0]
    listed = ", ".join(agents) if agents else "none yet: `memclaw init NAME`"
    raise UsageError(f"name the agent to serve: memclaw mcp AGENT (agents here: {listed})")


def mcp(
    ctx: typer.Context,
    agent: Annotated[
        str | None,
        typer.Argument(
            help="Agent to serve (default: the only agent of the root).",
            autocompletion=complete_agent,
        ),
    ] = None,
    owner: OwnerOpt = None,
    http: Annotated[
        int | None,
        typer.Option(
            "--http",
            metavar="PORT",
            min=1,
            max=65535,
            help="Serve streamable HTTP on this port (at /mcp) instead of stdio.",
        ),
    ] = None,
    host: Annotated[
        str,
        typer.Option("--host", help="Interface for --http; other than loopback needs a token."),
    ] = "127.0.0.1",
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            envvar="MEMCLAW_MCP_TOKEN",
            show_envvar=True,
            help="Bearer token HTTP clients must send (prefer the environment variable).",
        ),
    ] = None,
    read_only: Annotated[
        bool, typer.Option("--read-only", help="Offer only the tools that read.")
    ] = False,
    owner_tokens: Annotated[
        Path | None,
        typer.Option(
            "--owner-tokens",
            metavar="FILE",
            help="With --http: lines 'OWNER TOKEN'; each token reaches only its owner's memory.",
        ),
    ] = None,
) -> None:
    """Serve an agent's memory over MCP (stdio by default) to Claude, Cursor and other hosts.

    The host's model gets memory_search, memory_store, memory_list, memory_get,
    memory_forget, memory_files_list/read/edit and memory_extract, with the same
    rules as memclaw chat: the secret gate, the owner fence, the per-agent lock.
    Resources memclaw://AGENT/PROFILE.md (and the other injected files) and
    memclaw://AGENT/prompt let a host pin memory into its context. Needs the
    optional extra: pip install 'memclaw[mcp]'. Nothing is printed on stdout:
    it carries the protocol.

    Examples:

        memclaw mcp demo

        memclaw --root ~/agents mcp assistant --owner user:alice

        MEMCLAW_MCP_TOKEN=s3cret memclaw mcp demo --http 8765 --host 0.0.0.0

        memclaw mcp demo --http 8765 --owner-tokens ~/.config/memclaw/mcp-owners
    """
    from memclaw.chat.session import new_session_id
    from memclaw.facts.judge import Judge
    from memclaw.llm import open_model_no_retry
    from memclaw.mcp.catalogue import MemoryTools

    if http is None and host != "127.0.0.1":
        raise UsageError("--host is for --http PORT; stdio needs no interface")
    if http is None and owner_tokens is not None:
        raise UsageError("--owner-tokens is for --http PORT: a stdio server has one owner")
    ws = state(ctx).workspace()
    scope = Scope.resolve(ws.agent(agent or _only_agent(ws)), owner)
    try:
        from memclaw.mcp import server
    except ImportError as exc:
        if exc.name is not None and exc.name.split(".")[0] not in ("mcp", "mcp_types"):
            raise
        raise UsageError(MISSING_SDK) from None
    owners = None
    if owner_tokens is not None:
        from memclaw.mcp.tenants import load_owner_tokens

        owners = load_owner_tokens(owner_tokens.expanduser())
    if http is not None:
        server.check_binding(host, token or ("owner tokens" if owners else None))
    # Opened on the first contested write, never for a search: a server that only reads
    # builds no model client.
    judge = Judge(partial(open_model_no_retry, scope.agent.settings))
    tools = MemoryTools(
        scope, f"mcp-{new_session_id(scope.agent)}", read_only=read_only, judge=judge
    )
    if http is None:
        server.serve_stdio(tools)
    else:
        server.serve_http(tools, http, host, token, owners)


def register(app: typer.Typer) -> None:
    app.command()(mcp)
