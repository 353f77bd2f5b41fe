"""Relevance: the absolute share of a query a hit holds, and search's threshold on it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memclaw.index import search
from memclaw.workspace import Workspace

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
NOTE = """# 2026-11-24

## 08:00
- Foam rolling tonight; ice if it is still sore tomorrow.
- The PostGIS cutover moved to Saturday 2026-12-12.
- Swedish class tonight, homework about her job.
"""


def _ws(root: Path, **overrides: float) -> Workspace:
    (root / "a" / "memory").mkdir(parents=True)
    (root / "a" / "memory" / "2026-11-24.md").write_text(NOTE, encoding="utf-8")
    return Workspace.open(root, env={}, overrides=dict(overrides), clock=lambda: NOW)


def test_a_hit_holding_every_word_is_fully_relevant_and_one_word_of_three_is_not(
    isolated_env: Path,
) -> None:
    ws = _ws(isolated_env)
    hits = search(ws, "PostGIS cutover", log=False)
    assert hits[0].line == 5 and hits[0].relevance == pytest.approx(1.0)
    hits = search(ws, "what should I cook for dinner tonight", log=False)
    assert hits and all(h.relevance < 0.35 for h in hits)  # "tonight" only
    assert hits[0].to_dict()["relevance"] == round(hits[0].relevance, 6)


def test_words_of_asking_weigh_nothing(isolated_env: Path) -> None:
    ws = _ws(isolated_env)
    hits = search(ws, "can you remind me what I said about the cutover", log=False)
    assert hits[0].line == 5 and hits[0].relevance == pytest.approx(1.0)


def test_search_finds_nothing_when_no_hit_reaches_the_threshold(isolated_env: Path) -> None:
    ws = _ws(isolated_env, search_threshold=0.35)
    assert search(ws, "what should I cook for dinner tonight", log=False) == []
    assert [h.line for h in search(ws, "when is the cutover", log=False)][:1] == [5]


def test_the_threshold_is_off_by_default(isolated_env: Path) -> None:
    # (a question whose answer shares few of its words is still answered: see
    # docs/benchmarks-recall.md for what a default threshold cost recall)
    ws = _ws(isolated_env)
    assert search(ws, "what should I cook for dinner tonight", log=False)


def test_the_words_naming_a_day_are_answered_by_the_date(isolated_env: Path) -> None:
    ws = _ws(isolated_env)
    hits = search(ws, "what about the PostGIS cutover on 24 November", log=False)
    assert hits[0].line == 5 and hits[0].relevance == pytest.approx(1.0)
