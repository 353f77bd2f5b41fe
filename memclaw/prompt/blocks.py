"""The assembled system prompt: its blocks, one per file or part, with their token counts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memclaw.prompt.tokens import token_counter

if TYPE_CHECKING:
    from memclaw.workspace.owners import OwnerKey


@dataclass(frozen=True)
class PromptBlock:
    label: str
    text: str
    tokens: int
    source: str = ""  # file path relative to the agent, when the block is a file


@dataclass(frozen=True)
class AssembledPrompt:
    agent: str
    owner: OwnerKey | None
    blocks: list[PromptBlock]
    exact_tokens: bool
    counter: str
    omitted_entries: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n\n".join(block.text for block in self.blocks)

    @property
    def total_tokens(self) -> int:
        return token_counter().count(self.text)
