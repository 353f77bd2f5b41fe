"""A fake OpenAI-compatible HTTP server for tests (stdlib only).

It speaks enough of the wire protocol that the real ``openai`` client can talk to it:

* ``POST /v1/chat/completions`` — plain and streamed (SSE) completions, tool calls, errors.
* ``POST /v1/embeddings`` — deterministic trigram-hash embeddings (``float`` or ``base64``).
* ``GET /v1/models`` and ``GET /v1/models/{id}``.

Replies to chat completions are scripted through a FIFO queue (``queue_text``, ``queue_json``,
``queue_tool_call(s)``, ``queue_error``, ``queue_delay``, ``queue_raw``, ``queue_stream_error``,
``queue_stream_garbage``).
When the queue is empty, ``default_reply(request_json) -> str`` supplies the assistant text.

Embeddings have their own, separate queue (``queue_embedding_error``, ``queue_embedding_raw``,
``queue_embedding_delay``); scripted chat replies are never consumed by embedding requests and
vice versa. When the embedding queue is empty, normal deterministic vectors are returned.

Typical use::

    with FakeOpenAI() as server:
        server.queue_text("hello")
        client = openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=0)
        client.chat.completions.create(model="gpt-4o-mini", messages=[...])
"""

import base64
import hashlib
import itertools
import json
import math
import struct
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Literal, NamedTuple, Self

__all__ = ["EMBEDDING_DIM", "FakeOpenAI", "RecordedRequest", "trigram_embedding"]

EMBEDDING_DIM = 64
"""Default length of the vectors returned by ``/v1/embeddings``."""

_STREAM_PIECE = 4
"""Number of characters per streamed content / argument delta."""

_DEFAULT_MODELS = ("gpt-4o-mini", "gpt-4o", "text-embedding-3-small")

_DEFAULT_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "invalid_request_error",
    403: "invalid_request_error",
    404: "invalid_request_error",
    409: "invalid_request_error",
    422: "invalid_request_error",
    429: "requests",
}

_DEFAULT_ERROR_CODES = {
    401: "invalid_api_key",
    404: "model_not_found",
    429: "rate_limit_exceeded",
}

_DISCONNECT_ERRORS = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)

DefaultReply = Callable[[dict[str, Any]], str]


class RecordedRequest(NamedTuple):
    """One HTTP request seen by the server: ``(path, headers, body)``.

    ``path`` has no query string (e.g. ``/v1/chat/completions``); header names are lower-cased.
    """

    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON body, or None (GET / unparsable body)


def estimate_tokens(text: str) -> int:
    """Crude token estimate used for ``usage``: ``len(text) // 4 + 1``."""
    return len(text) // 4 + 1


def trigram_embedding(text: str, dim: int = EMBEDDING_DIM) -> list[float]:
    """Deterministic embedding: signed hash of character trigrams, L2-normalised.

    Texts sharing many trigrams get a high cosine similarity. The empty string maps to the
    first unit vector, so every result has norm 1.
    """
    vec = [0.0] * dim
    padded = f"  {text.lower()} "
    for i in range(len(padded) - 2):
        digest = hashlib.blake2b(padded[i : i + 3].encode("utf-8"), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        vec[value % dim] += 1.0 if (value >> 32) & 1 else -1.0
    norm = math.sqrt(sum(x * x for x in vec))
    if norm == 0.0:
        vec[0] = 1.0
        return vec
    return [x / norm for x in vec]


def _openai_error_body(
    message: str, err_type: str | None, code: str | None, param: str | None = None
) -> dict[str, Any]:
    return {"error": {"message": message, "type": err_type, "param": param, "code": code}}


@dataclass
class _Reply:
    kind: Literal["text", "default", "tools", "error", "raw", "stream_error", "garbage", "embed"]
    delay: float = 0.0
    content: str | None = None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    finish_reason: str = "stop"
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    error_message: str = ""
    error_code: str | None = None


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, fake: "FakeOpenAI") -> None:
        self.fake = fake
        super().__init__(("127.0.0.1", 0), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:  # pragma: no cover
        # Client hang-ups (timeouts, closed streams) are expected in tests; stay quiet.
        pass


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.0"  # one request per connection; streams end at close
    server_version = "FakeOpenAI/1.0"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_DELETE(self) -> None:
        self._dispatch("DELETE")

    def _dispatch(self, method: str) -> None:
        try:
            self.server.fake._handle(self, method)
        except _DISCONNECT_ERRORS:
            self.close_connection = True


class FakeOpenAI:
    """A local OpenAI-compatible server on ``127.0.0.1:<random port>``.

    Args:
        default_reply: ``(request_json) -> assistant text`` used when the chat queue is empty.
            Defaults to always answering ``"ok"``. May be reassigned at any time.
        known_models: if set, a request naming another model gets 404 ``model_not_found``.
        api_key: if set, a request whose ``Authorization`` is not ``Bearer <api_key>`` gets
            401 ``invalid_api_key``.
        models: model ids listed by ``GET /v1/models`` when ``known_models`` is not set.
        stream_chunk_delay: seconds to sleep between SSE chunks (to test slow streams).
        latency: seconds every chat completion waits before answering, on top of any
            scripted delay (stands in for a real endpoint's answer time in benchmarks).
    """

    def __init__(
        self,
        *,
        default_reply: DefaultReply | None = None,
        known_models: set[str] | None = None,
        api_key: str | None = None,
        models: Iterable[str] = _DEFAULT_MODELS,
        stream_chunk_delay: float = 0.0,
        latency: float = 0.0,
    ) -> None:
        self.default_reply: DefaultReply = default_reply or (lambda _request: "ok")
        self.known_models = known_models
        self.api_key = api_key
        self.models = list(models)
        self.stream_chunk_delay = stream_chunk_delay
        self.latency = latency
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._chat_queue: deque[_Reply] = deque()
        self._embedding_queue: deque[_Reply] = deque()
        self._ids = itertools.count(1)
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> Self:
        """Bind 127.0.0.1 on a free port and serve in a daemon thread. Returns ``self``."""
        if self._server is not None:
            return self
        self._stopping.clear()
        self._server = _Server(self)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.01},
            name=f"FakeOpenAI:{self.port}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; wakes up handlers sleeping in a scripted delay. Idempotent."""
        server, thread = self._server, self._thread
        if server is None:
            return
        self._stopping.set()
        server.shutdown()
        server.server_close()
        if thread is not None:
            thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("FakeOpenAI is not running; call start() first")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """E.g. ``http://127.0.0.1:54321/v1`` — pass as ``openai.OpenAI(base_url=...)``."""
        return f"http://127.0.0.1:{self.port}/v1"

    # ------------------------------------------------------------------ scripting (chat)

    def queue_text(self, content: str, *, delay: float = 0.0, finish_reason: str = "stop") -> None:
        """Next chat completion answers with assistant ``content``."""
        self._push_chat(
            _Reply(kind="text", content=content, delay=delay, finish_reason=finish_reason)
        )

    def queue_json(self, obj: Any, *, delay: float = 0.0) -> None:
        """Next chat completion answers with ``json.dumps(obj)`` as content."""
        self.queue_text(json.dumps(obj), delay=delay)

    def queue_tool_call(
        self,
        name: str,
        arguments: dict[str, Any] | str,
        call_id: str | None = None,
        *,
        delay: float = 0.0,
    ) -> None:
        """Next chat completion is a single tool call (finish_reason ``tool_calls``)."""
        self.queue_tool_calls([(name, arguments, call_id)], delay=delay)

    def queue_tool_calls(
        self,
        calls: Sequence[
            tuple[str, dict[str, Any] | str] | tuple[str, dict[str, Any] | str, str | None]
        ],
        *,
        content: str | None = None,
        delay: float = 0.0,
    ) -> None:
        """Next chat completion carries several tool calls ``(name, args[, call_id])``.

        ``args`` given as a string is sent verbatim (for broken or hostile arguments)."""
        tool_calls: list[dict[str, Any]] = []
        for call in calls:
            name, arguments = call[0], call[1]
            call_id = call[2] if len(call) > 2 else None
            tool_calls.append(
                {
                    "id": call_id or f"call_{uuid.uuid4().hex[:24]}",
                    "type": "function",
                    "function": {
                        "name": name,
                        "arguments": arguments
                        if isinstance(arguments, str)
                        else json.dumps(arguments),
                    },
                }
            )
        self._push_chat(
            _Reply(
                kind="tools",
                content=content,
                tool_calls=tool_calls,
                finish_reason="tool_calls",
                delay=delay,
            )
        )

    def queue_error(
        self,
        status: int,
        message: str,
        code: str | None = None,
        err_type: str | None = None,
        *,
        param: str | None = None,
        delay: float = 0.0,
        retry_after: float | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        """Next chat completion fails with HTTP ``status`` and an OpenAI-shaped error body.

        ``code``/``err_type`` default sensibly by status (401 → ``invalid_api_key``,
        404 → ``model_not_found``, 429 → ``rate_limit_exceeded``, 5xx → ``server_error``).
        ``retry_after`` (seconds) sets ``retry-after-ms``/``retry-after`` headers, which the
        openai client honours when retrying — use a small value to keep retry tests fast.
        """
        self._push_chat(
            self._error_reply(status, message, code, err_type, param, delay, retry_after, headers)
        )

    def queue_delay(self, seconds: float, then: str | None = None) -> None:
        """Next chat completion waits ``seconds`` and then answers ``then`` (or the default)."""
        if then is None:
            self._push_chat(_Reply(kind="default", delay=seconds))
        else:
            self.queue_text(then, delay=seconds)

    def queue_raw(
        self,
        status: int,
        body: bytes,
        content_type: str = "application/json",
        *,
        headers: dict[str, str] | None = None,
        delay: float = 0.0,
    ) -> None:
        """Next chat completion gets exactly these bytes (for garbage / proxy-error answers)."""
        self._push_chat(
            _Reply(
                kind="raw",
                status=status,
                body=body,
                content_type=content_type,
                headers=dict(headers or {}),
                delay=delay,
            )
        )

    def queue_stream_error(
        self, message: str, *, partial_text: str = "", code: str | None = "server_error"
    ) -> None:
        """Next chat completion, if streamed, sends ``partial_text`` deltas then an SSE
        ``data: {"error": ...}`` event and closes (no ``[DONE]``); the openai client raises
        ``openai.APIError``. If not streamed, it is an HTTP 500 with that message."""
        self._push_chat(
            _Reply(
                kind="stream_error", content=partial_text, error_message=message, error_code=code
            )
        )

    def queue_stream_garbage(self, body: bytes) -> None:
        """Next chat completion answers 200 with ``body`` verbatim as its stream (or, if not
        streamed, as its JSON body): bytes that are not valid SSE events of JSON chunks."""
        self._push_chat(_Reply(kind="garbage", body=body))

    # ------------------------------------------------------------------ scripting (embeddings)

    def queue_embedding_error(
        self,
        status: int,
        message: str,
        code: str | None = None,
        err_type: str | None = None,
        *,
        delay: float = 0.0,
        retry_after: float | None = None,
    ) -> None:
        """Next ``/v1/embeddings`` request fails (separate queue from chat replies)."""
        self._push_embedding(
            self._error_reply(status, message, code, err_type, None, delay, retry_after, None)
        )

    def queue_embedding_raw(
        self, status: int, body: bytes, content_type: str = "application/json"
    ) -> None:
        """Next ``/v1/embeddings`` request gets exactly these bytes."""
        self._push_embedding(
            _Reply(kind="raw", status=status, body=body, content_type=content_type)
        )

    def queue_embedding_delay(self, seconds: float) -> None:
        """Next ``/v1/embeddings`` request waits ``seconds`` before answering normally."""
        self._push_embedding(_Reply(kind="embed", delay=seconds))

    # ------------------------------------------------------------------ inspection

    @staticmethod
    def embed(text: str, dim: int = EMBEDDING_DIM) -> list[float]:
        """The vector the server returns for ``text`` (see :func:`trigram_embedding`)."""
        return trigram_embedding(text, dim)

    @property
    def pending(self) -> int:
        """Number of scripted replies not yet consumed (chat + embeddings)."""
        with self._lock:
            return len(self._chat_queue) + len(self._embedding_queue)

    def reset(self) -> None:
        """Drop all queued replies and recorded requests."""
        with self._lock:
            self._chat_queue.clear()
            self._embedding_queue.clear()
            self.requests.clear()

    def last_request(self) -> RecordedRequest:
        with self._lock:
            if not self.requests:
                raise AssertionError("FakeOpenAI has not received any request")
            return self.requests[-1]

    def chat_requests(self) -> list[RecordedRequest]:
        """Recorded ``POST .../chat/completions`` requests, oldest first."""
        return self._requests_to("/chat/completions")

    def embedding_requests(self) -> list[RecordedRequest]:
        """Recorded ``POST .../embeddings`` requests, oldest first."""
        return self._requests_to("/embeddings")

    # ------------------------------------------------------------------ internals

    def _requests_to(self, suffix: str) -> list[RecordedRequest]:
        with self._lock:
            return [r for r in self.requests if r.path.endswith(suffix)]

    def _push_chat(self, reply: _Reply) -> None:
        with self._lock:
            self._chat_queue.append(reply)

    def _push_embedding(self, reply: _Reply) -> None:
        with self._lock:
            self._embedding_queue.append(reply)

    def _pop(self, queue: deque[_Reply]) -> _Reply | None:
        with self._lock:
            return queue.popleft() if queue else None

    @staticmethod
    def _error_reply(
        status: int,
        message: str,
        code: str | None,
        err_type: str | None,
        param: str | None,
        delay: float,
        retry_after: float | None,
        headers: dict[str, str] | None,
    ) -> _Reply:
        if code is None:
            code = _DEFAULT_ERROR_CODES.get(status, "server_error" if status >= 500 else None)
        if err_type is None:
            err_type = _DEFAULT_ERROR_TYPES.get(status, "server_error")
        all_headers = dict(headers or {})
        if retry_after is not None:
            all_headers["retry-after-ms"] = str(int(retry_after * 1000))
            all_headers["retry-after"] = str(max(0, math.ceil(retry_after)))
        body = json.dumps(_openai_error_body(message, err_type, code, param)).encode()
        return _Reply(kind="error", status=status, body=body, headers=all_headers, delay=delay)

    def _new_id(self, prefix: str) -> str:
        return f"{prefix}-fake{next(self._ids):06d}{uuid.uuid4().hex[:8]}"

    def _sleep(self, seconds: float) -> bool:
        """Sleep; returns False if the server is stopping (caller should abandon)."""
        return seconds <= 0 or not self._stopping.wait(seconds)

    # ---- request handling (runs in handler threads)

    def _handle(self, h: _Handler, method: str) -> None:
        path = h.path.split("?", 1)[0].rstrip("/")
        headers = {k.lower(): v for k, v in h.headers.items()}
        raw = b""
        length = int(h.headers.get("Content-Length") or 0)
        if length:
            raw = h.rfile.read(length)
        body: Any = None
        bad_json = False
        if raw:
            try:
                body = json.loads(raw)
            except ValueError:
                bad_json = True
        with self._lock:
            self.requests.append(RecordedRequest(path, headers, body))

        if self.api_key is not None and headers.get("authorization") != f"Bearer {self.api_key}":
            given = headers.get("authorization", "").removeprefix("Bearer ")
            shown = f"{given[:3]}...{given[-4:]}" if len(given) > 8 else given
            self._send_error(
                h,
                401,
                f"Incorrect API key provided: {shown}.",
                "invalid_api_key",
                "invalid_request_error",
            )
            return
        if bad_json or (method == "POST" and not isinstance(body, dict)):
            self._send_error(
                h,
                400,
                "We could not parse the JSON body of your request.",
                None,
                "invalid_request_error",
            )
            return

        if method == "GET" and path.endswith("/models"):
            self._send_json(
                h,
                200,
                {"object": "list", "data": [self._model_obj(m) for m in self._listed_models()]},
            )
            return
        if method == "GET" and "/models/" in path:
            model = path.rsplit("/models/", 1)[1]
            if self._model_unknown(model) or (
                self.known_models is None and model not in self.models
            ):
                self._send_model_not_found(h, model)
            else:
                self._send_json(h, 200, self._model_obj(model))
            return
        if method == "POST" and path.endswith("/chat/completions"):
            assert isinstance(body, dict)
            self._handle_chat(h, body)
            return
        if method == "POST" and path.endswith("/embeddings"):
            assert isinstance(body, dict)
            self._handle_embeddings(h, body)
            return
        self._send_error(h, 404, f"Invalid URL ({method} {path})", None, "invalid_request_error")

    def _listed_models(self) -> list[str]:
        return sorted(self.known_models) if self.known_models is not None else list(self.models)

    @staticmethod
    def _model_obj(model: str) -> dict[str, Any]:
        return {"id": model, "object": "model", "created": 1700000000, "owned_by": "fake-openai"}

    def _model_unknown(self, model: Any) -> bool:
        return self.known_models is not None and model not in self.known_models

    def _send_model_not_found(self, h: _Handler, model: Any) -> None:
        self._send_error(
            h,
            404,
            f"The model `{model}` does not exist or you do not have access to it.",
            "model_not_found",
            "invalid_request_error",
        )

    def _handle_chat(self, h: _Handler, req: dict[str, Any]) -> None:
        model = req.get("model")
        if self._model_unknown(model):
            self._send_model_not_found(h, model)
            return
        reply = self._pop(self._chat_queue) or _Reply(kind="default")
        if not self._sleep(reply.delay + self.latency):
            return
        if reply.kind in ("error", "raw"):
            self._send_reply_bytes(h, reply)
            return
        stream = bool(req.get("stream"))
        if reply.kind == "garbage":
            content_type = "text/event-stream; charset=utf-8" if stream else "application/json"
            self._send_bytes(h, 200, reply.body, content_type)
            return
        if reply.kind == "stream_error":
            if stream:
                self._stream_error(h, req, reply)
            else:
                self._send_error(h, 500, reply.error_message, reply.error_code, "server_error")
            return
        content = reply.content
        if reply.kind == "default":
            try:
                content = self.default_reply(req)
            except Exception as exc:
                self._send_error(
                    h, 500, f"default_reply raised {exc!r}", "server_error", "server_error"
                )
                return
        if stream:
            self._stream_chat(h, req, content, reply)
        else:
            self._send_json(h, 200, self._completion(req, content, reply))

    def _prompt_tokens(self, req: dict[str, Any]) -> int:
        total = 0
        for message in req.get("messages") or []:
            content = message.get("content") if isinstance(message, dict) else message
            text = content if isinstance(content, str) else json.dumps(content)
            total += estimate_tokens(text or "")
        return total

    def _usage(self, req: dict[str, Any], content: str | None, reply: _Reply) -> dict[str, int]:
        completion_text = (content or "") + "".join(
            call["function"]["name"] + call["function"]["arguments"] for call in reply.tool_calls
        )
        prompt = self._prompt_tokens(req)
        completion = estimate_tokens(completion_text)
        return {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }

    def _completion(
        self, req: dict[str, Any], content: str | None, reply: _Reply
    ) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": None}
        if reply.tool_calls:
            message["tool_calls"] = reply.tool_calls
        return {
            "id": self._new_id("chatcmpl"),
            "object": "chat.completion",
            "created": int(time.time()),
            "model": req.get("model"),
            "system_fingerprint": "fp_fake",
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "logprobs": None,
                    "finish_reason": reply.finish_reason,
                }
            ],
            "usage": self._usage(req, content, reply),
        }

    @staticmethod
    def _pieces(text: str) -> list[str]:
        return [text[i : i + _STREAM_PIECE] for i in range(0, len(text), _STREAM_PIECE)]

    def _chunk_factory(
        self, req: dict[str, Any]
    ) -> Callable[[dict[str, Any], str | None], dict[str, Any]]:
        chunk_id = self._new_id("chatcmpl")
        created = int(time.time())
        include_usage = bool((req.get("stream_options") or {}).get("include_usage"))

        def chunk(delta: dict[str, Any], finish_reason: str | None) -> dict[str, Any]:
            out: dict[str, Any] = {
                "id": chunk_id,
                "object": "chat.completion.chunk",
                "created": created,
                "model": req.get("model"),
                "system_fingerprint": "fp_fake",
                "choices": [
                    {
                        "index": 0,
                        "delta": delta,
                        "logprobs": None,
                        "finish_reason": finish_reason,
                    }
                ],
            }
            if include_usage:
                out["usage"] = None
            return out

        return chunk

    def _stream_chat(
        self, h: _Handler, req: dict[str, Any], content: str | None, reply: _Reply
    ) -> None:
        chunk = self._chunk_factory(req)
        events: list[dict[str, Any]] = []
        if reply.tool_calls:
            first: dict[str, Any] = {"role": "assistant", "content": content, "refusal": None}
            if content:
                events.append(chunk(first, None))
                first = {}
            for index, call in enumerate(reply.tool_calls):
                head = {
                    "index": index,
                    "id": call["id"],
                    "type": "function",
                    "function": {"name": call["function"]["name"], "arguments": ""},
                }
                events.append(chunk({**first, "tool_calls": [head]}, None))
                first = {}
                for piece in self._pieces(call["function"]["arguments"]):
                    frag = {"index": index, "function": {"arguments": piece}}
                    events.append(chunk({"tool_calls": [frag]}, None))
        else:
            events.append(chunk({"role": "assistant", "content": "", "refusal": None}, None))
            for piece in self._pieces(content or ""):
                events.append(chunk({"content": piece}, None))
        events.append(chunk({}, reply.finish_reason))
        if (req.get("stream_options") or {}).get("include_usage"):
            final = chunk({}, None)
            final["choices"] = []
            final["usage"] = self._usage(req, content, reply)
            events.append(final)
        self._send_sse(h, events, done=True)

    def _stream_error(self, h: _Handler, req: dict[str, Any], reply: _Reply) -> None:
        chunk = self._chunk_factory(req)
        events = [chunk({"role": "assistant", "content": "", "refusal": None}, None)]
        events += [chunk({"content": p}, None) for p in self._pieces(reply.content or "")]
        events.append(_openai_error_body(reply.error_message, "server_error", reply.error_code))
        self._send_sse(h, events, done=False)

    def _handle_embeddings(self, h: _Handler, req: dict[str, Any]) -> None:
        model = req.get("model")
        if self._model_unknown(model):
            self._send_model_not_found(h, model)
            return
        reply = self._pop(self._embedding_queue)
        if reply is not None:
            if not self._sleep(reply.delay):
                return
            if reply.kind in ("error", "raw"):
                self._send_reply_bytes(h, reply)
                return
        inputs = req.get("input")
        items: list[Any] = inputs if isinstance(inputs, list) else [inputs]
        if items and all(isinstance(x, int) for x in items):
            items = [items]  # a single pre-tokenised input
        texts = [x if isinstance(x, str) else json.dumps(x) for x in items]
        dim = req.get("dimensions") or EMBEDDING_DIM
        as_base64 = req.get("encoding_format") == "base64"
        data = []
        for index, text in enumerate(texts):
            vec = trigram_embedding(text, int(dim))
            embedding: Any = (
                base64.b64encode(struct.pack(f"<{len(vec)}f", *vec)).decode() if as_base64 else vec
            )
            data.append({"object": "embedding", "index": index, "embedding": embedding})
        tokens = sum(estimate_tokens(t) for t in texts)
        self._send_json(
            h,
            200,
            {
                "object": "list",
                "data": data,
                "model": model,
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
        )

    # ---- low-level writers

    def _common_headers(self, h: _Handler) -> None:
        h.send_header("x-request-id", f"req_{uuid.uuid4().hex}")
        h.send_header("openai-processing-ms", "1")
        h.send_header("Connection", "close")

    def _send_bytes(
        self,
        h: _Handler,
        status: int,
        body: bytes,
        content_type: str,
        headers: dict[str, str] | None = None,
    ) -> None:
        h.send_response(status)
        h.send_header("Content-Type", content_type)
        h.send_header("Content-Length", str(len(body)))
        self._common_headers(h)
        for name, value in (headers or {}).items():
            h.send_header(name, value)
        h.end_headers()
        h.wfile.write(body)
        h.wfile.flush()

    def _send_reply_bytes(self, h: _Handler, reply: _Reply) -> None:
        self._send_bytes(h, reply.status, reply.body, reply.content_type, reply.headers)

    def _send_json(self, h: _Handler, status: int, obj: Any) -> None:
        self._send_bytes(h, status, json.dumps(obj).encode(), "application/json")

    def _send_error(
        self, h: _Handler, status: int, message: str, code: str | None, err_type: str | None
    ) -> None:
        self._send_json(h, status, _openai_error_body(message, err_type, code))

    def _send_sse(self, h: _Handler, events: list[dict[str, Any]], *, done: bool) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream; charset=utf-8")
        h.send_header("Cache-Control", "no-cache")
        self._common_headers(h)
        h.end_headers()
        for i, event in enumerate(events):
            if i and not self._sleep(self.stream_chunk_delay):
                return
            h.wfile.write(b"data: " + json.dumps(event).encode() + b"\n\n")
            h.wfile.flush()
        if done:
            h.wfile.write(b"data: [DONE]\n\n")
            h.wfile.flush()
