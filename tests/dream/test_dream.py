"""Dreaming on the offline engine: promotion, filters, diary, undo, locks, dry runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dream.dreamkit import MEMORY, Clock, day, note, tree, workspace
from memclaw.dream.candidates import Status, build_candidates
from memclaw.dream.run import DreamStatus, dream_agent, lock_path
from memclaw.dream.runlog import dream_undo
from memclaw.errors import WorkspaceError
from memclaw.workspace.atomic import file_lock
from memclaw.workspace.logs import append_log, read_log
from memclaw.workspace.scope import Scope

RECURRING = "Maya prefers uv over Poetry for every Python project."
ONE_OFF = "Maya cooked a red lentil dal for the week's lunches."


def _agent(root: Path, clock: Clock | None = None, **overrides: object):
    ws = workspace(root, clock, **overrides)
    agent, _ = ws.init_agent("demo")
    return agent


def test_a_fact_recurring_on_three_days_is_promoted_and_a_one_off_is_not(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    note(agent, day(5), RECURRING, ONE_OFF)
    note(agent, day(3), "Maya prefers uv over Poetry for every Python project she starts.")
    note(agent, day(1), RECURRING)

    result = dream_agent(Scope(agent))

    assert result.status is DreamStatus.UPDATED
    assert result.engine == "offline"
    memory = agent.read("MEMORY.md")
    assert "uv over Poetry" in memory
    assert "lentil" not in memory
    by_status = {c.status: c for c in result.report.candidates}
    assert by_status[Status.PROMOTE].days == [day(5), day(3), day(1)]
    assert by_status[Status.ONE_OFF].text == ONE_OFF


def test_a_line_extraction_filed_under_a_category_is_promoted_without_its_tag(
    tmp_path: Path,
) -> None:
    agent = _agent(tmp_path / "ws")
    for offset in (4, 3, 2):
        note(agent, day(offset), "[relationship] Jonas owns the backup rotation on server alpha.")
    result = dream_agent(Scope(agent))
    assert result.status is DreamStatus.UPDATED
    memory = agent.read("MEMORY.md")
    assert "- Jonas owns the backup rotation on server alpha." in memory
    assert "[relationship]" not in memory


def test_a_second_dream_does_not_add_the_same_fact_twice(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    for offset in (4, 3, 2):
        note(agent, day(offset), RECURRING)
    assert dream_agent(Scope(agent)).status is DreamStatus.UPDATED
    again = dream_agent(Scope(agent))
    assert again.status is DreamStatus.UNCHANGED
    assert agent.read("MEMORY.md").count("uv over Poetry") == 1
    assert again.report.candidates[0].status is Status.KNOWN


def test_a_corrected_statement_keeps_only_the_newest_version(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    old = "The daily team standup of lotsen starts at 09:00 on weekdays."
    new = "Correction: the daily team standup of lotsen starts at 09:30 on weekdays."
    note(agent, day(6), old)
    note(agent, day(5), old)
    note(agent, day(3), new)
    note(agent, day(2), "The daily team standup of lotsen starts at 09:30 on weekdays.")

    result = dream_agent(Scope(agent))

    memory = agent.read("MEMORY.md")
    assert "09:30" in memory
    assert "09:00" not in memory
    assert "Correction" not in memory
    corrected = [c for c in result.report.candidates if c.status is Status.CORRECTED]
    assert [c.text for c in corrected] == [old]
    assert "corrected later by memory/" in corrected[0].reasons[-1]


def test_explicit_correction_words_drop_the_older_statement(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    note(agent, day(6), "Kenji sends the delta trigger script to Maya by email.")
    note(agent, day(5), "Kenji sends the delta trigger script to Maya by email.")
    note(
        agent, day(2), "Kenji no longer sends the delta trigger by email; he opens a pull request."
    )
    report = build_candidates(Scope(agent))
    statuses = {c.text: c.status for c in report.candidates}
    assert statuses["Kenji sends the delta trigger script to Maya by email."] is Status.CORRECTED


def test_secrets_are_never_candidates(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    secret = "The staging deploy token is ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    for offset in (3, 2, 1):
        path = agent.path / "memory" / f"{day(offset).isoformat()}.md"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"# {day(offset)}\n\n- {secret}\n- {RECURRING}\n", encoding="utf-8")
    result = dream_agent(Scope(agent))
    statuses = [c.status for c in result.report.candidates]
    assert Status.SECRET in statuses
    assert "ghp_" not in agent.read("MEMORY.md")
    assert "ghp_" not in agent.read("DREAMS.md")
    assert "ghp_" not in json.dumps(result.to_dict())


def test_recalled_lines_are_promoted_even_from_a_single_day(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    fact = "The lotsen cutover runbook lives in the ops wiki under Migrations."
    note(agent, day(2), fact)
    for query in ("where is the runbook", "cutover runbook", "runbook"):
        hit = {"file": f"memory/{day(2).isoformat()}.md", "line": 4, "score": 1.0}
        append_log(agent, "recall", {"query": query, "owner": None, "hits": [hit]})
    report = build_candidates(Scope(agent))
    (cand,) = report.candidates
    assert (cand.recalls, cand.queries) == (3, 3)
    assert cand.status is Status.PROMOTE


def test_focus_keeps_only_candidates_about_the_topic(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    other = "Maya runs the Slottsskogen parkrun every Saturday morning."
    for offset in (4, 3, 2):
        note(agent, day(offset), RECURRING, other)
    result = dream_agent(Scope(agent), focus="parkrun")
    memory = agent.read("MEMORY.md")
    assert "parkrun" in memory
    assert "Poetry" not in memory
    assert {c.status for c in result.report.candidates} == {Status.PROMOTE, Status.OFF_FOCUS}


def test_offline_merge_uses_a_matching_section_and_never_a_hand_edited_one(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    agent.write("MEMORY.md", MEMORY)
    people = "Kenji Morita the GIS contractor works from Osaka, eight hours ahead."
    rules = "Keep answers short and put commands first, with ISO dates."
    for offset in (4, 3, 2):
        note(agent, day(offset), people, rules)
    dream_agent(Scope(agent))
    memory = agent.read("MEMORY.md")
    kept = MEMORY[MEMORY.index("## Rules (hand-edited)") :]
    assert memory.endswith(kept) or kept in memory
    people_section = memory[memory.index("## People") : memory.index("## Rules")]
    assert "eight hours ahead" in people_section


def test_dry_run_writes_nothing_at_all(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    agent.write("MEMORY.md", MEMORY)
    for offset in (4, 3, 2):
        note(agent, day(offset), RECURRING)
    before = tree(tmp_path / "ws")

    result = dream_agent(Scope(agent), dry_run=True)

    assert tree(tmp_path / "ws") == before
    assert result.dry_run and result.status is DreamStatus.UPDATED
    assert result.diff.startswith("--- a/MEMORY.md\n+++ b/MEMORY.md\n")
    assert "+- " + RECURRING in result.diff


def test_undo_restores_memory_exactly_and_only_once(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    agent.write("MEMORY.md", MEMORY)
    for offset in (4, 3, 2):
        note(agent, day(offset), RECURRING)
    assert dream_agent(Scope(agent)).status is DreamStatus.UPDATED
    assert agent.read("MEMORY.md") != MEMORY

    undone = dream_undo(Scope(agent))

    assert agent.read("MEMORY.md") == MEMORY
    assert undone["edited_since"] is False
    with pytest.raises(WorkspaceError, match="already undone"):
        dream_undo(Scope(agent))


def test_undo_uses_the_dreams_own_backup_not_a_later_one(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    agent.write("MEMORY.md", MEMORY)
    for offset in (4, 3, 2):
        note(agent, day(offset), RECURRING)
    dream_agent(Scope(agent))
    dreamed = agent.read("MEMORY.md")
    agent.write("MEMORY.md", dreamed + "- Added by hand after the dream.\n")

    undone = dream_undo(Scope(agent))

    assert agent.read("MEMORY.md") == MEMORY
    assert undone["edited_since"] is True


def test_undo_without_a_dream_says_so(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    with pytest.raises(WorkspaceError, match="nothing to undo"):
        dream_undo(Scope(agent))


def test_each_run_writes_a_diary_entry_and_a_log_record(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    for offset in (4, 3, 2):
        note(agent, day(offset), RECURRING, ONE_OFF if offset == 3 else "Nothing else today.")
    dream_agent(Scope(agent), trigger="cron")
    diary = agent.read("DREAMS.md")
    assert "## 2026-11-28 03:00" in diary
    assert f"memory/{day(4)}.md to memory/{day(2)}.md (3 notes)" in diary
    assert RECURRING in diary and "on 3 days" in diary
    assert "**Changed in MEMORY.md:** +2 −0 lines." in diary
    assert "said only once" in diary
    (record,) = list(read_log(agent, "dream"))
    assert record["status"] == "updated" and record["trigger"] == "cron"
    assert record["backup"].startswith(".memclaw/history/MEMORY.md/")


def test_the_diary_rolls_old_entries_into_a_monthly_archive(tmp_path: Path) -> None:
    clock = Clock()
    agent = _agent(tmp_path / "ws", clock, dreams_max_chars=2500)
    for run in range(12):
        note(agent, clock.now.date(), f"Fact number {run} about the lotsen project is noted.")
        note(agent, clock.now.date(), RECURRING)
        dream_agent(Scope(agent))
        clock.advance(days=3)
    diary = agent.read("DREAMS.md")
    assert len(diary) <= 2500
    assert "## Archived" in diary
    archives = sorted(p.name for p in (agent.path / "dreams").glob("*.md"))
    assert archives and all(name[:4] in ("2026", "2027") for name in archives)
    archived_text = "".join((agent.path / "dreams" / n).read_text() for n in archives)
    assert "## 2026-11-28 03:00" in archived_text  # the first entry moved out whole
    assert "- 2026-11-28 03:00:" in diary or "- 2026-11: " in diary
    assert diary.rstrip().endswith(diary[diary.rindex("## ") :].rstrip())  # newest entry last


def test_a_running_dream_makes_a_second_one_skip(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    for offset in (4, 3, 2):
        note(agent, day(offset), RECURRING)
    before = agent.read("MEMORY.md")
    with file_lock(lock_path(Scope(agent)), wait=0):
        result = dream_agent(Scope(agent))
    assert result.status is DreamStatus.SKIPPED
    assert agent.read("MEMORY.md") == before
    assert [r["status"] for r in read_log(agent, "dream")] == ["skipped"]
    # An owner's dream has its own lock: it is not blocked by the team's.
    with file_lock(lock_path(Scope(agent)), wait=0):
        assert dream_agent(Scope.resolve(agent, "user:maya")).status is DreamStatus.IDLE


def test_owner_dreams_use_the_owners_notes_and_memory(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws")
    for offset in (4, 3, 2):
        note(agent, day(offset), RECURRING, owner="user:maya")
    assert dream_agent(Scope(agent)).status is DreamStatus.IDLE
    result = dream_agent(Scope.resolve(agent, "maya"))
    assert result.owner == "user:maya"
    assert "uv over Poetry" in Scope.resolve(agent, "user:maya").read("MEMORY.md")
    assert "uv over Poetry" not in agent.read("MEMORY.md")
    assert "uv over Poetry" in Scope.resolve(agent, "user:maya").read("DREAMS.md")


def test_dreaming_can_be_switched_off(tmp_path: Path) -> None:
    agent = _agent(tmp_path / "ws", dream_enabled=False)
    note(agent, day(1), RECURRING)
    assert dream_agent(Scope(agent)).status is DreamStatus.DISABLED


def test_real_searches_feed_the_recall_score(tmp_path: Path) -> None:
    from memclaw.index.search import search

    agent = _agent(tmp_path / "ws")
    fact = "The lotsen cutover runbook lives in the ops wiki under Migrations."
    note(agent, day(2), fact, "Maya had a quiet afternoon without meetings at all.")
    ws = agent.workspace
    assert search(ws, "cutover runbook", agents=["demo"])
    assert search(ws, "where is the ops wiki runbook", agents=["demo"])
    report = build_candidates(Scope(agent))
    by_text = {c.text: c for c in report.candidates}
    assert by_text[fact].queries == 2
    assert by_text[fact].status is Status.PROMOTE
    assert by_text["Maya had a quiet afternoon without meetings at all."].status is Status.ONE_OFF


def test_a_dream_near_the_ceiling_keeps_every_hand_written_line(tmp_path: Path) -> None:
    # The outside attack: a dream that pushed MEMORY.md over its ceiling cut the file at
    # a section boundary, dropping 13 hand-written lines and the promoted fact itself.
    agent = _agent(tmp_path / "ws")
    log = [
        f"- build {i:02d} of the lotsen tiles took {i} minutes on the ci runner" for i in range(60)
    ]
    notes = [f"- reminder {i:02d}: water the balcony tomatoes before the trip" for i in range(13)]
    text = MEMORY + "\n## Build log\n\n" + "\n".join(log) + "\n\n## Notes\n\n" + "\n".join(notes)
    text += " " + "x" * (7979 - len(text)) + "\n"
    assert len(text) == 7981
    agent.write("MEMORY.md", text)
    for offset in (4, 3, 2):
        note(agent, day(offset), RECURRING)

    result = dream_agent(Scope(agent))

    memory = agent.read("MEMORY.md")
    overflow_path = agent.path / "MEMORY.overflow.md"
    overflow = overflow_path.read_text(encoding="utf-8") if overflow_path.exists() else ""
    for line in text.splitlines():
        assert line in memory.splitlines()
    assert len(memory) <= 8000
    assert RECURRING in overflow and result.ceiling and "MEMORY.overflow.md" in result.ceiling
    assert "1 moved to the overflow file" in agent.read("DREAMS.md")


def test_a_fact_with_no_room_is_not_piled_up_in_the_overflow_night_after_night(
    tmp_path: Path,
) -> None:
    clock = Clock()
    agent = _agent(tmp_path / "ws", clock)
    text = (
        MEMORY + "\n## Notes\n\n" + "".join(f"- note {i:03d} " + "n" * 80 + "\n" for i in range(81))
    )
    text += "- " + "p" * (7979 - len(text) - 2) + "\n"
    assert len(text) == 7980
    agent.write("MEMORY.md", text)
    for offset in (4, 3, 2):
        note(agent, day(offset), RECURRING)
    for _ in range(3):
        dream_agent(Scope(agent))
        clock.advance(hours=1)
    overflow = (agent.path / "MEMORY.overflow.md").read_text(encoding="utf-8")
    assert overflow.count(RECURRING) == 1
    assert all(line in agent.read("MEMORY.md") for line in text.splitlines())


def test_a_change_already_put_to_the_person_is_theirs_and_keeping_it_keeps_the_rest(
    tmp_path: Path,
) -> None:
    """Extraction held "moved to Porto" against the person's own line; the next night's
    dream leaves that to the person, and keeping the new value keeps the cat."""
    from memclaw.entries.memories import remember
    from memclaw.extract.pipeline import extract_conversation
    from memclaw.facts import inbox
    from memclaw.facts.ledger import facts_of
    from memclaw.facts.resolve import resolve

    clock = Clock()
    scope = Scope(_agent(tmp_path / "ws", clock))
    remember(scope, "Maya lives in Lisbon with her cat Miso")
    chat = [
        {"role": "user", "content": "Hi, I am Maya and I live in Lisbon."},
        {"role": "assistant", "content": "Hello Maya."},
        {"role": "user", "content": "Actually I moved to Porto last month."},
        {"role": "assistant", "content": "Noted."},
    ]
    extract_conversation(scope, chat, force=True)
    (held,) = inbox.load(scope.agent)
    clock.advance(days=1)
    dream_agent(Scope(scope.agent))
    assert [i.status for i in inbox.load(scope.agent)] == ["open"]
    assert "Maya lives in Lisbon with her cat Miso" in scope.agent.read("entries/identity.md")
    resolve(scope, held.id, "new")
    in_force = [f.statement for f in facts_of(scope, durable_only=True) if not f.superseded]
    assert any("Porto" in f and "Miso" in f for f in in_force), in_force
    assert not any("Lisbon" in f for f in in_force), in_force
