"""Dreams and the fact layer: corrections win, contradictions wait, low trust is not carried."""

from __future__ import annotations

import json
from pathlib import Path

from fake_openai import FakeOpenAI

from dream.dreamkit import Clock, day, model_workspace, note, workspace
from memclaw.dream.candidates import Status
from memclaw.dream.run import DreamStatus, dream_agent
from memclaw.entries.memories import remember
from memclaw.facts import inbox
from memclaw.facts.feedback import give
from memclaw.facts.ids import fact_id
from memclaw.facts.ledger import facts_of
from memclaw.facts.store import load_events
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

MODEL_LINES = (
    "- Standups happen at 09:30\n- Deploys go out on Thursdays\n"
    "- The wiki lives in Notion\n- Sprint reviews are on Fridays\n"
)
OLD = "The Atlas cutover is scheduled for 2026-12-12"
FIX = "Correction: the cutover moved to 2026-12-19"


def _statuses(result: object) -> dict[str, str]:
    report = result.report  # type: ignore[attr-defined]
    return {c.text: str(c.status) for c in report.candidates}


def test_a_correction_stops_the_old_date_even_when_it_is_repeated_later(tmp_path: Path) -> None:
    agent, _ = workspace(tmp_path).init_agent("demo")
    for offset in (5, 4, 3):
        note(agent, day(offset), OLD)
    note(agent, day(2), FIX)
    note(agent, day(1), "Atlas cutover scheduled for 2026-12-12, reminded the team")
    result = dream_agent(Scope(agent))
    assert "2026-12-12" not in agent.read("MEMORY.md")
    corrected = [t for t, s in _statuses(result).items() if s == str(Status.CORRECTED)]
    assert corrected and all("2026-12-12" in t for t in corrected)


def test_a_correction_in_a_note_replaces_the_promoted_date_in_memory(tmp_path: Path) -> None:
    agent, _ = workspace(tmp_path).init_agent("demo")
    agent.write("MEMORY.md", f"# Memory\n\n## Projects\n- {OLD}\n", author=Author.MODEL)
    note(agent, day(1), FIX)
    result = dream_agent(Scope(agent))
    memory = agent.read("MEMORY.md")
    assert "2026-12-12" not in memory and "- The cutover moved to 2026-12-19\n" in memory
    assert result.facts.corrected == ["The cutover moved to 2026-12-19"]
    assert all(f.statement != OLD for f in facts_of(Scope(agent)))  # in no file any more
    assert load_events(agent)[fact_id(OLD)][-1].kind == "superseded"
    again = dream_agent(Scope(agent))  # nothing left to correct: the next run changes nothing
    assert again.facts.corrected == [] and agent.read("MEMORY.md") == memory


def test_a_candidate_that_contradicts_a_remembered_fact_waits_in_the_inbox(tmp_path: Path) -> None:
    agent, _ = workspace(tmp_path).init_agent("demo")
    remember(Scope(agent), "Maya lives in Oslo")
    for offset in (4, 3, 2):
        note(agent, day(offset), "Maya lives in Bergen")
    result = dream_agent(Scope(agent))
    assert "Bergen" not in agent.read("MEMORY.md")
    assert _statuses(result)["Maya lives in Bergen"] == str(Status.CONTRADICTS)
    (item,) = inbox.open_items(agent)
    assert item.new == "Maya lives in Bergen" and item.source.startswith("dream ")
    assert result.facts.held == [item.id]
    preview = dream_agent(Scope(agent), dry_run=True)  # says what it would hold, files nothing
    assert preview.facts.held == [item.id] and len(inbox.load(agent)) == 1


def test_low_trust_model_lines_are_dropped_and_a_persons_are_flagged(tmp_path: Path) -> None:
    clock = Clock()
    agent, _ = workspace(tmp_path, clock).init_agent("demo")
    agent.write("MEMORY.md", "# Memory\n\n## Notes\n- Kenji likes the blue theme\n")
    agent.update(
        "MEMORY.md",
        lambda t: t + MODEL_LINES,
        introduced=MODEL_LINES,
        author=Author.MODEL,
    )
    give(Scope(agent), "Standups happen at 09:30", good=False)
    give(Scope(agent), "Kenji likes the blue theme", good=False)
    note(agent, day(1), "Lunch was good")
    result = dream_agent(Scope(agent))
    memory = agent.read("MEMORY.md")
    assert result.status is DreamStatus.UPDATED
    assert "09:30" not in memory and "Thursdays" in memory and "blue theme" in memory
    assert result.facts.dropped == ["Standups happen at 09:30"]
    assert result.facts.flagged == ["Kenji likes the blue theme"]
    diary = agent.read("DREAMS.md")
    assert "below the trust floor" in diary


def test_a_line_with_no_evidence_yet_is_not_judged_by_the_files_date(tmp_path: Path) -> None:
    """An extraction writes its line, then its evidence: a dream in between must not read
    the line's trust from the file's date alone (under a clock far from the file's, as a
    moved clock or an old file gives, that guess is "decayed") and drop a fresh fact."""
    clock = Clock()
    agent, _ = workspace(tmp_path, clock).init_agent("demo")
    agent.update(
        "MEMORY.md", lambda t: t + MODEL_LINES, introduced=MODEL_LINES, author=Author.MODEL
    )
    clock.advance(days=400)
    note(agent, day(-399), "Lunch was good")  # the day before the moved clock's today
    result = dream_agent(Scope(agent))
    assert result.status is not DreamStatus.SKIPPED and result.facts.dropped == []
    assert "Thursdays" in agent.read("MEMORY.md")


def test_a_model_cannot_bring_back_what_a_correction_replaced(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    ws = model_workspace(tmp_path, fake_openai.base_url)
    agent, _ = ws.init_agent("demo")
    for offset in (5, 4, 3):
        note(agent, day(offset), OLD)
    note(agent, day(2), FIX)
    content = "# Memory\n\n## Projects\n- Atlas cutover: 2026-12-12\n- Maya leads Atlas\n"
    fake_openai.queue_json(
        {"should_update": True, "reason": "the cutover recurs", "memory_content": content}
    )
    result = dream_agent(Scope(agent))
    memory = agent.read("MEMORY.md")
    assert "2026-12-12" not in memory and "Maya leads Atlas" in memory
    assert result.facts.overruled == ["Atlas cutover: 2026-12-12"]
    assert json.loads(json.dumps(result.to_dict()))["facts"]["overruled"] == result.facts.overruled
