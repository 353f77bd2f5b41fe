"""Structured consolidation of memory entries: offline merges, the model, the invariants."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from fake_openai import FakeOpenAI

from dream.dreamkit import model_workspace, workspace
from memclaw.dream.consolidate import consolidate_agent, merge_entries_offline
from memclaw.workspace.entries import Entry, format_entries, load_entries
from memclaw.workspace.logs import read_log
from memclaw.workspace.safeguards import history
from memclaw.workspace.scope import Scope

DISTINCT = [
    "Maya lives in Gothenburg, in the Majorna district.",
    "Maya's dog Knut is a three-year-old Labrador.",
    "Maya learns Swedish in an evening class on Tuesdays.",
    "Maya trains for the Göteborgsvarvet half marathon.",
    "Maya's manager is Jonas Ek, the CTO.",
    "Maya writes Python with uv and ruff.",
]


def _entries(texts: list[str], start: int = 0) -> list[Entry]:
    return [
        Entry(
            f"m-{start + i:04d}", text, "preference", date(2026, 11, 1 + i), date(2026, 11, 1 + i)
        )
        for i, text in enumerate(texts)
    ]


def _write(agent, entries: list[Entry], owner: str | None = None) -> None:
    Scope.resolve(agent, owner).write(
        "entries/preference.md", format_entries(entries, "Preferences")
    )


def test_offline_merges_near_duplicates_and_keeps_the_newest_value() -> None:
    entries = _entries(
        [
            "Maya prefers short answers with commands first.",
            "Maya prefers short answers, commands first, and no summaries.",
            "The lotsen cutover is planned for 2026-12-05.",
            "The lotsen cutover is planned for 2026-12-12.",
            *DISTINCT,
        ]
    )
    merged = merge_entries_offline(entries)
    texts = [e.text for e in merged]
    assert len(merged) == len(entries) - 2
    assert "Maya prefers short answers, commands first, and no summaries." in texts
    assert "The lotsen cutover is planned for 2026-12-12." in texts
    assert "The lotsen cutover is planned for 2026-12-05." not in texts
    survivor = next(e for e in merged if "summaries" in e.text)
    assert survivor.extra["merged"] == "m-0000"
    assert survivor.created == date(2026, 11, 1)


def test_consolidation_writes_fewer_entries_and_keeps_a_backup(tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws")
    agent, _ = ws.init_agent("demo")
    entries = _entries(
        [
            "Maya likes dark mode in every editor.",
            "Maya likes dark mode in every editor she uses.",
            *DISTINCT,
        ]
    )
    _write(agent, entries)

    result = consolidate_agent(agent)

    assert (result.entries_before, result.entries_after, result.buckets_updated) == (8, 7, 1)
    assert len(load_entries(Scope(agent))) == 7
    assert agent.read("entries/preference.md").startswith("# Preferences\n")
    assert len(history.versions(agent, "entries/preference.md")) == 1
    (record,) = list(read_log(agent, "consolidate"))
    assert record["buckets"][0]["after"] == 7


def test_buckets_below_the_minimum_are_skipped(tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws")
    agent, _ = ws.init_agent("demo")
    _write(agent, _entries(["Maya likes tea.", "Maya likes tea a lot.", *DISTINCT[:4]]))
    before = agent.read("entries/preference.md")
    result = consolidate_agent(agent)
    assert result.buckets[0].status == "small"
    assert result.buckets_updated == 0
    assert agent.read("entries/preference.md") == before


def test_owner_buckets_rotate_fairly_under_the_per_run_cap(tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws", consolidate_max_owners=2)
    agent, _ = ws.init_agent("demo")
    owners = ["user:ann", "user:bob", "user:cy"]
    for owner in owners:
        _write(agent, _entries([*DISTINCT, "Likes tea.", "Likes green tea."]), owner=owner)

    first = consolidate_agent(agent)
    assert [b.owner for b in first.buckets] == [None, "user:ann", "user:bob"]
    assert first.deferred == ["user:cy"]
    assert first.owners_consolidated == 2

    ws.clock.advance(days=1)  # type: ignore[attr-defined]
    second = consolidate_agent(agent)
    assert [b.owner for b in second.buckets][1] == "user:cy"


def test_a_model_answer_with_more_entries_is_discarded(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    ws = model_workspace(tmp_path / "ws", fake_openai.base_url)
    agent, _ = ws.init_agent("demo")
    entries = _entries([*DISTINCT, "Maya likes tea.", "Maya likes green tea."])
    _write(agent, entries)
    before = agent.read("entries/preference.md")
    grown = [{"id": e.id, "text": e.text} for e in entries] + [{"id": "m-9999", "text": "New."}]
    fake_openai.queue_json({"entries": grown})

    result = consolidate_agent(agent)

    assert result.buckets[0].status == "discarded"
    assert result.entries_after == result.entries_before == 8
    assert agent.read("entries/preference.md") == before
    (record,) = list(read_log(agent, "consolidate"))
    assert record["buckets"][0]["status"] == "discarded"


def test_a_model_merge_keeps_ids_and_shrinks_the_bucket(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    ws = model_workspace(tmp_path / "ws", fake_openai.base_url)
    agent, _ = ws.init_agent("demo")
    entries = _entries([*DISTINCT, "Maya likes tea.", "Maya likes green tea."])
    _write(agent, entries)
    answer = [{"id": e.id, "text": e.text} for e in entries[:6]]
    answer.append({"id": entries[7].id, "text": "Maya likes green tea most."})
    fake_openai.queue_json({"entries": answer})

    result = consolidate_agent(agent)

    assert (result.entries_before, result.entries_after) == (8, 7)
    after = {e.id: e for e in load_entries(Scope(agent))}
    assert after["m-0007"].text == "Maya likes green tea most."
    assert after["m-0007"].updated == ws.clock().date()
    assert "m-0006" not in after
