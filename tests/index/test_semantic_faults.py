"""Semantic recall when the embedding endpoint misbehaves: keyword results, one warning
line, never an exception; and vectors made one way are never reused for another."""

import logging
import socket
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI

from memclaw.index import Searcher, search
from memclaw.workspace import Workspace

LINES = (
    "- Joined the photography club at the library\n"
    "- Bought new tyres for the car\n"
    "- The kayak permit costs 300 kronor\n"
)
KAYAK = ["- The kayak permit costs 300 kronor"]


def _ws(root: Path, url: str, **extra: Any) -> Workspace:
    (root / "a").mkdir(exist_ok=True)
    (root / "a" / "MEMORY.md").write_text(LINES, encoding="utf-8")
    overrides = {
        "embedding_base_url": url,
        "embedding_model": "multilingual-e5-small",
        "max_retries": 0,
        "request_timeout": 0.5,
        **extra,
    }
    return Workspace.open(root, overrides=overrides)


def _closed_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_dead_endpoint_gives_keyword_results_and_one_warning(
    isolated_env: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ws = _ws(isolated_env, _closed_port())
    with Searcher(ws) as searcher:
        # "on 3 June" adds the dated ranking: still one warning for the search
        first = searcher.search("kayak permit on 3 June", log=False)
        again = searcher.search("kayak", log=False)  # the endpoint rests: no second wait
    assert [h.text for h in again] == KAYAK and first is not None
    (said,) = _warnings(caplog)
    assert said.startswith("semantic recall skipped") and "\n" not in said


def test_a_slow_endpoint_times_out_to_keyword_results(
    isolated_env: Path, fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    ws = _ws(isolated_env, fake_openai.base_url)
    fake_openai.queue_embedding_delay(3.0)
    assert [h.text for h in search(ws, "kayak", log=False)] == KAYAK
    assert len(_warnings(caplog)) == 1


@pytest.mark.parametrize(
    "body",
    [b"<html>bad gateway</html>", b'{"data": [{"index": 0, "embedding": [1, "x"]}]}', b"{}"],
)
def test_a_garbage_answer_gives_keyword_results(
    isolated_env: Path, fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture, body: bytes
) -> None:
    ws = _ws(isolated_env, fake_openai.base_url)
    fake_openai.queue_embedding_raw(200, body)
    assert [h.text for h in search(ws, "kayak", log=False)] == KAYAK
    assert len(_warnings(caplog)) == 1


def test_changing_a_prefix_embeds_the_blocks_again(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    search(_ws(isolated_env, fake_openai.base_url), "car", log=False)
    first = [t for r in fake_openai.embedding_requests() for t in r.body["input"]]
    assert "passage: - Bought new tyres for the car" in first and "query: car" in first
    fake_openai.reset()
    search(_ws(isolated_env, fake_openai.base_url), "car", log=False)
    assert [r.body["input"] for r in fake_openai.embedding_requests()] == [["query: car"]]
    fake_openai.reset()
    ws = _ws(isolated_env, fake_openai.base_url, embedding_passage_prefix="doc: ")
    search(ws, "car", log=False)
    again = [t for r in fake_openai.embedding_requests() for t in r.body["input"]]
    assert "doc: - Bought new tyres for the car" in again  # not the old passage: vectors


def test_a_searcher_embeds_each_query_once(isolated_env: Path, fake_openai: FakeOpenAI) -> None:
    ws = _ws(isolated_env, fake_openai.base_url)
    with Searcher(ws) as searcher:
        searcher.search("kayak", log=False)
        fake_openai.reset()
        searcher.search("kayak", log=False)
        searcher.search("tyres on 3 June", log=False)  # the dated ranking shares the vector
    assert [r.body["input"] for r in fake_openai.embedding_requests()] == [
        ["query: tyres on 3 June"]
    ]
