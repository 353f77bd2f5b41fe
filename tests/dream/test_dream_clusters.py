"""Offline dreaming finds facts restated in other words, and keeps different facts apart."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pristine

from dream.dreamkit import Clock, day, note, tree, workspace
from memclaw.dream.candidates import Candidate, Status, build_candidates
from memclaw.dream.run import DreamStatus, dream_agent
from memclaw.dream.salience import Salience
from memclaw.text.likeness import Fingerprint, near_duplicate, words
from memclaw.workspace.scope import Scope

MOVE = [
    "Priya Nair moved the atlas billing service from Heroku to Fly.io.",
    "The atlas billing service runs on Fly.io in 3 regions; Priya Nair did the move off Heroku.",
    "Billing for atlas is hosted on Fly.io since Priya Nair's migration from Heroku on 2026-11-20.",
]
DASHBOARDS = [
    "Atlas billing dashboards are owned by Tomasz Wójcik from the data team.",
    "Tomasz Wójcik from the data team owns the atlas billing dashboards.",
]
LUNCH = "Priya Nair had lunch with the atlas team at the canteen."
FILLERS = [
    "The office coffee machine was broken all morning.",
    "Booked train tickets to Lund for the conference.",
    "Rain all day; cycled anyway.",
    "Finished the second season of the crime series.",
]


def _agent(root: Path, clock: Clock | None = None):
    agent, _ = workspace(root, clock).init_agent("demo")
    return agent


def _by_text(candidates: list[Candidate]) -> dict[str, Candidate]:
    return {c.text: c for c in candidates}


def test_paraphrased_restatements_over_three_days_are_clustered_and_promoted(
    tmp_path: Path,
) -> None:
    agent = _agent(tmp_path / "ws")
    note(agent, day(6), MOVE[0], FILLERS[0])
    note(agent, day(4), MOVE[1], FILLERS[1])
    note(agent, day(2), MOVE[2], FILLERS[2])
    # Each restatement adds a detail: word overlap with agreeing values would not join them.
    assert not near_duplicate(Fingerprint.of(MOVE[1]), Fingerprint.of(MOVE[2]))

    result = dream_agent(Scope(agent))

    (promoted,) = result.report.promoted
    assert promoted.days == [day(6), day(4), day(2)]
    assert promoted.text == MOVE[2]  # the newest, as detailed as the others
    memory = agent.read("MEMORY.md")
    assert MOVE[2] in memory
    assert not any(old in memory for old in MOVE[:2])
    assert not any(filler in memory for filler in FILLERS)


def test_two_facts_about_the_same_project_stay_apart(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    note(agent, day(6), MOVE[0])
    note(agent, day(5), DASHBOARDS[0])
    note(agent, day(4), MOVE[1])
    note(agent, day(3), DASHBOARDS[1])
    note(agent, day(2), MOVE[2])

    result = dream_agent(Scope(agent))

    promoted = _by_text(result.report.promoted)
    assert set(promoted) == {MOVE[2], DASHBOARDS[1]}
    assert promoted[MOVE[2]].days == [day(6), day(4), day(2)]
    assert promoted[DASHBOARDS[1]].days == [day(5), day(3)]
    memory = agent.read("MEMORY.md")
    assert MOVE[2] in memory and DASHBOARDS[1] in memory


def test_a_one_off_about_the_same_people_is_not_promoted(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    note(agent, day(6), MOVE[0])
    note(agent, day(5), LUNCH)
    note(agent, day(4), MOVE[1])
    note(agent, day(2), MOVE[2])

    result = dream_agent(Scope(agent))

    by_text = _by_text(result.report.candidates)
    assert by_text[LUNCH].status is Status.ONE_OFF
    assert by_text[LUNCH].days == [day(5)]  # not swallowed by the move it shares names with
    assert by_text[MOVE[2]].days == [day(6), day(4), day(2)]
    assert "lunch" not in agent.read("MEMORY.md")


def test_a_corrected_statement_keeps_only_the_newest_value(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    old = "The atlas launch review with Priya Nair is on 2026-12-03 at 10:00."
    note(agent, day(6), old)
    note(agent, day(5), "Atlas launch review: 2026-12-03, 10:00, Priya Nair chairs it.")
    note(agent, day(3), "Correction: the atlas launch review moved to 2026-12-10, same time.")
    newest = "Atlas launch review with Priya Nair: 2026-12-10 at 10:00."
    note(agent, day(1), newest)

    result = dream_agent(Scope(agent))

    statuses = {c.status for c in result.report.candidates}
    assert Status.CORRECTED in statuses
    (corrected,) = [c for c in result.report.candidates if c.status is Status.CORRECTED]
    assert corrected.days == [day(6), day(5)]
    (promoted,) = result.report.promoted
    assert promoted.text == newest
    memory = agent.read("MEMORY.md")
    assert "2026-12-10" in memory
    assert "2026-12-03" not in memory


def test_a_fact_the_profile_already_states_is_known(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    agent.write("PROFILE.md", "# Profile\n\n- Priya Nair leads the atlas billing team in Lund.\n")
    note(agent, day(5), "Priya Nair, who leads atlas billing, works from Lund.")
    note(agent, day(3), "Priya Nair leads the atlas billing team from the Lund office.")
    note(agent, day(1), "The atlas billing team lead is Priya Nair, based in Lund.")

    result = dream_agent(Scope(agent))

    (cand,) = result.report.candidates
    assert cand.status is Status.KNOWN
    assert cand.reasons[-1].startswith("already in PROFILE.md: Priya Nair leads")
    assert result.status is DreamStatus.UNCHANGED


def test_words_fold_stems_units_and_thousands() -> None:
    assert words("Migrating 18,940 stops, 41.3 M rows in 3 min 40 s")[:1] == words("migration")
    assert {"18940", "41.3m", "3min", "40s"} <= set(words("18,940 stops, 41.3 M rows, 3 min 40 s"))
    assert words("Göteborg") == words("Goteborg")
    assert words("stops.geog") == ["stop", "geog"]
    assert "2026-12-12" in words("cutover on 2026-12-12")


def test_names_weigh_more_and_shared_names_alone_are_not_the_same_fact() -> None:
    texts = [
        "On Monday Kenji Morita sent the backfill script for the migration.",
        "The plan for the migration is ready.",
        "Kenji Morita took the afternoon off.",
        "Lunch was late because the plan changed.",
    ]
    statements = [(t, Fingerprint.of(t).tokens, day(i)) for i, t in enumerate(texts)]
    salience = Salience.of(statements)
    assert salience.weight("kenji") > salience.weight("plan")
    fps = [Fingerprint.of(t).tokens for t in texts]
    assert salience.similarity(fps[0], fps[2]) == 0.0  # only "Kenji Morita" in common


def test_the_bundled_demo_promotes_few_recurring_facts_and_knows_its_threads(
    tmp_path: Path,
) -> None:
    demo = pristine.demo()
    root = tmp_path / "ws"
    shutil.copytree(demo, root / "demo", ignore=shutil.ignore_patterns(".memclaw"))
    clock = Clock(datetime(2026, 11, 29, 3, 0, tzinfo=UTC))
    agent = workspace(root, clock).agent("demo")
    before = tree(root)

    for days in (7, 14):
        report = build_candidates(Scope(agent), days=days)
        recurring = [c for c in report.candidates if len(c.days) >= 2]
        assert 1 <= len(report.promoted) <= 3
        assert all(len(c.days) >= 2 for c in report.promoted)
        assert sum(c.status is Status.KNOWN for c in recurring) >= 4
        assert all(
            c.status is not Status.PROMOTE for c in report.candidates if "one-off" in c.text.lower()
        )
    assert tree(root) == before


def test_a_restatement_in_correcting_words_is_not_a_correction(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    fact = "lotsen uses uv instead of Poetry for dependency locking."
    note(agent, day(5), fact)
    note(agent, day(3), "For dependency locking lotsen uses uv instead of Poetry.")
    note(agent, day(1), "Reminder: lotsen uses uv instead of Poetry for dependency locking.")

    report = build_candidates(Scope(agent))

    (cand,) = report.candidates
    assert cand.status is Status.PROMOTE
    assert cand.days == [day(5), day(3), day(1)]
