"""The MCP server: the catalogue and resources on the official SDK, over stdio or HTTP.

Built on the SDK's low-level ``Server`` rather than its decorator API, because
the tools already have their schemas (the chat's) and their own argument
checks with memclaw's one-line messages. How failures reach a host:

* a tool that fails (bad arguments, a secret, a path outside the fence) answers
  a tool error (``isError``) whose text is the CLI's line, so the host's model
  reads it and can correct its call;
* an unknown tool, resource or prompt is a JSON-RPC error with the same kind
  of line.

Tool calls run one at a time per server, off the event loop: the library is
synchronous and the per-agent file lock already orders writes between
processes; serialising here keeps one process's calls from waiting on each
other's lock and leaves the loop free for pings and cancellation.
"""

from __future__ import annotations

import hmac
import os
import socket
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from memclaw import __version__
from memclaw.errors import MemclawError, UsageError
from memclaw.llm.gate import is_loopback
from memclaw.mcp.catalogue import MemoryTools
from memclaw.mcp.resources import (
    GUIDE,
    GUIDE_DESCRIPTION,
    GUIDE_NAME,
    list_resources,
    read_resource,
)
from memclaw.mcp.tenants import Tenants
from memclaw.workspace.owners import OwnerKey

INSTRUCTIONS = (
    "memclaw is this person's long-term memory, shared with their other assistants. "
    "Search it (memory_search) before answering anything that may depend on earlier "
    "conversations; store lasting facts and decisions (memory_store) once they are settled. "
    f"The {GUIDE_NAME} prompt explains more. Never store credentials."
)
MIME = "text/markdown"


def build_server(tools: MemoryTools, tenants: Tenants | None = None) -> Server[Any]:
    """An SDK server whose handlers answer from ``tools`` (per request's token: ``tenants``)."""
    lock = anyio.Lock()

    def pick(ctx: Any, arguments: Any = None) -> MemoryTools:
        if tenants is None:
            return tools
        request = getattr(ctx, "request", None)
        headers = getattr(request, "headers", None) or {}
        return tenants.pick(str(headers.get("authorization", "")), arguments)

    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=tool["name"],
                    description=tool["description"],
                    input_schema=tool["inputSchema"],
                )
                for tool in tools.definitions
            ]
        )

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if not tools.has(params.name):
            known = ", ".join(tool["name"] for tool in tools.definitions)
            raise MCPError(
                types.INVALID_PARAMS, f"there is no tool named {params.name!r}; there are: {known}"
            )
        arguments = dict(params.arguments or {})
        try:
            mine = pick(ctx, arguments)
        except MemclawError as exc:
            text = f"error: {exc}"
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=text)], is_error=True
            )
        async with lock:
            outcome = await anyio.to_thread.run_sync(mine.call, params.name, arguments)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=outcome.text)],
            structured_content=outcome.data,
            is_error=not outcome.ok,
        )

    async def list_resources_(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        mine = pick(ctx)
        async with lock:
            found = await anyio.to_thread.run_sync(list_resources, mine.scope)
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=info.uri, name=info.name, description=info.description, mime_type=MIME
                )
                for info in found
            ]
        )

    async def read_resource_(
        ctx: Any, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        try:
            mine = pick(ctx)
            async with lock:
                text = await anyio.to_thread.run_sync(read_resource, mine, params.uri)
        except MemclawError as exc:
            raise MCPError(types.INVALID_PARAMS, str(exc)) from None
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=params.uri, text=text, mime_type=MIME)]
        )

    async def list_prompts(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        return types.ListPromptsResult(
            prompts=[types.Prompt(name=GUIDE_NAME, description=GUIDE_DESCRIPTION)]
        )

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        if params.name != GUIDE_NAME:
            raise MCPError(
                types.INVALID_PARAMS, f"there is no prompt named {params.name!r}: use {GUIDE_NAME}"
            )
        return types.GetPromptResult(
            description=GUIDE_DESCRIPTION,
            messages=[
                types.PromptMessage(role="user", content=types.TextContent(type="text", text=GUIDE))
            ],
        )

    return Server(
        "memclaw",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources_,
        on_read_resource=read_resource_,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


def serve_stdio(tools: MemoryTools) -> None:
    """Answer one host on stdin/stdout until it closes the pipe."""
    server = build_server(tools)
    # stdout is the protocol, so the only word to a person at a terminal goes to stderr.
    print(
        "memclaw mcp: waiting for an MCP host on stdin (Ctrl-C to stop; --http PORT to serve HTTP)",
        file=sys.stderr,
        flush=True,
    )

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)


def check_binding(host: str, token: str | None) -> None:
    """Refuse to open memory to the network without a token."""
    if not is_loopback(host) and not token:
        raise UsageError(
            f"refusing to serve memory on {host} without a token: set MEMCLAW_MCP_TOKEN "
            "(clients then send 'Authorization: Bearer <token>'), or serve on 127.0.0.1"
        )


class BearerGate:
    """ASGI middleware: every HTTP request must carry ``Authorization: Bearer <token>``."""

    def __init__(self, app: Any, tokens: list[str]) -> None:
        self.app = app
        self.expected = [f"Bearer {token}".encode() for token in tokens]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            # Every token is compared, so the time taken says nothing about which one is near.
            matches = [hmac.compare_digest(given, expected) for expected in self.expected]
            if not any(matches):
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"text/plain; charset=utf-8"),
                            (b"www-authenticate", b"Bearer"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": b"missing or wrong token\n"})
                return
        await self.app(scope, receive, send)


def serve_http(
    tools: MemoryTools,
    port: int,
    host: str = "127.0.0.1",
    token: str | None = None,
    owners: dict[str, OwnerKey] | None = None,
) -> None:
    """Serve streamable HTTP at ``http://HOST:PORT/mcp`` until interrupted.

    ``owners`` (token -> owner) lets each end user's token reach their own memory.
    """
    import uvicorn

    tenants = Tenants(tools, dict(owners or {})) if owners else None
    check_binding(host, token or ("owner tokens" if tenants else None))
    app: Any = build_server(tools, tenants).streamable_http_app(host=host)
    tokens = [t for t in [token, *(tenants.tokens() if tenants else [])] if t]
    if tokens:
        app = BearerGate(app, tokens)
    # Bound here, not by uvicorn: a busy port is one line and exit 1, and "listening"
    # is said only once it is true.
    try:
        sock = socket.create_server((host, port))
    except OSError as exc:
        raise MemclawError(
            f"cannot listen on {host}:{port}: "
            f"{(os.strerror(exc.errno) if exc.errno else str(exc)).lower()}; "
            "pick another port with --http PORT"
        ) from None
    print(f"memclaw mcp: listening on http://{host}:{port}/mcp", file=sys.stderr, flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    server.run(sockets=[sock])
