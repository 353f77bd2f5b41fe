"""The chat fixtures (a workspace whose model is the fake server, the small agent "pal")."""

from chat.conftest import agent, open_chat, open_ws

__all__ = ["agent", "open_chat", "open_ws"]
