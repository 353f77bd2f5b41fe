"""A scripted week of one person's use, with the invariants a person relies on checked at each step.

Chat (the model at the wire tries to reword a line the person wrote), extraction at
the end of the chat, notes over several days, a dream, the morning card's choices,
the inbox, forget and undo, then export and import into a fresh root. After every
step: no line the person wrote was lost or reworded (unless the person removed it),
and no line is in MEMORY.md twice. At the end the original and the clone answer
`facts --json`, `why` and `search` alike for every fact.
"""

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from chat.chatkit import EXTRACTION, OpenChat
from fake_openai import FakeOpenAI
from typer.testing import CliRunner

from changes.weekkit import known_stores
from memclaw.cli.app import app
from memclaw.entries.memories import Action, remember
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope

PERSON = "- Maya Lindqvist (she/her) lives in Majorna, Gothenburg, Sweden."
STALE = "- The billing freeze starts 2026-12-18."
CORRECTION = "- Correction: the billing freeze starts 2026-12-21, not 2026-12-18."


def run(*args: str, root: Path | None = None) -> tuple[int, str, str]:
    prefix = ["--root", str(root)] if root is not None else []
    result = CliRunner().invoke(app, [*prefix, *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


class Week:
    """The agent's folder and the lines its person wrote, checked after each step."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.folder = root / "pal"
        self.person: set[tuple[str, str]] = set()  # (file, line)

    def write_by_hand(self, rel: str, line: str) -> None:
        path = self.folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        text = path.read_text() if path.exists() else ""
        path.write_text(text + ("" if not text or text.endswith("\n") else "\n") + line + "\n")
        self.person.add((rel, line))

    def check(self, step: str) -> None:
        for rel, line in sorted(self.person):
            text = (self.folder / rel).read_text()
            assert line in text.splitlines(), f"after {step}: {rel} lost the person's {line!r}"
        memory = [
            line for line in (self.folder / "MEMORY.md").read_text().splitlines() if line.strip()
        ]
        bullets = [line for line in memory if line.startswith("- ")]
        assert len(bullets) == len(set(bullets)), f"after {step}: a line twice in MEMORY.md"


@pytest.fixture
def model(fake_openai: FakeOpenAI) -> FakeOpenAI:
    fake_openai.default_reply = lambda request: (
        json.dumps(EXTRACTION) if "response_format" in request else "Noted."
    )
    return fake_openai


def answers(root: Path) -> dict[str, Any]:
    """What a person asks of the agent's memory: its facts, why each is held, and search."""
    code, stdout, stderr = run("facts", "list", "pal", "--json", root=root)
    assert code == 0, stderr
    facts = json.loads(stdout)["facts"]
    found: dict[str, Any] = {"facts": facts, "why": {}, "search": {}}
    for fact in facts:
        code, stdout, stderr = run("why", "pal", fact["id"], "--json", root=root)
        assert code == 0, f"why {fact['id']}: {stderr}"
        chain = json.loads(stdout)
        found["why"][fact["id"]] = (chain["fact"], chain["places"], chain["trust"])
        words = " ".join(fact["statement"].split()[:4])
        code, stdout, _ = run("search", words, "--agent", "pal", "--json", root=root)
        hits = [json.loads(line) for line in stdout.splitlines() if line.strip()]
        found["search"][words] = sorted((h["file"], h["line"]) for h in hits)
    return found


def test_a_week_of_use_loses_no_line_and_the_clone_answers_alike(
    open_chat: OpenChat, model: FakeOpenAI, isolated_env: Path, tmp_path: Path
) -> None:
    week = Week(isolated_env)

    # --- Monday: a chat in which the model tries to reword the person's line ---------------
    conversation = open_chat({"extract_cooldown_minutes": 0})
    # The week is 2026-12-03's, whatever day the suite runs on: the notes below are dated.
    meta = week.folder / ".memclaw" / "agent.yaml"
    meta.write_text("today: 2026-12-03\n" + meta.read_text(encoding="utf-8"), encoding="utf-8")
    week.write_by_hand("PROFILE.md", PERSON)
    week.write_by_hand("MEMORY.md", "- Standups are at 09:30 on weekdays.")
    model.queue_tool_call(
        "memory_files_edit",
        {"filename": "PROFILE.md", "old_text": PERSON, "new_text": "- Maya moved to Gothenburg"},
    )
    conversation.turn("Remember that I moved to Gothenburg")
    week.check("a chat tool's edit")
    conversation.turn("I switched my editor to Helix last week.")
    conversation.close(wait=10)
    week.check("the chat's extraction")

    # --- Tuesday and Wednesday: notes with a correction, then a dream and the morning card --
    week.write_by_hand("memory/2026-12-02.md", STALE)
    week.write_by_hand("memory/2026-12-03.md", CORRECTION)
    code, _, stderr = run("dream", "pal")
    assert code == 0, stderr
    week.check("the dream")
    code, stdout, _ = run("morning", "pal", "--json")
    card = json.loads(stdout) if code == 0 and stdout.strip() else {}
    offered = {item["text"]: item["fact"] for item in card.get("contradictions", [])}
    assert not any("Correction" in text for text in offered), "a correction offered for forgetting"
    stale = next(fid for text, fid in offered.items() if "2026-12-18" in text)
    code, _, stderr = run("morning", "pal", "--forget", stale)
    assert code == 0, stderr
    week.person.discard(("memory/2026-12-02.md", STALE))  # the person chose to forget it
    week.check("the morning card's forget")
    code, _, stderr = run("remember", "pal", "The billing freeze starts 2026-12-21")
    assert code == 0, f"the corrected value was blocked: {stderr}"

    # --- Thursday: a model's newer value of the person's line waits in the inbox, and the
    # person keeps the old fact -------------------------------------------------------------
    told = remember(
        Scope(Workspace.open(isolated_env).agent("pal")),
        "Standups are at 10:00 on weekdays",
        source="tool",
        by_person=False,
    )
    assert told.action is Action.HELD, told.reason
    code, stdout, _ = run("inbox", "list", "pal", "--json")
    assert code == 0
    items = json.loads(stdout)["contradictions"]
    assert items, "the new standup time should wait in the inbox"
    for item in items:
        code, _, stderr = run("inbox", "resolve", "pal", item["id"], "--keep", "old")
        assert code == 0, stderr
    week.check("the inbox")

    # --- Friday: a correction, then undo: files and beliefs both as they were ---------------
    run("remember", "pal", "Maya's dentist is Dr Berg in Majorna")
    _, before, _ = run("facts", "list", "pal", "--json")
    code, _, stderr = run("remember", "pal", "Correction: Maya's dentist is Dr Holm in Majorna")
    assert code == 0, stderr
    code, _, stderr = run("undo", "pal")
    assert code == 0, stderr
    _, after, _ = run("facts", "list", "pal", "--json")
    assert json.loads(after)["facts"] == json.loads(before)["facts"]
    week.check("the undo")

    # --- Saturday: a forget; undo will not bring it back, and it is not learned again -------
    run("remember", "pal", "Jonas is a cardiologist in Uppsala")
    run("search", "cardiologist", "--agent", "pal")
    code, _, stderr = run("forget", "pal", "Jonas cardiologist Uppsala", "--yes")
    assert code == 0, stderr
    recall_log = week.folder / ".memclaw" / "logs" / "recall.jsonl"
    assert "cardiologist" not in (recall_log.read_text() if recall_log.exists() else "")
    code, _, stderr = run("undo", "pal")
    assert code == 1 and "forget is final" in stderr
    code, _, stderr = run("remember", "pal", "Jonas is a cardiologist in Uppsala")
    assert code != 0 and "forgot" in stderr.casefold()
    week.check("the forget")

    # --- Sunday: export, import into a fresh root; the clone answers as the original --------
    backup = tmp_path / "pal.zip"
    code, _, stderr = run("export", "pal", "-o", str(backup))
    assert code == 0, stderr
    clone_root = tmp_path / "elsewhere"
    clone_root.mkdir()
    code, _, stderr = run("import", "pal", str(backup), root=clone_root)
    assert code == 0, stderr
    original, clone = answers(isolated_env), answers(clone_root)
    assert clone["facts"] == original["facts"]
    assert clone["why"] == original["why"]
    assert clone["search"] == original["search"]
    code, _, stderr = run("remember", "pal", "Jonas is a cardiologist in Uppsala", root=clone_root)
    assert code != 0, "the clone learned a forgotten fact again"
    # The person's own edits are hand edits in both; memclaw's writes are in neither.
    kinds = []
    for root in (isolated_env, clone_root):
        code, stdout, _ = run("timeline", "pal", "--json", root=root)
        kinds.append(sorted(e["files"][0] for e in json.loads(stdout) if e["kind"] == "hand edit"))
    assert kinds[0] == kinds[1]
    for root in (isolated_env, clone_root):
        known_stores(root, [line for _, line in week.person])
    shutil.rmtree(clone_root)
