"""Exercise FakeOpenAI with the real ``openai`` client, at the HTTP wire."""

import json
import math
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import openai
import pytest
from fake_openai import EMBEDDING_DIM, FakeOpenAI
from openai.types.chat import ChatCompletionMessageFunctionToolCall, ChatCompletionMessageParam

MODEL = "gpt-4o-mini"
USER: list[ChatCompletionMessageParam] = [{"role": "user", "content": "hello there"}]


@pytest.fixture(scope="module")
def http() -> Iterator[openai.DefaultHttpxClient]:
    """One HTTP client for the module: building an ``openai.OpenAI`` from scratch costs ~60 ms."""
    with openai.DefaultHttpxClient() as shared:
        yield shared


@contextmanager
def make_client(
    server: FakeOpenAI,
    http: openai.DefaultHttpxClient,
    *,
    timeout: float = 2.0,
    retries: int = 0,
    api_key: str = "test",
) -> Iterator[openai.OpenAI]:
    """A real openai client aimed at ``server`` (not closed on exit: ``http`` is shared)."""
    yield openai.OpenAI(
        base_url=server.base_url,
        api_key=api_key,
        max_retries=retries,
        timeout=timeout,
        http_client=http,
    )


@pytest.fixture
def client(fake_openai: FakeOpenAI, http: openai.DefaultHttpxClient) -> Iterator[openai.OpenAI]:
    with make_client(fake_openai, http) as c:
        yield c


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


# --------------------------------------------------------------------------- chat, non-streamed


def test_plain_completion(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    fake_openai.queue_text("Hello, human.")
    resp = client.chat.completions.create(model=MODEL, messages=USER)
    choice = resp.choices[0]
    assert choice.message.content == "Hello, human."
    assert choice.message.role == "assistant"
    assert choice.finish_reason == "stop"
    assert resp.model == MODEL
    assert resp.object == "chat.completion"
    assert resp.id.startswith("chatcmpl-")
    assert resp.created > 0
    assert resp.usage is not None
    assert resp.usage.completion_tokens == len("Hello, human.") // 4 + 1
    assert resp.usage.total_tokens == resp.usage.prompt_tokens + resp.usage.completion_tokens


def test_default_reply_and_custom_default(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    resp = client.chat.completions.create(model=MODEL, messages=USER)
    assert resp.choices[0].message.content == "ok"

    fake_openai.default_reply = lambda req: req["messages"][-1]["content"].upper()
    resp = client.chat.completions.create(model=MODEL, messages=USER)
    assert resp.choices[0].message.content == "HELLO THERE"


def test_queue_is_fifo(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    fake_openai.queue_text("one")
    fake_openai.queue_text("two")
    assert fake_openai.pending == 2
    got = [
        client.chat.completions.create(model=MODEL, messages=USER).choices[0].message.content
        for _ in range(3)
    ]
    assert got == ["one", "two", "ok"]
    assert fake_openai.pending == 0


def test_json_reply(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    payload = {"facts": ["likes tea", "lives in Lyon"], "confidence": 0.9}
    fake_openai.queue_json(payload)
    resp = client.chat.completions.create(
        model=MODEL,
        messages=USER,
        response_format={"type": "json_object"},
    )
    content = resp.choices[0].message.content
    assert content is not None
    assert json.loads(content) == payload


def test_finish_reason_length(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    fake_openai.queue_text("truncated answ", finish_reason="length")
    resp = client.chat.completions.create(model=MODEL, messages=USER)
    assert resp.choices[0].finish_reason == "length"


def test_tool_call_non_streamed(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    fake_openai.queue_tool_call("remember", {"fact": "likes tea", "tags": ["food"]}, "call_abc")
    resp = client.chat.completions.create(model=MODEL, messages=USER)
    choice = resp.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.tool_calls is not None
    (call,) = choice.message.tool_calls
    assert call.id == "call_abc"
    assert call.type == "function"
    assert call.function.name == "remember"
    assert json.loads(call.function.arguments) == {"fact": "likes tea", "tags": ["food"]}


def test_multiple_tool_calls(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    fake_openai.queue_tool_calls([("search", {"q": "tea"}), ("forget", {"id": 3})])
    resp = client.chat.completions.create(model=MODEL, messages=USER)
    assert resp.choices[0].message.tool_calls is not None
    calls = [
        c
        for c in resp.choices[0].message.tool_calls
        if isinstance(c, ChatCompletionMessageFunctionToolCall)
    ]
    assert len(calls) == 2
    assert [c.function.name for c in calls] == ["search", "forget"]
    assert [json.loads(c.function.arguments) for c in calls] == [{"q": "tea"}, {"id": 3}]
    assert calls[0].id != calls[1].id
    assert all(c.id.startswith("call_") for c in calls)


# --------------------------------------------------------------------------- streaming


def test_streaming_text_reassembled(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    text = "The quick brown fox jumps over the lazy dog."
    fake_openai.queue_text(text)
    stream = client.chat.completions.create(
        model=MODEL,
        messages=USER,
        stream=True,
    )
    pieces: list[str] = []
    finish: list[str | None] = []
    for chunk in stream:
        assert chunk.object == "chat.completion.chunk"
        assert chunk.model == MODEL
        assert chunk.usage is None
        if chunk.choices[0].delta.content:
            pieces.append(chunk.choices[0].delta.content)
        finish.append(chunk.choices[0].finish_reason)
    assert "".join(pieces) == text
    assert len(pieces) > 3
    assert finish[-1] == "stop"
    assert all(f is None for f in finish[:-1])


def test_streaming_include_usage(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    fake_openai.queue_text("four score and seven")
    chunks = list(
        client.chat.completions.create(
            model=MODEL,
            messages=USER,
            stream=True,
            stream_options={"include_usage": True},
        )
    )
    last = chunks[-1]
    assert last.choices == []
    assert last.usage is not None
    assert last.usage.completion_tokens == len("four score and seven") // 4 + 1
    assert all(c.usage is None for c in chunks[:-1])
    assert chunks[-2].choices[0].finish_reason == "stop"


def test_streamed_tool_call_reassembled(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    args = {"fact": "the user's cat is called Miso", "importance": 3}
    fake_openai.queue_tool_calls([("remember", args, "call_1"), ("search", {"q": "cats"})])
    calls: dict[int, dict[str, Any]] = {}
    finish = None
    fragments = 0
    for chunk in client.chat.completions.create(
        model=MODEL,
        messages=USER,
        stream=True,
    ):
        choice = chunk.choices[0]
        finish = choice.finish_reason or finish
        for tc in choice.delta.tool_calls or []:
            slot = calls.setdefault(tc.index, {"id": None, "name": "", "arguments": ""})
            if tc.id:
                assert slot["id"] is None, "id must only be sent in the first delta"
                slot["id"] = tc.id
            if tc.function and tc.function.name:
                slot["name"] += tc.function.name
            if tc.function and tc.function.arguments:
                slot["arguments"] += tc.function.arguments
                fragments += 1
    assert finish == "tool_calls"
    assert fragments > 4
    assert calls[0]["id"] == "call_1"
    assert calls[0]["name"] == "remember"
    assert json.loads(calls[0]["arguments"]) == args
    assert calls[1]["name"] == "search"
    assert json.loads(calls[1]["arguments"]) == {"q": "cats"}


def test_stream_helper_accumulates(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    """The client's higher-level ``.stream()`` helper accepts our chunks."""
    fake_openai.queue_tool_call("remember", {"fact": "x"}, "call_z")
    with client.chat.completions.stream(model=MODEL, messages=USER) as stream:
        for _ in stream:
            pass
        final = stream.get_final_completion()
    calls = final.choices[0].message.tool_calls
    assert calls is not None
    assert calls[0].function.name == "remember"
    assert json.loads(calls[0].function.arguments) == {"fact": "x"}


def test_mid_stream_error(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    fake_openai.queue_stream_error("upstream exploded", partial_text="partial answer")
    got: list[str] = []
    with pytest.raises(openai.APIError, match="upstream exploded"):
        for chunk in client.chat.completions.create(
            model=MODEL,
            messages=USER,
            stream=True,
        ):
            got.append(chunk.choices[0].delta.content or "")
    assert "".join(got) == "partial answer"


def test_queued_error_applies_to_streaming_request(
    fake_openai: FakeOpenAI, client: openai.OpenAI
) -> None:
    fake_openai.queue_error(429, "Slow down")
    with pytest.raises(openai.RateLimitError):
        client.chat.completions.create(model=MODEL, messages=USER, stream=True)


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("status", "code", "exc_type"),
    [
        (401, "invalid_api_key", openai.AuthenticationError),
        (404, "model_not_found", openai.NotFoundError),
        (429, "rate_limit_exceeded", openai.RateLimitError),
        (500, "server_error", openai.InternalServerError),
        (503, "server_error", openai.InternalServerError),
        (400, "context_length_exceeded", openai.BadRequestError),
    ],
)
def test_error_status_maps_to_exception(
    fake_openai: FakeOpenAI,
    client: openai.OpenAI,
    status: int,
    code: str,
    exc_type: type[openai.APIStatusError],
) -> None:
    fake_openai.queue_error(status, f"scripted {status}", code=code)
    with pytest.raises(exc_type) as info:
        client.chat.completions.create(model=MODEL, messages=USER)
    err = info.value
    assert err.status_code == status
    assert err.code == code
    assert f"scripted {status}" in err.message
    assert isinstance(err.body, dict)
    assert set(err.body) == {"message", "type", "param", "code"}


def test_error_defaults_by_status(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    fake_openai.queue_error(401, "bad key")
    fake_openai.queue_error(503, "overloaded")
    with pytest.raises(openai.AuthenticationError) as auth:
        client.chat.completions.create(model=MODEL, messages=USER)
    assert auth.value.code == "invalid_api_key"
    assert auth.value.type == "invalid_request_error"
    with pytest.raises(openai.InternalServerError) as server:
        client.chat.completions.create(model=MODEL, messages=USER)
    assert server.value.type == "server_error"


def test_context_length_error_details(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    fake_openai.queue_error(
        400,
        "This model's maximum context length is 128000 tokens.",
        code="context_length_exceeded",
        err_type="invalid_request_error",
        param="messages",
    )
    with pytest.raises(openai.BadRequestError) as info:
        client.chat.completions.create(model=MODEL, messages=USER)
    assert info.value.code == "context_length_exceeded"
    assert info.value.type == "invalid_request_error"
    assert info.value.param == "messages"


def test_api_key_check(http: openai.DefaultHttpxClient) -> None:
    with FakeOpenAI(api_key="sk-right") as server:
        with make_client(server, http) as wrong, pytest.raises(openai.AuthenticationError) as info:
            wrong.chat.completions.create(model=MODEL, messages=USER)
        assert info.value.code == "invalid_api_key"
        with make_client(server, http, api_key="sk-right") as right:
            resp = right.chat.completions.create(model=MODEL, messages=USER)
        assert resp.choices[0].message.content == "ok"


def test_known_models(http: openai.DefaultHttpxClient) -> None:
    with FakeOpenAI(known_models={"gpt-4o-mini", "text-embedding-3-small"}) as server:
        server.queue_text("kept for the valid request")
        with make_client(server, http) as c:
            with pytest.raises(openai.NotFoundError) as info:
                c.chat.completions.create(model="gpt-9", messages=USER)
            assert info.value.code == "model_not_found"
            assert "gpt-9" in info.value.message
            resp = c.chat.completions.create(model=MODEL, messages=USER)
            assert resp.choices[0].message.content == "kept for the valid request"
            with pytest.raises(openai.NotFoundError):
                c.embeddings.create(model="nope", input="x")
            assert sorted(m.id for m in c.models.list()) == [
                "gpt-4o-mini",
                "text-embedding-3-small",
            ]


def test_timeout(fake_openai: FakeOpenAI, http: openai.DefaultHttpxClient) -> None:
    fake_openai.queue_delay(3.0, then="too late")
    with make_client(fake_openai, http, timeout=0.3) as c:
        start = time.monotonic()
        with pytest.raises(openai.APITimeoutError):
            c.chat.completions.create(model=MODEL, messages=USER)
        assert time.monotonic() - start < 2.0
        # the server keeps working for the next request
        fake_openai.queue_text("on time", delay=0.05)
        resp = c.chat.completions.create(model=MODEL, messages=USER)
        assert resp.choices[0].message.content == "on time"


def test_client_retry_on_503(fake_openai: FakeOpenAI, http: openai.DefaultHttpxClient) -> None:
    fake_openai.queue_error(503, "The server is overloaded", retry_after=0.01)
    fake_openai.queue_text("recovered")
    with make_client(fake_openai, http, retries=1) as c:
        resp = c.chat.completions.create(model=MODEL, messages=USER)
    assert resp.choices[0].message.content == "recovered"
    assert len(fake_openai.chat_requests()) == 2


def test_raw_garbage(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    fake_openai.queue_raw(502, b"<html><body>Bad Gateway</body></html>", "text/html")
    with pytest.raises(openai.InternalServerError) as info:
        client.chat.completions.create(model=MODEL, messages=USER)
    assert info.value.status_code == 502

    fake_openai.queue_raw(200, b"{not json", "application/json")
    with pytest.raises(ValueError):
        client.chat.completions.create(model=MODEL, messages=USER)


def test_stream_garbage(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    fake_openai.queue_stream_garbage(b"data: {not json}\n\n")
    with pytest.raises(ValueError):
        list(client.chat.completions.create(model=MODEL, messages=USER, stream=True))
    fake_openai.queue_stream_garbage(b"no events here\n")
    assert list(client.chat.completions.create(model=MODEL, messages=USER, stream=True)) == []


# --------------------------------------------------------------------------- embeddings


def test_embeddings_shape_and_determinism(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    texts = ["I like green tea", "I like green teas", "quarterly tax filing deadline"]
    first = client.embeddings.create(model="text-embedding-3-small", input=texts)
    second = client.embeddings.create(model="text-embedding-3-small", input=texts)
    assert [d.index for d in first.data] == [0, 1, 2]
    vecs = [d.embedding for d in first.data]
    assert vecs == [d.embedding for d in second.data]
    for vec in vecs:
        assert len(vec) == EMBEDDING_DIM
        assert math.isclose(math.sqrt(sum(x * x for x in vec)), 1.0, rel_tol=1e-5)
    assert cosine(vecs[0], vecs[1]) > cosine(vecs[0], vecs[2]) + 0.3
    assert first.usage.prompt_tokens > 0
    assert first.model == "text-embedding-3-small"
    # the client asked for base64 by default; float gives the same numbers (float32-rounded)
    assert fake_openai.last_request().body["encoding_format"] == "base64"
    as_float = client.embeddings.create(
        model="text-embedding-3-small", input=texts[0], encoding_format="float"
    )
    assert len(as_float.data) == 1
    expected = FakeOpenAI.embed(texts[0])
    assert as_float.data[0].embedding == pytest.approx(expected, abs=1e-6)
    assert vecs[0] == pytest.approx(expected, abs=1e-6)


def test_embeddings_dimensions(client: openai.OpenAI) -> None:
    resp = client.embeddings.create(model="text-embedding-3-small", input="abc", dimensions=16)
    assert len(resp.data[0].embedding) == 16


def test_embedding_queue_is_separate(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    fake_openai.queue_text("chat only")
    fake_openai.queue_embedding_error(429, "embedding quota")
    with pytest.raises(openai.RateLimitError):
        client.embeddings.create(model="text-embedding-3-small", input="x")
    # the chat reply was not consumed by the embedding request
    resp = client.chat.completions.create(model=MODEL, messages=USER)
    assert resp.choices[0].message.content == "chat only"
    assert len(client.embeddings.create(model="e", input="x").data) == 1


# --------------------------------------------------------------------------- misc


def test_models_list(client: openai.OpenAI) -> None:
    ids = [m.id for m in client.models.list()]
    assert "gpt-4o-mini" in ids
    assert client.models.retrieve("gpt-4o").id == "gpt-4o"


def test_request_recording(fake_openai: FakeOpenAI, client: openai.OpenAI) -> None:
    client.chat.completions.create(
        model=MODEL,
        messages=USER,
        temperature=0.2,
        tools=[
            {
                "type": "function",
                "function": {"name": "remember", "parameters": {"type": "object"}},
            }
        ],
    )
    client.embeddings.create(model="text-embedding-3-small", input="x")
    assert len(fake_openai.requests) == 2
    (chat,) = fake_openai.chat_requests()
    assert chat.path == "/v1/chat/completions"
    assert chat.headers["authorization"] == "Bearer test"
    assert chat.body["model"] == MODEL
    assert chat.body["messages"] == USER
    assert chat.body["temperature"] == 0.2
    assert chat.body["tools"][0]["function"]["name"] == "remember"
    path, headers, body = fake_openai.last_request()
    assert path == "/v1/embeddings"
    assert "content-type" in headers
    assert body["input"] == "x"
    assert len(fake_openai.embedding_requests()) == 1
    fake_openai.reset()
    assert fake_openai.requests == []


def test_concurrent_requests(fake_openai: FakeOpenAI, http: openai.DefaultHttpxClient) -> None:
    fake_openai.default_reply = lambda req: "echo:" + req["messages"][-1]["content"]

    def ask(i: int) -> str | None:
        resp = c.chat.completions.create(
            model=MODEL,
            messages=[{"role": "user", "content": f"q{i}"}],
        )
        return resp.choices[0].message.content

    with (
        make_client(fake_openai, http, timeout=5.0) as c,
        ThreadPoolExecutor(max_workers=16) as pool,
    ):
        answers = list(pool.map(ask, range(64)))
    assert answers == [f"echo:q{i}" for i in range(64)]
    assert len(fake_openai.chat_requests()) == 64


def test_start_stop_lifecycle(http: openai.DefaultHttpxClient) -> None:
    server = FakeOpenAI()
    with pytest.raises(RuntimeError):
        _ = server.base_url
    server.start()
    url = server.base_url
    assert url.startswith("http://127.0.0.1:")
    assert url.endswith("/v1")
    server.queue_delay(10.0)  # a handler blocked in a delay must not block stop()
    with make_client(server, http, timeout=0.2) as c, pytest.raises(openai.APITimeoutError):
        c.chat.completions.create(model=MODEL, messages=USER)
    start = time.monotonic()
    server.stop()
    server.stop()  # idempotent
    assert time.monotonic() - start < 1.0
    with make_client(server.start(), http) as c:  # restartable
        assert c.chat.completions.create(model=MODEL, messages=USER).choices[0].message.content
    server.stop()


def test_latency_holds_back_every_answer(http: openai.DefaultHttpxClient) -> None:
    with FakeOpenAI(latency=5.0) as slow, make_client(slow, http, timeout=0.3) as c:
        slow.queue_text("scripted")  # a scripted answer waits too
        with pytest.raises(openai.APITimeoutError):
            c.chat.completions.create(
                model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}]
            )
    with FakeOpenAI(latency=0.0) as quick, make_client(quick, http, timeout=0.3) as c:
        got = c.chat.completions.create(
            model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}]
        )
        assert got.choices[0].message.content == "ok"
