"""SOUL.md's Learned section, the monthly archive of dream reports, and what export carries."""

import io
import json
import zipfile
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from memclaw.changes.records import all_changes
from memclaw.changes.timeline import timeline
from memclaw.changes.undo import undo_last
from memclaw.dream import report
from memclaw.dream.run import dream_agent
from memclaw.entries.memories import remember
from memclaw.morning import actions, soul
from memclaw.morning.card import due, latest, mark_seen, review
from memclaw.snapshot import export_snapshot, import_snapshot, read_snapshot
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope

NOW = datetime.fromisoformat("2026-11-29T10:30:00+01:00")


def open_ws(root: Path, when: datetime = NOW, **settings: object) -> Workspace:
    return Workspace.open(root, overrides={**settings}, clock=lambda: when)


@pytest.fixture
def scope(isolated_env: Path) -> Scope:
    ws = open_ws(isolated_env, soul_update_interval=2)
    agent, _ = ws.init_agent("pal")
    agent.write("SOUL.md", "# Soul\n\nFriendly and direct.\n")
    return Scope(agent)


def test_soul_learns_after_enough_confirmations_and_keeps_the_rest(scope: Scope) -> None:
    remember(scope, "Maya prefers short answers in bullet points", category="preference")
    remember(scope, "Never schedule meetings on Fridays for Maya", category="rule")
    actions.confirm(scope, "Maya prefers short answers in bullet points")
    assert soul.evolve(scope).status == "waiting"  # 1 of 2
    assert "Learned" not in scope.read("SOUL.md")
    actions.confirm(scope, "Never schedule meetings on Fridays for Maya")
    done = soul.evolve(scope)
    text = scope.read("SOUL.md")
    assert done.status == "updated" and "## Learned" in text
    assert "- Maya prefers short answers in bullet points" in text
    assert text.startswith("# Soul\n\nFriendly and direct.\n")  # the person's part untouched
    assert "+- Never schedule meetings on Fridays for Maya" in soul.pending_diff(scope)
    # The previous SOUL.md is kept: the change is undoable like any other.
    assert all_changes(scope)[-1].kind == "soul"
    undo_last(scope)
    assert scope.read("SOUL.md") == "# Soul\n\nFriendly and direct.\n"


def test_soul_leaves_a_hand_edited_learned_section_alone(scope: Scope) -> None:
    remember(scope, "Maya prefers short answers in bullet points", category="preference")
    soul.evolve(scope, force=True)
    edited = scope.read("SOUL.md").replace("short answers", "very short answers")
    (scope.agent.path / "SOUL.md").write_text(edited)
    remember(scope, "Never schedule meetings on Fridays for Maya", category="rule")
    assert soul.evolve(scope, force=True).status == "hand-edited"
    assert scope.read("SOUL.md") == edited


def test_soul_update_interval_zero_never_revises(isolated_env: Path) -> None:
    ws = open_ws(isolated_env, soul_update_interval=0)
    agent, _ = ws.init_agent("pal")
    scope = Scope(agent)
    remember(scope, "Maya prefers tea", category="preference")
    for _ in range(3):
        actions.confirm(scope, "Maya prefers tea")
    assert soul.evolve(scope).status == "waiting"


def _dream_on(root: Path, when: datetime) -> Scope:
    scope = Scope(open_ws(root, when).agent("pal"))
    for back in (1, 2):
        scope.append_daily(
            f"- The release train leaves every {when:%A}.",
            day=when.date() - timedelta(days=back),
        )
    assert str(dream_agent(scope, model=None).status) in ("updated", "unchanged")
    return scope


def test_old_reports_roll_into_a_monthly_archive_the_timeline_reads(scope: Scope) -> None:
    root = scope.agent.workspace.root
    old = _dream_on(root, NOW - timedelta(days=45))
    (first,) = report.recent(old)
    _dream_on(root, NOW)  # the new dream rolls the 45-day-old report away
    now_scope = Scope(open_ws(root).agent("pal"))
    recent = report.recent(now_scope)
    assert [d["run"] for _p, d in recent] != [first[1]["run"]] and len(recent) == 1
    archived = report.archived(now_scope)
    assert [d["run"] for d in archived] == [first[1]["run"]]
    assert archived[0]["archived"] == "archive-2026-10.jsonl"
    events = [e for e in timeline(now_scope) if e.kind == "dream report"]
    assert len(events) == 2 and "archive-2026-10.jsonl" in events[-1].text
    data = export_snapshot(now_scope.agent).data
    exported = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "dreams/archive-2026-10.jsonl" in exported
    assert f"dreams/{recent[0][0].name}" in exported
    # ... and an import brings the archive back, where the timeline reads it.
    import_snapshot(now_scope.agent.workspace, "copy", read_snapshot(data))
    copy = Scope(open_ws(root).agent("copy"))
    assert [d["run"] for d in report.archived(copy)] == [first[1]["run"]]


def test_the_card_is_due_once_a_day_and_can_be_turned_off(scope: Scope) -> None:
    _dream_on(scope.agent.workspace.root, NOW)
    card = due(scope)
    assert card is not None and card.items("promoted")
    mark_seen(scope)
    assert due(scope) is None  # seen today
    tomorrow = Scope(open_ws(scope.agent.workspace.root, NOW + timedelta(days=1)).agent("pal"))
    assert due(tomorrow) is not None
    off = Scope(
        open_ws(scope.agent.workspace.root, NOW + timedelta(days=1), morning_card=False).agent(
            "pal"
        )
    )
    assert due(off) is None


def test_edit_from_the_card_rewords_the_line_and_refuses_strangers(scope: Scope) -> None:
    _dream_on(scope.agent.workspace.root, NOW)
    card = latest(scope)
    assert card is not None
    (item,) = card.items("promoted")
    with pytest.raises(Exception, match="not a fact on this card"):
        review(scope, card, confirm=["f00000000"])
    done = review(scope, card, edit={item["fact"]: "The release train leaves on Mondays."})
    assert done.outcomes[0].action == "edited"
    text = scope.read("MEMORY.md")
    assert "- The release train leaves on Mondays." in text and item["text"] not in text
    saved = json.loads(card.path.read_text())
    assert saved["reviewed"]["decisions"] == {done.outcomes[0].fact: "edited"}
    assert date.fromisoformat(saved["reviewed"]["time"][:10]) == NOW.date()
