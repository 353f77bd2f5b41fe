"""Chat: a conversation with an agent that knows its memory and keeps it current.

``Conversation`` ties the pieces together: :mod:`~memclaw.chat.session`
(transcript on disk), :mod:`~memclaw.chat.engine` (one turn: prompt, recall,
context budget, streaming, tools), :mod:`~memclaw.chat.background` (extraction
after the conversation) and :mod:`~memclaw.chat.commands` (slash commands).

May import: every capability (extract, dream, entries) and everything below.
"""

from memclaw.chat.background import BackgroundExtractor
from memclaw.chat.commands import Reply, is_command, run_command
from memclaw.chat.context import ContextWindow, Packed
from memclaw.chat.conversation import Conversation
from memclaw.chat.engine import ChatEngine
from memclaw.chat.recall import Recalled, recall
from memclaw.chat.schemas import tool_schemas
from memclaw.chat.session import ChatSession, latest_session, new_session_id
from memclaw.chat.tools import ToolBox, ToolRecord
from memclaw.chat.turn import TurnResult

__all__ = [
    "BackgroundExtractor",
    "ChatEngine",
    "ChatSession",
    "ContextWindow",
    "Conversation",
    "Packed",
    "Recalled",
    "Reply",
    "ToolBox",
    "ToolRecord",
    "TurnResult",
    "is_command",
    "latest_session",
    "new_session_id",
    "recall",
    "run_command",
    "tool_schemas",
]
