"""Every way a model call fails becomes one memclaw error with a one-line message."""

import http.server
import json
import re
import socket
import threading
from collections.abc import Callable
from typing import Any

import pytest
from fake_openai import FakeOpenAI

from memclaw.config import Settings
from memclaw.errors import (
    ContextTooLargeError,
    ModelAuthError,
    ModelError,
    ModelNotFoundError,
    ModelUnreachableError,
)
from memclaw.llm import open_embedder, open_model

MakeSettings = Callable[..., Settings]
USER: list[dict[str, Any]] = [{"role": "user", "content": "hello there"}]
KEY = "sk-proj-DoNotLeakThisKey0123456789"
FAST = 0.01  # retry-after the fake server sends, so retries do not sleep for seconds


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def one_line(exc: pytest.ExceptionInfo[BaseException]) -> str:
    message = str(exc.value)
    assert "\n" not in message and KEY not in message and "DoNotLeak" not in message
    return message


def test_unreachable_url_is_named() -> None:
    url = closed_port_url()
    model = open_model(Settings(base_url=url, api_key=KEY, max_retries=0))
    with pytest.raises(ModelUnreachableError) as info:
        model.chat(USER)
    assert one_line(info) == (
        f"cannot reach {url}: connection refused; is the server running? check MEMCLAW_BASE_URL"
    )


def test_unreachable_while_streaming_and_embedding() -> None:
    settings = Settings(base_url=closed_port_url(), max_retries=0, embedding_model="e")
    with pytest.raises(ModelUnreachableError, match="connection refused"):
        open_model(settings).stream(USER, on_text=lambda _t: None)
    embedder = open_embedder(settings)
    assert embedder is not None
    with pytest.raises(ModelUnreachableError, match="connection refused"):
        embedder.embed(["x"])


def test_timeout(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    fake_openai.queue_delay(3.0, then="too late")
    with pytest.raises(ModelUnreachableError) as info:
        open_model(make_settings(request_timeout=0.3)).chat(USER)
    message = one_line(info)
    assert "timed out after 0.3 s" in message and "request_timeout" in message


def test_timeout_while_streaming(make_settings: MakeSettings) -> None:
    with FakeOpenAI(stream_chunk_delay=2.0) as slow:
        model = open_model(make_settings(base_url=slow.base_url, request_timeout=0.3))
        slow.queue_text("slow words arriving")
        seen: list[str] = []
        with pytest.raises(ModelUnreachableError, match=r"timed out after 0\.3 s"):
            model.stream(USER, on_text=seen.append)


def test_rejected_key(make_settings: MakeSettings) -> None:
    with FakeOpenAI(api_key="the-right-key") as guarded:
        model = open_model(make_settings(base_url=guarded.base_url, api_key=KEY))
        with pytest.raises(ModelAuthError) as info:
            model.chat(USER)
    message = one_line(info)
    assert "rejected the API key" in message and "check OPENAI_API_KEY" in message


def test_forbidden_is_an_auth_error(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    fake_openai.queue_error(403, f"key {KEY} lacks permission")
    with pytest.raises(ModelAuthError) as info:
        open_model(make_settings(api_key=KEY)).chat(USER)
    assert "HTTP 403" in one_line(info)


def test_unknown_model_is_named(make_settings: MakeSettings) -> None:
    with FakeOpenAI(known_models={"gpt-4o-mini"}) as strict:
        model = open_model(make_settings(base_url=strict.base_url), model="llama3")
        with pytest.raises(ModelNotFoundError) as info:
            model.chat(USER)
        url = strict.base_url
    assert one_line(info) == (
        f"model 'llama3' is not available at {url} (it offers: gpt-4o-mini); set MEMCLAW_MODEL"
    )


def test_unknown_model_is_named_when_the_server_cannot_list_models(
    make_settings: MakeSettings,
) -> None:
    # The list of models is only a hint in the message: when asking for it fails too,
    # the message goes without it instead of the hint's failure hiding the real one.
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            error = {"message": "model 'llama3' not found", "code": "model_not_found"}
            self._answer(404, {"error": error})

        def do_GET(self) -> None:  # GET /models
            self._answer(500, {"error": {"message": "listing is broken"}})

        def _answer(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        model = open_model(make_settings(base_url=url, max_retries=0), model="llama3")
        with pytest.raises(ModelNotFoundError) as info:
            model.chat(USER)
    finally:
        server.shutdown()
        server.server_close()
    assert one_line(info) == f"model 'llama3' is not available at {url}; set MEMCLAW_MODEL"


def test_unknown_embedding_model_points_at_its_setting(make_settings: MakeSettings) -> None:
    with FakeOpenAI(known_models={"gpt-4o-mini"}) as strict:
        embedder = open_embedder(make_settings(base_url=strict.base_url, embedding_model="nomic"))
        assert embedder is not None
        with pytest.raises(ModelNotFoundError, match=r"'nomic' .* set MEMCLAW_EMBEDDING_MODEL"):
            embedder.embed(["x"])


def test_wrong_path_404_is_not_a_model_error(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    fake_openai.queue_raw(404, b'{"error": {"message": "Invalid URL (POST /chat/completions)"}}')
    with pytest.raises(ModelError) as info:
        open_model(make_settings()).chat(USER)
    assert not isinstance(info.value, ModelNotFoundError)
    assert "check MEMCLAW_BASE_URL" in one_line(info) and "/v1" in str(info.value)


@pytest.mark.parametrize(
    ("message", "code", "err_type"),
    [
        (
            "This model's maximum context length is 8192 tokens. However, your messages "
            "resulted in 9000 tokens.",
            "context_length_exceeded",
            None,
        ),
        ("the request exceeds the available context size", None, "exceed_context_size_error"),
        ("This model's maximum context length is 4096 tokens.", None, None),
        ("Too many tokens in prompt", None, None),
    ],
)
def test_context_too_large(
    fake_openai: FakeOpenAI,
    make_settings: MakeSettings,
    message: str,
    code: str | None,
    err_type: str | None,
) -> None:
    fake_openai.queue_error(400, message, code=code, err_type=err_type)
    with pytest.raises(ContextTooLargeError) as info:
        open_model(make_settings()).chat_json(USER, required={})
    assert "context window of 'gpt-4o-mini'" in one_line(info)
    # No fallback retry: a prompt that does not fit will not fit without response_format.
    assert len(fake_openai.chat_requests()) == 1


def test_other_400_is_a_model_error(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    fake_openai.queue_error(400, f"messages[0].role is invalid (key {KEY})")
    with pytest.raises(ModelError) as info:
        open_model(make_settings(api_key=KEY)).chat(USER)
    message = one_line(info)
    assert "HTTP 400" in message and "role is invalid" in message and "(key ***)" in message
    assert type(info.value) is ModelError


def test_503_then_success_is_retried(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    fake_openai.queue_error(503, "overloaded", retry_after=FAST)
    fake_openai.queue_text("made it")
    assert open_model(make_settings(max_retries=2)).chat(USER).text == "made it"
    assert len(fake_openai.chat_requests()) == 2


def test_backoff_without_retry_after(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    # The client's own exponential backoff (about half a second for the first retry).
    fake_openai.queue_error(503, "overloaded")
    fake_openai.queue_text("made it")
    assert open_model(make_settings(max_retries=1)).chat(USER).text == "made it"


def test_429_then_success_is_retried(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    fake_openai.queue_error(429, "slow down", retry_after=FAST)
    fake_openai.queue_error(429, "slow down", retry_after=FAST)
    fake_openai.queue_json({"should_update": False, "reason": "r"})
    value = open_model(make_settings(max_retries=2)).chat_json(USER, required={"reason": str})
    assert value["reason"] == "r"
    assert len(fake_openai.chat_requests()) == 3


def test_500_exhausts_bounded_retries(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    for _ in range(4):
        fake_openai.queue_error(500, "internal failure", retry_after=FAST)
    with pytest.raises(ModelError) as info:
        open_model(make_settings(max_retries=2)).chat(USER)
    assert one_line(info).endswith("failed with HTTP 500 after 2 retries: internal failure")
    assert len(fake_openai.chat_requests()) == 3
    assert fake_openai.pending == 1


def test_429_exhausted(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    fake_openai.queue_error(429, "You exceeded your current quota", code="insufficient_quota")
    with pytest.raises(ModelError) as info:
        open_model(make_settings(max_retries=0)).chat(USER)
    message = one_line(info)
    assert "rate limiting" in message and "exceeded your current quota" in message


def test_stream_broken_off(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    fake_openai.queue_stream_error("upstream overloaded", partial_text="Hello wor")
    seen: list[str] = []
    with pytest.raises(ModelError) as info:
        open_model(make_settings()).stream(USER, on_text=seen.append)
    assert "broke off: upstream overloaded" in one_line(info)
    assert "".join(seen) == "Hello wor"


def test_embedding_errors(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    fake_openai.queue_embedding_error(400, "This model's maximum context length is 8191 tokens")
    embedder = open_embedder(make_settings())
    assert embedder is not None
    with pytest.raises(ContextTooLargeError):
        embedder.embed(["x"])
    fake_openai.queue_embedding_error(502, "bad gateway")
    with pytest.raises(ModelError, match="HTTP 502: bad gateway"):
        embedder.embed(["x"])
    retrying = open_embedder(make_settings(max_retries=1))
    assert retrying is not None
    fake_openai.queue_embedding_error(502, "bad gateway", retry_after=FAST)
    assert len(retrying.embed(["x"])) == 1


def test_key_never_appears_in_messages(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    settings = make_settings(api_key=KEY)
    model = open_model(settings)
    errors: list[str] = []
    for status in (400, 401, 403, 404, 409, 422, 429, 500):
        fake_openai.queue_error(status, f"problem with Bearer {KEY}")
        with pytest.raises(ModelError) as info:
            model.chat(USER)
        errors.append(one_line(info))
    fake_openai.queue_raw(418, json.dumps({"error": {"message": f"teapot {KEY}"}}).encode())
    with pytest.raises(ModelError) as info:
        model.chat(USER)
    errors.append(one_line(info))
    assert all(KEY not in e for e in errors)


def test_the_embedding_key_never_appears_in_messages(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    # Its own key, of no OpenAI shape (other providers' keys are not sk-...).
    own = "pa-EmbeddingKeyNotToLeak0123456789"
    embedder = open_embedder(make_settings(api_key=KEY, embedding_api_key=own))
    assert embedder is not None
    fake_openai.queue_embedding_error(500, f"upstream refused key {own}")
    with pytest.raises(ModelError) as info:
        embedder.embed(["x"])
    assert own not in one_line(info) and "upstream refused key ***" in str(info.value)


def test_each_retry_is_reported(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    fake_openai.queue_error(503, "overloaded", retry_after=FAST)
    fake_openai.queue_error(429, "slow down", retry_after=FAST)
    fake_openai.queue_text("made it")
    model = open_model(make_settings(max_retries=2))
    seen: list[str] = []
    model.on_retry = seen.append  # type: ignore[attr-defined]
    assert model.chat(USER).text == "made it"
    assert seen == ["retrying (2/3) after HTTP 503", "retrying (3/3) after HTTP 429"]


def test_a_final_timeout_names_the_attempts(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    for _ in range(2):
        fake_openai.queue_delay(3.0, then="too late")
    model = open_model(make_settings(request_timeout=0.2, max_retries=1))
    seen: list[str] = []
    model.on_retry = seen.append  # type: ignore[attr-defined]
    with pytest.raises(ModelUnreachableError) as info:
        model.stream(USER, on_text=lambda _: None)
    assert seen == ["retrying (2/2) after timeout"]
    assert re.search(r"timed out after 0\.2 s \(2 attempts, \d+ s in all\)", one_line(info))
