"""ChatModel and Embedder over any OpenAI-compatible endpoint.

The one module that touches the ``openai`` package, and only inside functions, so that
importing memclaw (and running ``memclaw search``) never pays for it. Retries with
exponential backoff on 429, 5xx, timeouts and connection errors are the openai client's
done here (the client itself is told not to retry), bounded by ``max_retries``, so that
each retry can be reported (``on_retry``: the chat shows "retrying (2/3) after timeout");
this module turns whatever still fails into one memclaw error whose message names the
URL, model or setting to fix, and for a timeout how many attempts took how long.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from memclaw.errors import (
    ContextTooLargeError,
    ModelAnswerError,
    ModelAuthError,
    ModelError,
    ModelNotFoundError,
    ModelUnreachableError,
)
from memclaw.llm.assemble import StreamAssembler, result_from_completion
from memclaw.llm.base import ChatResult
from memclaw.llm.embedsetup import EmbeddingSetup, EmbedKind
from memclaw.llm.gate import RequestGate
from memclaw.llm.jsonanswer import check_required, parse_json_answer
from memclaw.text.plural import plural

if TYPE_CHECKING:
    import openai

    from memclaw.config import Settings

OPENAI_URL = "https://api.openai.com/v1"
_CONTEXT_CODES = {"context_length_exceeded", "exceed_context_size_error", "string_above_max_length"}
_CONTEXT_WORDS = re.compile(
    r"context[ _-]?(length|window|size)|maximum context|too many tokens|prompt is too long"
    r"|reduce the length of the messages",
    re.IGNORECASE,
)
# Request fields some servers reject; dropped (and remembered) after a 400 that names them.
_OPTIONAL_FIELDS = ("response_format", "stream_options", "temperature", "tool_choice")
# A 400 about tools once tool_choice is gone: the server or model takes no tools at all
# (Ollama: "does not support tools"; vLLM without --enable-auto-tool-choice).
_TOOLS_REFUSED = re.compile(r"\btool", re.IGNORECASE)
NO_TOOLS_NOTE = "the endpoint refused the memory tools: answered without them"
# llama-cpp-python's chatml-function-calling answers a streamed request with tools by
# ending the stream at once; the answer is then asked for whole.
_STREAMED_TOOLS = "stream+tools"
NO_STREAM_NOTE = "the endpoint streams nothing when tools are offered: answered in one piece"
# Dropped even when the 400 names nothing: servers often reject them with a vague message.
_EXTENSION_FIELDS = ("response_format", "stream_options")
_JSON_HINT = "Answer with one JSON object and nothing else."
_KEY_SHAPE = re.compile(r"\b(sk-|sk_)[A-Za-z0-9_-]{6,}")
# Statuses worth another attempt (the ones the openai client itself would retry).
_RETRY_STATUSES = {408, 409, 429}
BACKOFF_SECONDS = 0.5
MAX_BACKOFF_SECONDS = 8.0
OnRetry = Callable[[str], None]


def preload() -> None:
    """Import the openai package now (it takes a second), e.g. while a person types."""
    import openai  # noqa: F401


class _Endpoint:
    """The client for one endpoint, built on first use, and the error translation."""

    def __init__(
        self, settings: Settings, *, url: str | None = None, api_key: str | None = None
    ) -> None:
        self.settings = settings
        self.url = ((settings.base_url if url is None else url) or OPENAI_URL).rstrip("/")
        self.api_key = settings.api_key if api_key is None else api_key
        self._client: openai.OpenAI | None = None
        self.on_retry: OnRetry | None = None
        self._tries = (1, 0.0)  # attempts and seconds spent by the last call that failed
        # Shared by every thread that uses this client: calls in flight, 429 pauses.
        self.gate = RequestGate(settings.max_concurrent_requests)

    def call(self, create: Callable[..., Any], **kwargs: Any) -> Any:
        """``create(**kwargs)``, tried again after timeouts, connection errors, 429 and 5xx."""
        import openai

        attempts = max(self.settings.max_retries, 0) + 1
        started = time.monotonic()
        self._tries = (1, 0.0)
        for attempt in range(1, attempts + 1):
            try:
                with self.gate.slot():
                    return create(**kwargs)
            except openai.APIError as exc:
                self._tries = (attempt, time.monotonic() - started)
                reason = _retry_reason(exc)
                if reason is None or attempt == attempts:
                    raise
                if self.on_retry is not None:
                    self.on_retry(f"retrying ({attempt + 1}/{attempts}) after {reason}")
                if getattr(exc, "status_code", None) == 429:
                    # The server asked for quiet: every caller of this client waits, not
                    # just this one (the gate holds them before their next call).
                    self.gate.pause(_backoff(exc, attempt))
                else:
                    time.sleep(_backoff(exc, attempt))
        raise AssertionError("unreachable")  # pragma: no cover

    def offered(self) -> str:
        """``" (it offers: a, b, c)"``, from the server's own list; empty when it has none."""
        try:
            names = sorted(str(m.id) for m in self.client().models.list())
        except openai.OpenAIError:  # only a hint in an error already being raised
            return ""
        if not names:
            return ""
        shown = ", ".join(names[:12]) + (f" and {len(names) - 12} more" if len(names) > 12 else "")
        return f" (it offers: {shown})"

    def client(self) -> openai.OpenAI:
        if self._client is None:
            import openai

            self._client = openai.OpenAI(
                base_url=self.url,
                # Local servers ignore the key, but the client insists on having one.
                api_key=self.api_key or "not-needed",
                timeout=self.settings.request_timeout,
                max_retries=0,  # retried in call(), where each retry can be reported
            )
        return self._client

    @contextmanager
    def errors(self, model: str, model_setting: str) -> Iterator[None]:
        """Re-raise any openai failure inside the block as a one-line memclaw error."""
        import openai

        try:
            yield
        except openai.APIError as exc:
            raise self.translate(exc, model, model_setting) from exc
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            # The openai client decodes bodies and stream events as it goes and lets these
            # through: the server sent bytes that are not JSON (nor JSON events).
            raise ModelAnswerError(
                f"{self.url} answered with something that is not JSON ({exc}); "
                "is MEMCLAW_BASE_URL an OpenAI-compatible API?"
            ) from exc

    def _clean(self, text: str) -> str:
        """A short, single-line server message with anything key-like removed."""
        key = self.settings.api_key
        if key and len(key) >= 4:
            text = text.replace(key, "***")
        text = _KEY_SHAPE.sub(r"\1***", " ".join(text.split()))
        return text if len(text) <= 200 else text[:199] + "…"

    def server_message(self, exc: openai.APIError) -> str:
        body = exc.body
        if isinstance(body, Mapping) and isinstance(body.get("message"), str):
            return self._clean(str(body["message"]))
        if isinstance(body, str) and body.strip():
            return self._clean(body)
        return self._clean(exc.message)

    def translate(self, exc: openai.APIError, model: str, model_setting: str) -> ModelError:
        import openai

        url = self.url
        attempts, spent = self._tries
        retries = attempts - 1
        if isinstance(exc, openai.APITimeoutError):
            tried = f" ({attempts} attempts, {spent:.0f} s in all)" if attempts > 1 else ""
            return ModelUnreachableError(
                f"request to {url} timed out after {self.settings.request_timeout:g} s{tried}; "
                "raise request_timeout (MEMCLAW_REQUEST_TIMEOUT) or check the server"
            )
        if isinstance(exc, openai.APIConnectionError):
            return ModelUnreachableError(
                f"cannot reach {url}: {_connection_reason(exc)}; is the server running? "
                "check MEMCLAW_BASE_URL"
            )
        message = self.server_message(exc)
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
                    f"model {model!r} is not available at {url}{self.offered()}; "
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


def _retry_reason(exc: BaseException) -> str | None:
    """Why ``exc`` is worth another attempt, in a few words; None when it is not."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "connection error"
    if isinstance(exc, openai.APIStatusError):
        headers = exc.response.headers
        if headers.get("x-should-retry") == "false":
            return None
        if exc.status_code in _RETRY_STATUSES or exc.status_code >= 500:
            return f"HTTP {exc.status_code}"
    return None


def _backoff(exc: BaseException, attempt: int) -> float:
    """Seconds before the next attempt: the server's Retry-After if sane, else exponential."""
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            wait = float(headers.get(name, "")) * scale
        except ValueError:
            continue
        if 0 <= wait <= 60:
            return wait
    return float(min(BACKOFF_SECONDS * 2 ** (attempt - 1), MAX_BACKOFF_SECONDS))


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


def _wire(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` as every server takes it: an assistant turn of tool calls alone says ``""``.

    OpenAI allows a null content there; llama-cpp-python's server refuses the request.
    """
    if message.get("role") == "assistant" and message.get("content") is None:
        return {**message, "content": ""}
    return message


def _mentions_json(messages: list[dict[str, Any]]) -> bool:
    return any("json" in str(m.get("content") or "").lower() for m in messages)


class OpenAIChatModel:
    """ChatModel over ``/chat/completions``."""

    def __init__(self, settings: Settings, model: str) -> None:
        self.name = model
        self._endpoint = _Endpoint(settings)
        # Fields this server rejected once; never sent again by this instance.
        self._unsupported: set[str] = set()
        self._tokens_field = "max_tokens"

    @property
    def on_retry(self) -> OnRetry | None:
        """Called with a short notice ("retrying (2/3) after timeout") before each retry."""
        return self._endpoint.on_retry

    @on_retry.setter
    def on_retry(self, report: OnRetry | None) -> None:
        self._endpoint.on_retry = report

    def _errors(self) -> AbstractContextManager[None]:
        return self._endpoint.errors(self.name, "MEMCLAW_MODEL")

    def _request(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        max_tokens: int | None,
        **extra: Any,
    ) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": self.name, "messages": [_wire(m) for m in messages]}
        if tools and "tools" not in self._unsupported:
            kwargs["tools"] = tools
            # "auto" is OpenAI's default, but llama-cpp-python ignores tools without it.
            if "tool_choice" not in self._unsupported:
                kwargs["tool_choice"] = "auto"
        if max_tokens is not None:
            kwargs[self._tokens_field] = max_tokens
        for key, value in extra.items():
            if value is not None and key not in self._unsupported:
                kwargs[key] = value
        return kwargs

    def _drop_rejected(self, kwargs: dict[str, Any], exc: openai.BadRequestError) -> bool:
        """Adapt ``kwargs`` to a 400 the server gave; False when there is nothing to adapt."""
        said = f"{exc.param or ''} {self._endpoint.server_message(exc)}".lower()
        if "max_completion_tokens" in said and "max_tokens" in kwargs:
            # Newer OpenAI models renamed the field; local servers only know the old name.
            self._tokens_field = "max_completion_tokens"
            kwargs["max_completion_tokens"] = kwargs.pop("max_tokens")
            return True
        named = [key for key in _OPTIONAL_FIELDS if key in kwargs and key in said]
        if not named and "tools" in kwargs and _TOOLS_REFUSED.search(said):
            named = ["tools", *(["tool_choice"] if "tool_choice" in kwargs else [])]
        dropped = named or [key for key in _EXTENSION_FIELDS if key in kwargs]
        for key in dropped:
            kwargs.pop(key)
            self._unsupported.add(key)
        return bool(dropped)

    def _create(self, kwargs: dict[str, Any]) -> Any:
        import openai

        endpoint = self._endpoint
        create: Callable[..., Any] = endpoint.client().chat.completions.create
        for _ in range(len(_OPTIONAL_FIELDS) + 2):
            try:
                return endpoint.call(create, **kwargs)
            except openai.BadRequestError as exc:
                if is_context_error(exc) or not self._drop_rejected(kwargs, exc):
                    raise
        return endpoint.call(create, **kwargs)

    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> ChatResult:
        kwargs = self._request(messages, tools, max_tokens, temperature=temperature)
        with self._errors():
            completion = self._create(kwargs)
        return self._noted(result_from_completion(completion, self.name), tools, kwargs)

    def _noted(
        self, result: ChatResult, tools: list[dict[str, Any]] | None, sent: dict[str, Any]
    ) -> ChatResult:
        """``result`` with a note when the tools asked for did not reach the model."""
        if tools and "tools" not in sent:
            return replace(result, notes=(*result.notes, NO_TOOLS_NOTE))
        return result

    def stream(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        max_tokens: int | None = None,
        on_text: Callable[[str], None],
    ) -> ChatResult:
        kwargs = self._request(
            messages, tools, max_tokens, stream=True, stream_options={"include_usage": True}
        )
        if "tools" in kwargs and _STREAMED_TOOLS in self._unsupported:
            return self._whole(kwargs, tools, on_text)
        assembler = StreamAssembler(model=self.name, on_text=on_text)
        with self._errors():
            chunks = self._create(kwargs)
            try:
                for chunk in chunks:
                    assembler.feed(chunk)
            finally:
                # Also on KeyboardInterrupt: release the connection instead of leaking it.
                chunks.close()
        if not assembler.chunks and "tools" in kwargs:
            # Nothing at all came back for a request with tools: ask once more, unstreamed.
            # A prompt too long for the window fails that request too, with a clear 400.
            result = self._whole(kwargs, tools, on_text)
            self._unsupported.add(_STREAMED_TOOLS)
            return result
        return self._noted(assembler.result(), tools, kwargs)

    def _whole(
        self,
        kwargs: dict[str, Any],
        tools: list[dict[str, Any]] | None,
        on_text: Callable[[str], None],
    ) -> ChatResult:
        """The answer to a streamed request asked for whole, its text delivered at once."""
        whole = {k: v for k, v in kwargs.items() if k not in ("stream", "stream_options")}
        with self._errors():
            completion = self._create(whole)
        result = self._noted(result_from_completion(completion, self.name), tools, whole)
        if result.text:
            on_text(result.text)
        return replace(result, notes=(*result.notes, NO_STREAM_NOTE))

    def chat_json(
        self,
        messages: list[dict[str, Any]],
        *,
        required: Mapping[str, type | tuple[type, ...]],
        max_tokens: int | None = None,
    ) -> dict[str, Any]:
        if not _mentions_json(messages):
            # OpenAI refuses json_object mode unless the conversation mentions JSON.
            messages = [*messages, {"role": "system", "content": _JSON_HINT}]
        kwargs = self._request(messages, None, max_tokens, response_format={"type": "json_object"})
        with self._errors():
            completion = self._create(kwargs)
        result = result_from_completion(completion, self.name)
        try:
            value = parse_json_answer(result.text)
        except ModelAnswerError as exc:
            if result.finish_reason == "length":
                raise ModelAnswerError(
                    f"the model's JSON answer was cut off at {max_tokens} tokens; "
                    "raise the token budget"
                ) from exc
            raise
        return check_required(value, required)


class OpenAIEmbedder:
    """Embedder over ``/embeddings``: ``setup.batch_size`` texts per request, each
    marked as a query or a passage the way ``setup`` says (a prefix, or ``input_type``)."""

    def __init__(self, settings: Settings, setup: EmbeddingSetup) -> None:
        self.name = setup.model
        self.key = setup.cache_key
        self.setup = setup
        self.batch_size = max(1, setup.batch_size)
        self._endpoint = _Endpoint(settings, url=setup.base_url, api_key=setup.api_key)

    def embed(self, texts: list[str], *, kind: EmbedKind = "passage") -> list[list[float]]:
        prefix = self.setup.prefix(kind)
        extra = {"input_type": kind} if self.setup.input_type else None
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            # Several servers reject an empty input; a blank embeds the same everywhere.
            batch = [
                prefix + text if text.strip() else prefix or " "
                for text in texts[start : start + self.batch_size]
            ]
            with self._endpoint.errors(self.name, "MEMCLAW_EMBEDDING_MODEL"):
                response = self._endpoint.call(
                    self._endpoint.client().embeddings.create,
                    model=self.name,
                    input=batch,
                    encoding_format="float",
                    extra_body=extra,
                )
            vectors += self._checked(response, len(batch), len(vectors[0]) if vectors else 0)
        return vectors

    def _checked(self, response: Any, count: int, dim: int) -> list[list[float]]:
        """The vectors of one answer, or a ModelAnswerError when it is not ``count`` vectors
        of one length (``dim`` when known) of finite numbers."""
        url = self._endpoint.url
        data = sorted(getattr(response, "data", None) or [], key=lambda item: item.index)
        if len(data) != count:
            raise ModelAnswerError(f"{url} returned {len(data)} embeddings for {count} texts")
        vectors: list[list[float]] = []
        for item in data:
            values = item.embedding
            if not isinstance(values, list) or not values:
                raise ModelAnswerError(f"{url} returned a malformed embedding")
            try:
                vector = [float(x) for x in values]
            except (TypeError, ValueError):
                raise ModelAnswerError(f"{url} returned an embedding that is not numbers") from None
            if not all(math.isfinite(x) for x in vector):
                raise ModelAnswerError(f"{url} returned an embedding with NaN or infinity")
            dim = dim or len(vector)
            if len(vector) != dim:
                raise ModelAnswerError(f"{url} returned embeddings of different lengths")
            vectors.append(vector)
        return vectors


def list_models(settings: Settings) -> list[str]:
    """The model ids ``GET /models`` lists: proves the endpoint answers and takes the key."""
    endpoint = _Endpoint(settings)
    with endpoint.errors(settings.model, "MEMCLAW_MODEL"):
        return sorted(str(model.id) for model in endpoint.client().models.list())
