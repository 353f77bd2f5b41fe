"""memclaw: long-term memory for AI agents, kept in plain markdown files."""
