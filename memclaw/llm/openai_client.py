"""ChatModel over any OpenAI-compatible endpoint, and the models it lists.

This module and its siblings ``openai_endpoint`` (the client and its retries),
``openai_errors`` (failures as memclaw errors) and ``openai_embedder`` are the only ones
that touch the ``openai`` package, and only inside functions, so that importing memclaw
(and running ``memclaw search``) never pays for it. A server that rejects a request
field is asked again without it, and the field is not sent again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from memclaw.errors import ModelAnswerError
from memclaw.llm.assemble import StreamAssembler, result_from_completion
from memclaw.llm.base import ChatResult
from memclaw.llm.jsonanswer import check_required, parse_json_answer
from memclaw.llm.openai_endpoint import Endpoint, OnRetry
from memclaw.llm.openai_errors import is_context_error, server_message

if TYPE_CHECKING:
    import openai

    from memclaw.config import Settings

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
STREAMED_NOTHING_NOTE = "the endpoint streamed nothing: answered in one piece"
# Dropped even when the 400 names nothing: servers often reject them with a vague message.
_EXTENSION_FIELDS = ("response_format", "stream_options")
_JSON_HINT = "Answer with one JSON object and nothing else."


def preload() -> None:
    """Import the openai package now (it takes a second), e.g. while a person types."""
    import openai  # noqa: F401


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
        self._endpoint = Endpoint(settings)
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
        endpoint = self._endpoint
        message = server_message(exc, (endpoint.settings.api_key, endpoint.api_key))
        said = f"{exc.param or ''} {message}".lower()
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
        if not assembler.chunks:
            # Nothing at all came back: ask once more, unstreamed. llama-cpp-python ends the
            # stream at once for a request with tools (chatml-function-calling), and for a
            # prompt longer than its window, which the unstreamed request names in a 400
            # (so the conversation is cut to fit, as after any 400 of that kind).
            result = self._whole(kwargs, tools, on_text)
            if "tools" in kwargs:
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
        note = NO_STREAM_NOTE if "tools" in whole else STREAMED_NOTHING_NOTE
        return replace(result, notes=(*result.notes, note))

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
                    _cut_off(result.usage.completion_tokens, max_tokens)
                ) from exc
            raise
        return check_required(value, required)


def _cut_off(said: int, budget: int | None) -> str:
    """Why a JSON answer stopped early: the answer's own budget, or the server's window.

    A small local server stops when prompt and answer fill its context, long before the
    budget asked for: raising the budget would not help, a larger context would."""
    if said and budget and said < budget * 0.9:
        return (
            f"the model's JSON answer was cut off after {said} tokens, well within the "
            f"{budget} asked for: the server's context window was full. Start the server "
            "with a larger context (llama.cpp: -c 8192), or set context_window_tokens to "
            "the one it has so prompts are cut to fit"
        )
    return f"the model's JSON answer was cut off at {budget} tokens; raise the token budget"


def list_models(settings: Settings) -> list[str]:
    """The model ids ``GET /models`` lists: proves the endpoint answers and takes the key."""
    endpoint = Endpoint(settings)
    with endpoint.errors(settings.model, "MEMCLAW_MODEL"):
        return sorted(str(model.id) for model in endpoint.client().models.list())
