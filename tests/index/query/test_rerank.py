"""Optional re-ranking by the chat model: off by default, one bounded request, fused, fail-safe."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fake_openai import FakeOpenAI

from memclaw.index import search
from memclaw.index.query.rerank import LINE_CHARS, fuse
from memclaw.index.rank import Candidate
from memclaw.workspace import Workspace

LINES = (
    "- The bike shop on Mill Lane fixed my brakes\n"
    "- Bike ride to the lake with Sam\n"
    "- Sold the old bike to a neighbour\n"
    "- Bike lights need new batteries " + "very " * 100 + "soon\n"
)


def _ws(root: Path, fake: FakeOpenAI, **extra: Any) -> Workspace:
    (root / "a").mkdir(exist_ok=True)
    (root / "a" / "MEMORY.md").write_text(LINES, encoding="utf-8")
    overrides = {"base_url": fake.base_url, "api_key": "test", "max_retries": 0, **extra}
    return Workspace.open(root, overrides=overrides)


def test_off_by_default_no_request(isolated_env: Path, fake_openai: FakeOpenAI) -> None:
    assert search(_ws(isolated_env, fake_openai), "bike")
    assert fake_openai.chat_requests() == []


def test_the_models_order_is_fused_with_one_bounded_request(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    ws = _ws(isolated_env, fake_openai, search_rerank=4)
    before = [h.line for h in search(_ws(isolated_env, fake_openai), "bike")]
    fake_openai.queue_json({"order": [before.index(3) + 1]})  # the model likes line 3 best
    after = [h.line for h in search(ws, "bike")]
    assert after[0] == 3 and sorted(after) == sorted(before)
    (request,) = fake_openai.chat_requests()
    user = request.body["messages"][1]["content"]
    assert user.startswith("Question: bike") and user.count("\n") == 6  # four numbered lines
    assert max(len(line) for line in user.splitlines()) <= LINE_CHARS + 20
    assert request.body["max_tokens"] <= 8 * 4 + 32


def test_a_failing_or_garbled_model_leaves_the_keyword_order(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    plain = [h.line for h in search(_ws(isolated_env, fake_openai), "bike")]
    ws = _ws(isolated_env, fake_openai, search_rerank=4)
    fake_openai.queue_text("I think line three, maybe")
    assert [h.line for h in search(ws, "bike")] == plain
    fake_openai.queue_error(500, "boom")
    assert [h.line for h in search(ws, "bike")] == plain


def _cand(n: int) -> Candidate:
    return Candidate("a", n, "f.md", n, n, "", None, "", f"line {n}", "team", None, "daily", 1.0)


def test_fusion_moves_a_line_without_burying_the_keyword_order() -> None:
    cands = [_cand(n) for n in range(1, 11)]
    fused = fuse(cands, [10, 10, 99, -1])  # duplicates and nonsense numbers are ignored
    assert [c.line for c in fused][:3] == [10, 1, 2]  # the model's first, then keyword order
    assert [c.line for c in fuse(cands, [])] == list(range(1, 11))
