"""Consolidation as the extraction skill asks: versions absorbed, short facts joined."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from fake_openai import FakeOpenAI

from dream.dreamkit import model_workspace, workspace
from memclaw.dream.consolidate import consolidate_agent, merge_entries_offline
from memclaw.entries.memories import remember
from memclaw.workspace.entries import Entry, format_entries, load_entries
from memclaw.workspace.scope import Scope

DOG = ["User has a dog.", "Dog's name is Poppy.", "User walks the dog daily."]
JOINED = "User has a dog named Poppy and walks the dog daily."
PLANNED = "As of 2026-03-15, user is planning a trip to Paris in September with friend Jack."
BOOKED = "As of 2026-03-30, user booked the Paris trip for 2026-09-12 to 2026-09-19."
OTHERS = [
    "Maya lives in Gothenburg, in the Majorna district.",
    "Maya learns Swedish in an evening class on Tuesdays.",
    "Maya trains for the Göteborgsvarvet half marathon.",
    "Maya's manager is Jonas Ek, the CTO.",
    "Maya writes Python with uv and ruff.",
    "Maya drinks her coffee black, without sugar.",
]


def _entries(texts: list[str]) -> list[Entry]:
    return [
        Entry(f"m-{i:04d}", text, "preference", date(2026, 11, 1 + i), date(2026, 11, 1 + i))
        for i, text in enumerate(texts)
    ]


def test_offline_joins_short_facts_about_one_subject_and_absorbs_versions() -> None:
    merged = merge_entries_offline(_entries([*DOG, PLANNED, BOOKED, *OTHERS]))
    texts = [e.text for e in merged]
    assert texts == [JOINED, "As of 2026-03-30, user booked the Paris trip for "
                     "2026-09-12 to 2026-09-19, with friend Jack.", *OTHERS]  # fmt: skip
    dog = merged[0]
    assert dog.id == "m-0002" and dog.extra["merged"] == "m-0000, m-0001"
    assert dog.created == date(2026, 11, 1)


def test_a_persons_own_entries_are_never_reworded(tmp_path: Path) -> None:
    agent, _ = workspace(tmp_path / "ws").init_agent("demo")
    scope = Scope(agent)
    for text in [*DOG, *OTHERS]:
        remember(scope, text, category="preference")  # stated by the person
    before = sorted(e.text for e in load_entries(scope))
    consolidate_agent(agent)
    assert sorted(e.text for e in load_entries(scope)) == before


def test_consolidation_writes_the_joined_fact(tmp_path: Path) -> None:
    agent, _ = workspace(tmp_path / "ws").init_agent("demo")
    Scope(agent).write(
        "entries/preference.md", format_entries(_entries([*DOG, *OTHERS]), "Preferences")
    )
    result = consolidate_agent(agent)
    assert (result.entries_before, result.entries_after) == (9, 7)
    assert JOINED in [e.text for e in load_entries(Scope(agent))]


def test_the_model_is_asked_to_join_and_cannot_reword_a_persons_entry(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    ws = model_workspace(tmp_path / "ws", fake_openai.base_url)
    agent, _ = ws.init_agent("demo")
    scope = Scope(agent)
    remember(scope, OTHERS[0], category="preference")  # the person's words
    theirs = load_entries(scope)[0]
    machine = _entries([*DOG, *OTHERS[1:]])
    scope.write("entries/preference.md", format_entries([theirs, *machine], "Preferences"))
    answer = [{"id": "m-0002", "text": JOINED}] + [
        {"id": e.id, "text": e.text} for e in machine[3:]
    ]  # the person's entry merged away: it must come back
    fake_openai.queue_json({"entries": answer})
    consolidate_agent(agent)
    texts = [e.text for e in load_entries(scope)]
    assert JOINED in texts and OTHERS[0] in texts and len(texts) == 7
    sent = json.dumps(fake_openai.requests[-1])
    assert "one self-contained sentence" in sent and '\\"fixed\\": true' in sent
