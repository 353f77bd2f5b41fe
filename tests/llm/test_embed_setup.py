"""How texts reach an embedding server: prefixes per model family, input_type, a separate
endpoint and key, batch size, and answers that are not vectors."""

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from memclaw.config import Settings, describe, load_settings
from memclaw.errors import ModelAnswerError
from memclaw.llm import open_embedder
from memclaw.llm.embedsetup import BGE_QUERY, embedding_setup, family_prefixes

MakeSettings = Callable[..., Settings]


@pytest.mark.parametrize(
    ("model", "query", "passage"),
    [
        ("multilingual-e5-small", "query: ", "passage: "),
        ("intfloat/e5-base-v2", "query: ", "passage: "),
        ("nomic-embed-text", "search_query: ", "search_document: "),
        ("nomic-ai/nomic-embed-text-v1.5", "search_query: ", "search_document: "),
        ("BAAI/bge-small-en-v1.5", BGE_QUERY, ""),
        ("bge-large-en", BGE_QUERY, ""),
        ("bge-m3", "", ""),
        ("thenlper/gte-small", "", ""),
        ("text-embedding-3-small", "", ""),
        ("mxbai-embed-large", "", ""),  # "e5" inside a word is not the e5 family
    ],
)
def test_known_prefixes_per_model_family(model: str, query: str, passage: str) -> None:
    assert family_prefixes(model) == (query, passage)


def _inputs(fake: FakeOpenAI) -> list[list[str]]:
    return [r.body["input"] for r in fake.embedding_requests()]


def test_auto_prefixes_reach_the_server(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    embedder = open_embedder(make_settings(embedding_model="multilingual-e5-small"))
    assert embedder is not None
    embedder.embed(["the car"], kind="passage")
    embedder.embed(["automobile"], kind="query")
    assert _inputs(fake_openai) == [["passage: the car"], ["query: automobile"]]
    assert all("input_type" not in r.body for r in fake_openai.embedding_requests())


def test_input_type_replaces_the_prefixes(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    settings = make_settings(embedding_model="multilingual-e5-small", embedding_input_type=True)
    embedder = open_embedder(settings)
    assert embedder is not None
    embedder.embed(["the car"])
    embedder.embed(["automobile"], kind="query")
    assert _inputs(fake_openai) == [["the car"], ["automobile"]]
    assert [r.body["input_type"] for r in fake_openai.embedding_requests()] == [
        "passage",
        "query",
    ]


def test_explicit_prefixes_win_and_empty_means_none(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    settings = make_settings(
        embedding_model="multilingual-e5-small",
        embedding_query_prefix="Q> ",
        embedding_passage_prefix="",
    )
    embedder = open_embedder(settings)
    assert embedder is not None
    embedder.embed(["a"], kind="query")
    embedder.embed(["b"])
    assert _inputs(fake_openai) == [["Q> a"], ["b"]]


def test_batch_size_is_a_setting(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    embedder = open_embedder(make_settings(embedding_batch_size=10))
    assert embedder is not None
    embedder.embed([f"line {i}" for i in range(25)])
    assert [len(b) for b in _inputs(fake_openai)] == [10, 10, 5]


def test_cache_key_changes_with_any_prefix_or_input_type() -> None:
    base = Settings(embedding_model="multilingual-e5-small", embedding_input_type=True)
    keys = {
        embedding_setup(s).cache_key
        for s in (
            base,
            Settings(embedding_model="multilingual-e5-small"),
            Settings(embedding_model="multilingual-e5-small", embedding_passage_prefix="p: "),
            Settings(embedding_model="multilingual-e5-small", embedding_query_prefix="q: "),
            Settings(embedding_model="other-model", embedding_input_type=True),
        )
    }
    assert len(keys) == 5
    # A bare model keeps the plain name its vectors were cached under before prefixes.
    assert embedding_setup(Settings(embedding_model="text-embedding-3-small")).cache_key == (
        "text-embedding-3-small"
    )


def test_a_separate_embedding_endpoint_gets_its_own_key_never_the_chat_key(
    fake_openai: FakeOpenAI,
) -> None:
    chat_elsewhere = "http://127.0.0.1:9/v1"  # chat is configured, but not here
    settings = Settings(
        base_url=chat_elsewhere,
        api_key="sk-chat-provider-key",
        embedding_base_url=fake_openai.base_url,
        embedding_model="nomic-embed-text",
        max_retries=0,
    )
    embedder = open_embedder(settings)
    assert embedder is not None
    embedder.embed(["x"])
    (request,) = fake_openai.embedding_requests()
    assert "sk-chat-provider-key" not in json.dumps(request.headers)
    fake_openai.reset()
    keyed = open_embedder(Settings(**{**vars_of(settings), "embedding_api_key": "emb-key-1"}))
    assert keyed is not None
    keyed.embed(["x"])
    assert fake_openai.embedding_requests()[0].headers["authorization"] == "Bearer emb-key-1"


def vars_of(settings: Settings) -> dict[str, object]:
    return {row["key"]: getattr(settings, row["key"]) for row in describe(settings)}


def test_embeddings_need_no_chat_endpoint(fake_openai: FakeOpenAI) -> None:
    settings = Settings(embedding_base_url=fake_openai.base_url, embedding_model="m")
    assert not settings.model_configured and settings.embedding_configured
    embedder = open_embedder(settings)
    assert embedder is not None and len(embedder.embed(["x"])[0]) > 0


def test_the_embedding_key_is_a_masked_secret(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, env={"MEMCLAW_EMBEDDING_API_KEY": "emb-secret-123456"})
    assert settings.embedding_api_key == "emb-secret-123456"
    (row,) = [r for r in describe(settings) if r["key"] == "embedding_api_key"]
    assert "emb-secret-123456" not in str(row["value"])


@pytest.mark.parametrize(
    "body",
    [
        b'{"data": [{"index": 0, "embedding": ["a", "b"]}]}',
        b'{"data": [{"index": 0, "embedding": []}]}',
        b'{"data": [{"index": 0, "embedding": [1.0, NaN]}]}',
        b'{"data": [{"index": 0, "embedding": [1.0, 2.0]}, {"index": 1, "embedding": [1.0]}]}',
        b"not json at all",
    ],
)
def test_answers_that_are_not_vectors_are_one_error(
    fake_openai: FakeOpenAI, make_settings: MakeSettings, body: bytes
) -> None:
    embedder = open_embedder(make_settings())
    assert embedder is not None
    fake_openai.queue_embedding_raw(200, body)
    texts = ["a", "b"] if b'"index": 1' in body else ["a"]
    with pytest.raises(ModelAnswerError):
        embedder.embed(texts)
