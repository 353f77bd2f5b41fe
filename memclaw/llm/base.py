"""The model interface every caller codes against: results and the two Protocols.

Nothing here knows about HTTP or the ``openai`` package, so importing it is free.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol


@dataclass(frozen=True)
class ToolCall:
    """One function call requested by the model.

    ``arguments`` is the decoded JSON object; ``raw_arguments`` the text the model sent.
    ``error`` says why the arguments could not be decoded (``arguments`` is then empty):
    the call must not run, but the model is told, so a conversation survives a bad call.
    """

    id: str
    name: str
    arguments: dict[str, Any]
    raw_arguments: str
    error: str | None = None


@dataclass(frozen=True)
class Usage:
    """Token counts reported by the endpoint (0 when it reports none)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass(frozen=True)
class ChatResult:
    """A complete assistant turn: its text, any tool calls, and why it stopped.

    ``notes`` say what the client changed to get an answer at all (tools left out, the
    answer asked for whole): one line each, for the person to see.
    """

    text: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str = "stop"
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    notes: tuple[str, ...] = ()


class ChatModel(Protocol):
    """A chat-completions model behind any OpenAI-compatible endpoint."""

    name: str

    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> ChatResult:
        """One completion, returned whole."""
        ...

    def stream(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        max_tokens: int | None = None,
        on_text: Callable[[str], None],
    ) -> ChatResult:
        """One completion, with ``on_text`` called for each text delta as it arrives."""
        ...

    def chat_json(
        self,
        messages: list[dict[str, Any]],
        *,
        required: Mapping[str, type | tuple[type, ...]],
        max_tokens: int | None = None,
    ) -> dict[str, Any]:
        """A JSON object holding at least ``required`` keys of the given types."""
        ...


class Embedder(Protocol):
    """An embeddings model: one vector per input text, in input order."""

    name: str
    key: str  # what its vectors are cached under: the model and how texts are marked

    def embed(
        self, texts: list[str], *, kind: Literal["query", "passage"] = "passage"
    ) -> list[list[float]]:
        """Vectors for ``texts``, embedded as search queries or as stored passages
        (an empty list gives an empty list)."""
        ...
