"""Memory shared with other systems: ``mcp`` serves it to MCP hosts, ``mem0`` syncs with Mem0."""
