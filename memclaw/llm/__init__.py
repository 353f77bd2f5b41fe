"""The model layer: one small interface over any OpenAI-compatible endpoint.

Callers code against ``ChatModel`` and ``Embedder``; ``open_model`` / ``open_embedder``
build them from settings. Importing this package does not import ``openai``.

May import: config, errors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memclaw.errors import ModelNotConfiguredError
from memclaw.llm.base import ChatModel, ChatResult, Embedder, ToolCall, Usage
from memclaw.llm.jsonanswer import check_required, parse_json_answer

if TYPE_CHECKING:
    from memclaw.config import Settings

__all__ = [
    "ChatModel",
    "ChatResult",
    "Embedder",
    "ToolCall",
    "Usage",
    "check_required",
    "list_models",
    "open_embedder",
    "open_model",
    "open_model_if_configured",
    "open_model_no_retry",
    "parse_json_answer",
]

NOT_CONFIGURED = (
    "no model configured: set OPENAI_API_KEY, or MEMCLAW_BASE_URL for a local server "
    "such as Ollama (http://localhost:11434/v1)"
)


def open_model(settings: Settings, *, model: str | None = None) -> ChatModel:
    """The chat model ``model`` (default ``settings.model``) at the configured endpoint."""
    if not settings.model_configured:
        raise ModelNotConfiguredError(NOT_CONFIGURED)
    from memclaw.llm.openai_client import OpenAIChatModel

    return OpenAIChatModel(settings, model or settings.model)


def open_model_if_configured(settings: Settings) -> ChatModel | None:
    """The default chat model, or None when no endpoint is set (the caller then runs offline)."""
    return open_model(settings) if settings.model_configured else None


def open_model_no_retry(settings: Settings, *, model: str | None = None) -> ChatModel | None:
    """The chat model for a request with an offline fallback that a person waits on: tried
    once, never retried (a retry would only delay the fallback); None when no endpoint is set."""
    if not settings.model_configured:
        return None
    import dataclasses

    return open_model(dataclasses.replace(settings, max_retries=0), model=model)


def open_embedder(settings: Settings) -> Embedder | None:
    """The embedding model, or None when no ``embedding_model`` or no endpoint for it is set
    (``embedding_base_url``, else the chat endpoint)."""
    if not settings.embedding_configured:
        return None
    from memclaw.llm.embedsetup import embedding_setup
    from memclaw.llm.openai_embedder import OpenAIEmbedder

    return OpenAIEmbedder(settings, embedding_setup(settings))


def list_models(settings: Settings) -> list[str]:
    """The model ids the configured endpoint lists (``GET /models``)."""
    if not settings.model_configured:
        raise ModelNotConfiguredError(NOT_CONFIGURED)
    from memclaw.llm.openai_client import list_models as listed

    return listed(settings)
