"""The default memory provider: the agent's own markdown files.

Its system block is the assembled prompt (AGENTS, SOUL, PROFILE, MEMORY and
the injected entries, built by the engine every turn); its recall is
:func:`memclaw.chat.recall.recall`; what a turn teaches it is written by
extraction when the chat ends (:mod:`memclaw.chat.background`), so
``after_turn`` has nothing to do, and its tools are the chat's own ToolBox.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from memclaw.chat.recall import HEADER, INTRO, Recalled, _line, recall
from memclaw.providers.base import ProviderTool, RecallBlock, TurnContext

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

NAME = "workspace"
SESSION_LABEL = "From this conversation:"


def recalled_block(found: Recalled) -> RecallBlock:
    lines = [_line(hit) for hit in found.long_term]
    if found.session:
        lines += [SESSION_LABEL, *(_line(hit) for hit in found.session)]
    return RecallBlock(NAME, HEADER, tuple(lines), INTRO, detail=found)


@dataclass
class WorkspaceProvider:
    name: str = NAME

    def system_block(self, scope: Scope) -> str:
        return ""  # the engine assembles the files' prompt itself, with its own budgets

    def recall(self, turn: TurnContext) -> RecallBlock:
        if turn.prompt is None:
            return recalled_block(Recalled())
        found = recall(turn.scope, turn.query, session_id=turn.session_id, prompt=turn.prompt)
        return recalled_block(found)

    def after_turn(self, turn: TurnContext, user_text: str, answer: str) -> None:
        return None  # extraction at the end of the chat writes the files

    def tools(self) -> list[ProviderTool]:
        return []

    def close(self, wait: float) -> list[str]:
        return []
