"""The provider protocol, and the values that cross it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from memclaw.prompt import AssembledPrompt
    from memclaw.workspace.scope import Scope


@dataclass(frozen=True)
class TurnContext:
    """One chat turn as a provider sees it: whose memory, which session, what was said."""

    scope: Scope
    session_id: str
    query: str
    # False for subagents and scheduled runs: they recall but never add to memory.
    captures: bool = True
    turn_index: int = 0
    # The system prompt of this turn: what it already carries need not be recalled.
    prompt: AssembledPrompt | None = None


@dataclass(frozen=True)
class RecallBlock:
    """What one provider recalled for one turn: a titled block of one-line items."""

    provider: str
    title: str
    lines: tuple[str, ...] = ()
    intro: str = ""
    detail: Any = None  # the provider's own result (the workspace keeps its hits here)

    def __bool__(self) -> bool:
        return bool(self.lines)

    def text(self, max_chars: int | None = None) -> str:
        """The block, cut at a whole line so it fits ``max_chars`` (None: no cut).

        A cut says how many items it left out; a budget too small for the title
        and one item gives the empty string, never half a memory.
        """
        if not self.lines:
            return ""
        head = [self.title, *([self.intro] if self.intro else [])]
        full = "\n".join([*head, *self.lines])
        if max_chars is None or len(full) <= max_chars:
            return full
        kept: list[str] = []
        for count, line in enumerate(self.lines, 1):
            left = len(self.lines) - count
            tail = f"({left} more left out: recall budget)" if left else ""
            candidate = "\n".join([*head, *kept, line, *([tail] if tail else [])])
            if len(candidate) > max_chars:
                break
            kept.append(line)
        if not kept:
            return ""
        left = len(self.lines) - len(kept)
        return "\n".join([*head, *kept, f"({left} more left out: recall budget)"])


@dataclass(frozen=True)
class ProviderTool:
    """A tool a provider offers the model: its OpenAI schema and what runs it."""

    schema: dict[str, Any]
    run: Callable[[dict[str, Any]], Any]

    @property
    def name(self) -> str:
        return str(self.schema["function"]["name"])


class MemoryProvider(Protocol):
    """A source of memory for chat turns. Providers never raise into the turn."""

    name: str

    def system_block(self, scope: Scope) -> str:
        """Text for the system block every turn (cacheable: the same for every message)."""
        ...

    def recall(self, turn: TurnContext) -> RecallBlock:
        """What this provider remembers that bears on ``turn.query``."""
        ...

    def after_turn(self, turn: TurnContext, user_text: str, answer: str) -> None:
        """Learn from the finished turn; must return at once (slow work goes to a worker)."""
        ...

    def tools(self) -> list[ProviderTool]:
        """Extra tools for the model."""
        ...

    def close(self, wait: float) -> list[str]:
        """Finish background work within ``wait`` seconds; notices for the person."""
        ...


@dataclass
class ProviderStats:
    """Counts a provider keeps of what it did, for ``/tokens``, ``mem0 status`` and tests."""

    recalls: int = 0
    recall_failures: int = 0
    synced: int = 0
    sync_failures: int = 0
    skipped: int = 0
    dropped: int = 0
    errors: list[str] = field(default_factory=list)
