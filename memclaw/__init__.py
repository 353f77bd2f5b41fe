"""memclaw: long-term memory for AI agents, kept in plain markdown files."""

__version__ = "0.1.0"
