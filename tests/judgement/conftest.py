"""The chat fixtures, for the scenarios told in a chat."""

from chat.conftest import agent, open_chat, open_ws

__all__ = ["agent", "open_chat", "open_ws"]
