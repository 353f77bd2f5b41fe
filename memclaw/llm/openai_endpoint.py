"""One OpenAI-compatible endpoint: its client, built on first use, and the retries.

Retries with exponential backoff on 429, 5xx, timeouts and connection errors are the
openai client's done here (the client itself is told not to retry), bounded by
``max_retries``, so that each retry can be reported (``on_retry``: the chat shows
"retrying (2/3) after timeout"). Whatever still fails leaves :meth:`Endpoint.errors`
as one memclaw error (:mod:`memclaw.llm.openai_errors`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from memclaw.errors import ModelAnswerError
from memclaw.llm.gate import RequestGate
from memclaw.llm.openai_errors import translate

if TYPE_CHECKING:
    import openai

    from memclaw.config import Settings

OPENAI_URL = "https://api.openai.com/v1"
# Statuses worth another attempt (the ones the openai client itself would retry).
_RETRY_STATUSES = {408, 409, 429}
BACKOFF_SECONDS = 0.5
MAX_BACKOFF_SECONDS = 8.0
OnRetry = Callable[[str], None]


class Endpoint:
    """The client for one endpoint, built on first use, and the error translation."""

    def __init__(
        self, settings: Settings, *, url: str | None = None, api_key: str | None = None
    ) -> None:
        self.settings = settings
        self.url = ((settings.base_url if url is None else url) or OPENAI_URL).rstrip("/")
        self.api_key = settings.api_key if api_key is None else api_key
        self._client: openai.OpenAI | None = None
        self.on_retry: OnRetry | None = None
        self.tries = (1, 0.0)  # attempts and seconds spent by the last call that failed
        # Shared by every thread that uses this client: calls in flight, 429 pauses.
        self.gate = RequestGate(settings.max_concurrent_requests)

    def call(self, create: Callable[..., Any], **kwargs: Any) -> Any:
        """``create(**kwargs)``, tried again after timeouts, connection errors, 429 and 5xx."""
        import openai

        attempts = max(self.settings.max_retries, 0) + 1
        started = time.monotonic()
        self.tries = (1, 0.0)
        for attempt in range(1, attempts + 1):
            try:
                with self.gate.slot():
                    return create(**kwargs)
            except openai.APIError as exc:
                self.tries = (attempt, time.monotonic() - started)
                reason = _retry_reason(exc)
                if reason is None or attempt == attempts:
                    raise
                quiet = getattr(exc, "status_code", None) == 429
                if quiet:
                    # The server asked for quiet: every caller of this client waits, not
                    # just this one (the gate holds them before their next call). Paused
                    # before it is told, so that no call slips in between.
                    self.gate.pause(_backoff(exc, attempt))
                if self.on_retry is not None:
                    self.on_retry(f"retrying ({attempt + 1}/{attempts}) after {reason}")
                if not quiet:
                    time.sleep(_backoff(exc, attempt))
        raise AssertionError("unreachable")  # pragma: no cover

    def offered(self) -> str:
        """``" (it offers: a, b, c)"``, from the server's own list; empty when it has none."""
        import openai

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
            raise translate(self, exc, model, model_setting) from exc
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            # The openai client decodes bodies and stream events as it goes and lets these
            # through: the server sent bytes that are not JSON (nor JSON events).
            raise ModelAnswerError(
                f"{self.url} answered with something that is not JSON ({exc}); "
                "is MEMCLAW_BASE_URL an OpenAI-compatible API?"
            ) from exc


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
