"""The model and embeddings endpoints, checked at the wire with one tiny request each."""

from __future__ import annotations

import dataclasses
import time

from memclaw.config import Settings
from memclaw.doctor.report import Check, Status
from memclaw.errors import ModelAuthError, ModelError, ModelUnreachableError
from memclaw.llm import list_models, open_embedder, open_model
from memclaw.llm.openai_endpoint import OPENAI_URL

# A doctor answers in seconds: no retries, and a short wait for a dead server.
_PROBE_TIMEOUT = 15.0
_PING = [{"role": "user", "content": "Reply with the single word: ok"}]


def _probe_settings(settings: Settings) -> Settings:
    timeout = min(settings.request_timeout, _PROBE_TIMEOUT)
    return dataclasses.replace(settings, max_retries=0, request_timeout=timeout)


def _ms(start: float) -> int:
    return round((time.monotonic() - start) * 1000)


def check_model(settings: Settings) -> list[Check]:
    """Endpoint reachable and key accepted (``GET /models``), model listed, one tiny chat."""
    if not settings.model_configured:
        return [
            Check(
                "model",
                Status.OK,
                "no endpoint configured: commands use the offline engine "
                "(set base_url and api_key to use a model)",
            )
        ]
    probe = _probe_settings(settings)
    url = (settings.base_url or OPENAI_URL).rstrip("/")
    listed: list[str] | None = None
    note = ""
    try:
        listed = list_models(probe)
    except ModelUnreachableError as exc:
        return [Check("endpoint", Status.FAIL, str(exc), "start the server or fix base_url")]
    except ModelAuthError:
        return [
            Check(
                "endpoint",
                Status.FAIL,
                f"{url} rejected the API key ({settings.source('api_key')})",
                "put a valid key in api_key (or OPENAI_API_KEY)",
            )
        ]
    except ModelError as exc:  # some servers do not list models; the chat below still tells
        note = f"; it lists no models ({exc})"
    # Without a key the endpoint answered without one: there was no key to accept.
    said = "answers and accepts the key" if settings.api_key else "answers; no API key is set"
    checks = [Check("endpoint", Status.OK, f"{url} {said}{note}")]
    unlisted = listed is not None and settings.model not in listed
    shown = ", ".join((listed or [])[:8]) + (" …" if len(listed or []) > 8 else "")
    if unlisted and len(listed or []) != 1:
        checks.append(
            Check(
                "model",
                Status.FAIL,
                f"model {settings.model!r} is not listed by {url} (it lists: {shown or 'none'})",
                "set model to one the server lists",
            )
        )
        return checks
    # A server of one model (llama.cpp's) lists its file's name and answers to any other,
    # such as the docs' "local": whether it answers is what counts.
    start = time.monotonic()
    try:
        open_model(probe).chat(_PING, max_tokens=5)
    except ModelError as exc:
        found = f"model {settings.model!r} is not listed by {url} (it lists: {shown})"
        todo = "set model to one the server lists" if unlisted else "fix the model settings"
        checks.append(Check("model", Status.FAIL, found if unlisted else str(exc), todo))
        return checks
    latency = _ms(start)
    served = f" (the server lists {shown}, and answers to this name too)" if unlisted else ""
    checks.append(
        Check(
            "model",
            Status.OK,
            f"{settings.model!r} answered a one-line request in {latency} ms{served}",
            detail={"latency_ms": latency},
        )
    )
    return checks


def check_embeddings(settings: Settings) -> list[Check]:
    if not settings.embedding_model:
        return []  # semantic recall is off: nothing to check
    if not settings.embedding_configured:
        return [
            Check(
                "embeddings",
                Status.WARN,
                f"embedding_model {settings.embedding_model!r} is set but no endpoint is",
                "set embedding_base_url or base_url (and api_key), or clear embedding_model",
            )
        ]
    embedder = open_embedder(_probe_settings(settings))
    assert embedder is not None  # configured endpoint and model, checked above
    start = time.monotonic()
    try:
        (vector,) = embedder.embed(["memclaw doctor"])
    except ModelError as exc:
        return [Check("embeddings", Status.FAIL, str(exc), "fix embedding_model or the endpoint")]
    latency = _ms(start)
    return [
        Check(
            "embeddings",
            Status.OK,
            f"{settings.embedding_model!r} gave a {len(vector)}-dimension vector in {latency} ms",
            detail={"latency_ms": latency, "dimensions": len(vector)},
        )
    ]
