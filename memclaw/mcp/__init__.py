"""MCP: memclaw's memory offered to any host that speaks the Model Context Protocol.

``catalogue`` holds the tools (the chat's memory tools with the same names,
arguments and owner fence, plus ``agentId`` and ``memory_extract``), how their
arguments are checked and how big a result may get; ``resources`` the files a
host can pin into its context, the assembled prompt and the prompt template;
``server`` wires both into the official ``mcp`` SDK for stdio and streamable
HTTP. Only ``server`` imports the SDK (the optional ``memclaw[mcp]`` extra),
and only ``memclaw mcp`` imports ``server``, so nothing else ever loads it.

May import: chat (its tool box and fence), every capability, and below.
"""
