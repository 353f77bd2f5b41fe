"""What went wrong at an OpenAI-compatible endpoint, as one memclaw error.

Every openai failure becomes a one-line message that names the URL, model or setting to
fix, and for a timeout how many attempts took how long; whatever the server said is
shortened to one line and anything key-like is removed from it first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

from memclaw.errors import (
    ContextTooLargeError,
    ModelAnswerError,
    ModelAuthError,
    ModelError,
    ModelNotFoundError,
    ModelUnreachableError,
)
from memclaw.text.plural import plural

if TYPE_CHECKING:
    import openai

    from memclaw.config import Settings


class Endpoint(Protocol):
    """What a translation reads of the endpoint a call failed on (``openai_endpoint``)."""

    settings: Settings
    url: str
    api_key: str
    tries: tuple[int, float]  # attempts and seconds spent by the call that failed

    def offered(self) -> str: ...


_CONTEXT_CODES = {"context_length_exceeded", "exceed_context_size_error", "string_above_max_length"}
_CONTEXT_WORDS = re.compile(
    r"context[ _-]?(length|window|size)|maximum context|too many tokens|prompt is too long"
    r"|reduce the length of the messages",
    re.IGNORECASE,
)
_KEY_SHAPE = re.compile(r"\b(sk-|sk_)[A-Za-z0-9_-]{6,}")


def _clean(text: str, keys: Iterable[str | None]) -> str:
    """A short, single-line server message with ``keys`` and anything key-like removed."""
    for key in keys:
        if key and len(key) >= 4:
            text = text.replace(key, "***")
    text = _KEY_SHAPE.sub(r"\1***", " ".join(text.split()))
    return text if len(text) <= 200 else text[:199] + "…"


def server_message(exc: openai.APIError, keys: Iterable[str | None]) -> str:
    """What the server said about ``exc``, cleaned of ``keys`` (see :func:`_clean`)."""
    body = exc.body
    if isinstance(body, Mapping) and isinstance(body.get("message"), str):
        return _clean(str(body["message"]), keys)
    if isinstance(body, str) and body.strip():
        return _clean(body, keys)
    return _clean(exc.message, keys)


def translate(
    endpoint: Endpoint, exc: openai.APIError, model: str, model_setting: str
) -> ModelError:
    """``exc``, raised by a call to ``endpoint`` for ``model``, as the error to show."""
    import openai

    settings = endpoint.settings
    url = endpoint.url
    attempts, spent = endpoint.tries
    retries = attempts - 1
    if isinstance(exc, openai.APITimeoutError):
        tried = f" ({attempts} attempts, {spent:.0f} s in all)" if attempts > 1 else ""
        return ModelUnreachableError(
            f"request to {url} timed out after {settings.request_timeout:g} s{tried}; "
            "raise request_timeout (MEMCLAW_REQUEST_TIMEOUT) or check the server"
        )
    if isinstance(exc, openai.APIConnectionError):
        return ModelUnreachableError(
            f"cannot reach {url}: {_connection_reason(exc)}; is the server running? "
            "check MEMCLAW_BASE_URL"
        )
    # The chat key, and the endpoint's own when it has one (a separate embeddings key).
    message = server_message(exc, (settings.api_key, endpoint.api_key))
    if is_context_error(exc):
        return ContextTooLargeError(
            f"the prompt does not fit the context window of {model!r} ({message}); "
            "shorten it or use a model with a larger window"
        )
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return ModelAuthError(
            f"{url} rejected the API key (HTTP {exc.status_code}); check OPENAI_API_KEY"
        )
    if isinstance(exc, openai.NotFoundError):
        if exc.code == "model_not_found" or "model" in message.lower():
            return ModelNotFoundError(
                f"model {model!r} is not available at {url}{endpoint.offered()}; "
                f"set {model_setting}"
            )
        return ModelError(
            f"{url} answered 404 ({message}); check MEMCLAW_BASE_URL "
            "(OpenAI-compatible servers usually end in /v1)"
        )
    if isinstance(exc, openai.APIResponseValidationError):
        return ModelAnswerError(f"{url} answered in an unexpected format: {message}")
    tried = f" after {plural(retries, 'retry')}" if retries else ""
    if isinstance(exc, openai.RateLimitError):
        return ModelError(
            f"{url} is rate limiting requests (HTTP 429){tried}: {message}; "
            "wait, or raise max_retries"
        )
    if isinstance(exc, openai.APIStatusError):
        tried = tried if exc.status_code >= 500 else ""
        return ModelError(f"{url} failed with HTTP {exc.status_code}{tried}: {message}")
    return ModelError(f"the answer from {url} broke off: {message}")


def _connection_reason(exc: BaseException) -> str:
    seen: list[str] = []
    cause: BaseException | None = exc
    while cause is not None and len(seen) < 10:
        seen.append(str(cause).lower())
        cause = cause.__cause__ or cause.__context__
    text = " ".join(seen)
    if "refused" in text:
        return "connection refused"
    if "name or service not known" in text or "nodename" in text or "getaddrinfo" in text:
        return "host name not found"
    if "unreachable" in text:
        return "network unreachable"
    if "reset" in text:
        return "connection reset"
    return "connection failed"


def is_context_error(exc: BaseException) -> bool:
    """True for a 400 (or 413) saying the prompt does not fit the model's context."""
    status = getattr(exc, "status_code", None)
    if status not in (400, 413):
        return False
    if status == 413 or getattr(exc, "code", None) in _CONTEXT_CODES:
        return True
    if getattr(exc, "type", None) in _CONTEXT_CODES:
        return True
    body = getattr(exc, "body", None)
    message = body.get("message") if isinstance(body, Mapping) else None
    text = message if isinstance(message, str) else str(exc)
    return bool(_CONTEXT_WORDS.search(text))
