"""Embeddings with batching, opening models from settings, and the import cost."""

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from memclaw.config import Settings, load_settings
from memclaw.errors import ModelAnswerError, ModelNotConfiguredError
from memclaw.llm import ChatModel, Embedder, open_embedder, open_model

MakeSettings = Callable[..., Settings]


def embedder_for(settings: Settings) -> Embedder:
    embedder = open_embedder(settings)
    assert embedder is not None
    return embedder


def test_embed_returns_one_vector_per_text_in_order(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    texts = [f"memory number {i} about tea and Lyon" for i in range(150)]
    embedder = embedder_for(make_settings())
    assert embedder.name == "text-embedding-3-small"
    vectors = embedder.embed(texts)
    assert vectors == [FakeOpenAI.embed(t) for t in texts]
    batches = [r.body["input"] for r in fake_openai.embedding_requests()]
    assert [len(b) for b in batches] == [64, 64, 22]
    assert [t for batch in batches for t in batch] == texts
    assert all(r.body["encoding_format"] == "float" for r in fake_openai.embedding_requests())


def test_embed_nothing_sends_nothing(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    assert embedder_for(make_settings()).embed([]) == []
    assert fake_openai.embedding_requests() == []


def test_blank_texts_are_sent_as_a_space(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    vectors = embedder_for(make_settings()).embed(["", "tea"])
    assert len(vectors) == 2
    assert fake_openai.last_request().body["input"] == [" ", "tea"]


def test_wrong_number_of_vectors_is_rejected(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    body = b'{"object": "list", "data": [], "model": "m", "usage": {"prompt_tokens": 1}}'
    fake_openai.queue_embedding_raw(200, body)
    with pytest.raises(ModelAnswerError, match="0 embeddings for 2 texts"):
        embedder_for(make_settings()).embed(["a", "b"])


def test_vectors_come_back_in_the_order_of_the_texts(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    body = b'{"data": [{"index": 1, "embedding": [0.0, 1.0]}, {"index": 0, "embedding": [1, 0]}]}'
    fake_openai.queue_embedding_raw(200, body)
    assert embedder_for(make_settings()).embed(["a", "b"]) == [[1.0, 0.0], [0.0, 1.0]]


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b"<html>bad gateway</html>", "malformed"),
        (b'{"data": [{"index": 0, "embedding": "1,2"}]}', "malformed"),
        (b'{"data": [{"index": 0, "embedding": [1, "x"]}]}', "not numbers"),
        (b'{"data": [{"index": 0, "embedding": [1, NaN]}]}', "NaN or infinity"),
    ],
)
def test_an_answer_that_is_no_vector_says_what_is_wrong(
    fake_openai: FakeOpenAI, make_settings: MakeSettings, body: bytes, said: str
) -> None:
    fake_openai.queue_embedding_raw(200, body)
    with pytest.raises(ModelAnswerError, match=said):
        embedder_for(make_settings()).embed(["a"])


def test_open_model_without_configuration() -> None:
    with pytest.raises(ModelNotConfiguredError) as info:
        open_model(Settings())
    assert str(info.value) == (
        "no model configured: set OPENAI_API_KEY, or MEMCLAW_BASE_URL for a local server "
        "such as Ollama (http://localhost:11434/v1)"
    )


def test_open_embedder_needs_endpoint_and_model() -> None:
    assert open_embedder(Settings()) is None
    assert open_embedder(Settings(embedding_model="nomic-embed-text")) is None
    assert open_embedder(Settings(base_url="http://localhost:11434/v1")) is None
    embedder = open_embedder(
        Settings(base_url="http://localhost:11434/v1", embedding_model="nomic-embed-text")
    )
    assert embedder is not None and embedder.name == "nomic-embed-text"


def test_opened_objects_satisfy_the_protocols(make_settings: MakeSettings) -> None:
    model: ChatModel = open_model(make_settings())
    embedder: Embedder = embedder_for(make_settings())
    assert model.name == "gpt-4o-mini" and embedder.name == "text-embedding-3-small"


def test_settings_from_environment(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    env = {
        "OPENAI_API_KEY": "sk-test-0000",
        "MEMCLAW_BASE_URL": fake_openai.base_url,
        "MEMCLAW_MODEL": "qwen2.5:7b",
        "MEMCLAW_MAX_RETRIES": "0",
    }
    model = open_model(load_settings(tmp_path, env=env))
    assert model.chat([{"role": "user", "content": "hi"}]).text == "ok"
    request = fake_openai.last_request()
    assert request.body["model"] == "qwen2.5:7b"
    assert request.headers["authorization"] == "Bearer sk-test-0000"


def test_importing_the_model_layer_does_not_import_openai() -> None:
    code = (
        "import sys, memclaw.llm; from memclaw.config import Settings; "
        "memclaw.llm.open_model(Settings(base_url='http://127.0.0.1:9/v1')); "
        "print('openai' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"
