"""`memclaw reindex` embeds what has no vector; a search embeds only a few fresh blocks.

A first search after embeddings were turned on used to embed the whole agent in silence
(762 s for 1,865 turns): the person saw a hung command. Now the search ranks what has
a vector and says once how much waits; `reindex` embeds it, and an interrupted run
keeps every batch it finished.
"""

import json
import logging
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.index import Searcher
from memclaw.index.semantic import SEARCH_EMBEDS
from memclaw.llm.openai_embedder import OpenAIEmbedder
from memclaw.workspace import Workspace

MANY = SEARCH_EMBEDS * 3


def _root(root: Path, fake: FakeOpenAI, lines: int) -> Workspace:
    (root / "memclaw.yaml").write_text(
        f"embedding_base_url: {fake.base_url}\nembedding_model: e5\nmax_retries: 0\n"
        f"embedding_batch_size: {SEARCH_EMBEDS}\n",
        encoding="utf-8",
    )
    (root / "a").mkdir()
    notes = "".join(f"- Note {i}: the ferry to island {i} leaves at dawn\n" for i in range(lines))
    (root / "a" / "MEMORY.md").write_text(notes, encoding="utf-8")
    return Workspace.open(root)


def _embedded(fake: FakeOpenAI) -> int:
    return sum(len(r.body["input"]) for r in fake.embedding_requests())


def test_a_search_over_many_unembedded_blocks_embeds_only_the_question(
    isolated_env: Path, fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    ws = _root(isolated_env, fake_openai, MANY)
    with caplog.at_level(logging.WARNING), Searcher(ws) as searcher:
        assert searcher.search("ferry island 7", log=False)  # keyword still answers
        searcher.search("dawn", log=False)
    assert _embedded(fake_openai) == 2  # the two questions
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert said == [
        f"semantic recall covers 0 of {MANY} blocks of a; `memclaw reindex a` embeds the rest"
    ]


def test_reindex_embeds_every_block_once_and_says_how_many(
    isolated_env: Path, fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    ws = _root(isolated_env, fake_openai, MANY)
    result = CliRunner().invoke(app, ["reindex", "a", "--json"], catch_exceptions=False)
    assert result.exit_code == 0
    assert json.loads(result.stdout)["embedded"] == MANY
    assert _embedded(fake_openai) == MANY
    fake_openai.reset()
    again = CliRunner().invoke(app, ["reindex", "a"], catch_exceptions=False)
    assert again.exit_code == 0 and "embedded" not in again.stderr
    assert _embedded(fake_openai) == 0  # cached by text: nothing to do
    with caplog.at_level(logging.WARNING), Searcher(ws) as searcher:
        searcher.search("ferry", log=False)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert _embedded(fake_openai) == 1  # only the question


def test_ctrl_c_keeps_the_batches_done_and_the_next_run_embeds_the_rest(
    isolated_env: Path, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    _root(isolated_env, fake_openai, MANY)
    real = OpenAIEmbedder.embed
    calls = [0]

    def interrupted(self: OpenAIEmbedder, texts: list[str], **kwargs: object) -> list[list[float]]:
        calls[0] += 1
        if calls[0] == 2:
            raise KeyboardInterrupt
        return real(self, texts, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(OpenAIEmbedder, "embed", interrupted)
    stopped = CliRunner().invoke(app, ["reindex", "a"], catch_exceptions=False)
    assert stopped.exit_code == 130
    assert stopped.stderr.splitlines()[-1] == (
        f"a: stopped with {SEARCH_EMBEDS} of {MANY} blocks embedded (kept); "
        "`memclaw reindex a` embeds the rest"
    )
    monkeypatch.setattr(OpenAIEmbedder, "embed", real)
    fake_openai.reset()
    rest = CliRunner().invoke(app, ["reindex", "a", "--json"], catch_exceptions=False)
    assert json.loads(rest.stdout)["embedded"] == MANY - SEARCH_EMBEDS
    assert _embedded(fake_openai) == MANY - SEARCH_EMBEDS


def test_reindex_drops_the_vectors_of_lines_that_changed(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    import sqlite3

    from memclaw.index.store import index_path

    _root(isolated_env, fake_openai, 3)
    assert CliRunner().invoke(app, ["reindex", "a"], catch_exceptions=False).exit_code == 0
    memory = isolated_env / "a" / "MEMORY.md"
    memory.write_text(memory.read_text(encoding="utf-8").replace("dawn", "noon"), encoding="utf-8")
    result = CliRunner().invoke(app, ["reindex", "a", "--json"], catch_exceptions=False)
    assert json.loads(result.stdout)["embedded"] == 3  # the lines as they are now
    conn = sqlite3.connect(index_path(isolated_env / "a"))
    try:
        assert conn.execute("SELECT count(*) FROM vectors").fetchone() == (3,)  # not 6
    finally:
        conn.close()
