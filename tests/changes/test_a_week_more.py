"""A second scripted week: today's features used together, through the CLI, on one root.

Dates resolved into facts, the secret gate, memory_store's facts[] batch from a model,
a correction and the dream that removes the machine line it supersedes (undone and
dreamt again), retention (ttl and immutable), a forget checked by every reader and by a
clone, keyword recall's threshold and personal-first ranking, and the CLI edges (pipes,
doctor, config edit). The clock travels a day at a time; every disagreement between two
parts of memclaw is a failure here.
"""

import json
import os
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI

from changes.weekkit import Travel, known_stores, ok, run, travelling

MONDAY = datetime.fromisoformat("2026-11-30T09:00:00+00:00")
MACHINE = "- The PostGIS cutover is scheduled for 2026-12-12."
MOVED = "Correction: the PostGIS cutover moved to 2026-12-19."
FIXED = "The PostGIS cutover is scheduled for 2026-12-19."  # the line, with the new date


@pytest.fixture
def travel(monkeypatch: pytest.MonkeyPatch) -> Travel:
    return travelling(monkeypatch, MONDAY)


def facts(root: Path | None = None) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(ok("facts", "list", "pal", "--json", root=root))[
        "facts"
    ]
    return found


def lines(root: Path, rel: str) -> list[str]:
    path = root / "pal" / rel
    return path.read_text().splitlines() if path.exists() else []


def transcript(*turns: tuple[str, str, str]) -> str:
    return "\n".join(
        json.dumps({"role": role, "content": text, "timestamp": when}) for role, text, when in turns
    )


def test_a_week_of_todays_features_used_together(
    travel: Travel, fake_openai: FakeOpenAI, isolated_env: Path, tmp_path: Path
) -> None:
    root = isolated_env
    # --- day 1: init, facts by hand and by extraction, a secret refused ----------------------
    ok("init", "pal")
    ok("remember", "pal", "Maya prefers uv for Python projects")
    said = transcript(
        ("user", "I moved to Lisbon yesterday.", "2026-11-30T08:30:00+00:00"),
        ("assistant", "Welcome to Lisbon!", "2026-11-30T08:31:00+00:00"),
    )
    chat_file = tmp_path / "monday.jsonl"
    chat_file.write_text(said)
    ok("extract", "pal", "-t", str(chat_file), "--force")
    assert "- User moved to Lisbon on 2026-11-29." in lines(root, "PROFILE.md")
    lisbon = [f for f in facts() if "Lisbon" in f["statement"]]
    assert [f["statement"] for f in lisbon] == ["User moved to Lisbon on 2026-11-29."]
    before = sorted(p.read_text() for p in (root / "pal").rglob("*.md") if p.is_file())
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    code, _, stderr = run("remember", "pal", f"The deploy token is {token}")
    assert code == 1 and "secret" in stderr
    assert sorted(p.read_text() for p in (root / "pal").rglob("*.md") if p.is_file()) == before
    assert not [p for p in root.rglob("*") if p.is_file() and token.encode() in p.read_bytes()]

    # --- day 2: a model stores a batch through memory_store; a correction is noted ------------
    travel.next_day()
    batch = [
        {"text": "The billing service runs on Postgres 16", "category": "project"},
        {"text": "User is Maya, a platform engineer at Cloudflare", "category": "identity"},
    ]
    heading = "## Active projects\n"
    edit = {"filename": "MEMORY.md", "old_text": heading, "new_text": f"{heading}{MACHINE}\n"}
    fake_openai.queue_tool_calls(
        [("memory_store", {"facts": batch}, "c1"), ("memory_files_edit", edit, "c2")]
    )
    fake_openai.queue_text("Stored both.")
    model = ("--set", f"base_url={fake_openai.base_url}", "--set", "api_key=test")
    answer = ok(*model, "chat", "pal", "-m", "Remember the cutover and who I am.", "--no-capture")
    assert "Stored both." in answer
    assert MACHINE in lines(root, "MEMORY.md")
    stored = {f["statement"]: f for f in facts()}
    assert set(stored) >= {b["text"] for b in batch}, stored
    for fact in batch:  # the model's words, not the person's, in the facts layer too
        assert stored[fact["text"]]["authors"] == ["model"], stored[fact["text"]]
    note = root / "pal" / "memory" / "2026-12-01.md"
    note.write_text((note.read_text() if note.exists() else "") + "- " + MOVED + "\n")

    # --- day 3: the dream removes the superseded machine line; undo, dream, dream undo ---------
    travel.next_day()

    def cutover() -> tuple[list[str], list[str]]:
        said = [f["statement"] for f in facts() if "cutover" in f["statement"]]
        return [line for line in lines(root, "MEMORY.md") if "cutover" in line], said

    corrected = ([f"- {FIXED}"], [FIXED, MOVED])
    as_before = ([MACHINE], [MACHINE[2:], MOVED])
    assert "1 updated" in ok("dream", "pal")
    assert cutover() == corrected
    ok("undo", "pal")
    assert cutover() == as_before
    ok("dream", "pal")
    assert cutover() == corrected
    ok("dream", "undo", "pal")
    assert cutover() == as_before
    ok("dream", "pal")
    assert cutover() == corrected

    # --- day 4: a project fact outlives its ttl; an immutable identity stays word for word ---
    travel.next_day()
    (root / "memclaw.yaml").write_text(
        "consolidate_min_entries: 2\n"
        "retention:\n  project:\n    ttl_days: 1\n  identity:\n    immutable: true\n"
    )
    ok("remember", "pal", "User is Maya, she leads the platform team", "-c", "identity")
    ok("consolidate", "pal")
    statements = {f["statement"] for f in facts()}
    assert "The billing service runs on Postgres 16" not in statements  # 2 days old, ttl 1
    assert "User is Maya, a platform engineer at Cloudflare" in statements  # never merged
    assert f"- {FIXED}" in lines(root, "MEMORY.md")  # 1 day old

    # --- day 5: forget one fact by id; every reader and a clone agree it is gone -------------
    travel.next_day()
    uv = next(f["id"] for f in facts() if "uv" in f["statement"])
    ok("forget", "pal", uv, "--yes")
    assert all(f["id"] != uv for f in facts())
    found = ok("search", "uv Python projects", "--agent", "pal", "--json").splitlines()
    assert not [hit for hit in found if "prefers uv" in json.loads(hit)["text"]]
    code, _, _ = run("why", "pal", uv)
    assert code != 0
    fake_openai.queue_text("No idea.")
    ok(*model, "chat", "pal", "-m", "Which tool do I prefer for Python projects?", "--no-capture")
    sent = json.dumps(fake_openai.chat_requests()[-1].body)
    assert "prefers uv" not in sent
    backup = tmp_path / "pal.zip"
    ok("export", "pal", "-o", str(backup))
    clone = tmp_path / "clone"
    clone.mkdir()
    ok("import", "pal", str(backup), root=clone)
    assert [f["id"] for f in facts(clone)] == [f["id"] for f in facts()]
    assert uv not in {f["id"] for f in facts(clone)}
    code, _, _ = run("remember", "pal", "Maya prefers uv for Python projects", root=clone)
    assert code != 0 and uv not in {f["id"] for f in facts(clone)}, "the clone learned it again"

    # --- day 6: recall keeps to what a message is about; personal first; a pipe closes early --
    travel.next_day()
    ok("remember", "pal", "Maya's standup moved to 10:15 on Tuesdays", "--owner", "user:maya")
    agents = root / "pal" / "AGENTS.md"
    agents.write_text(agents.read_text() + "\n- The team standup is at 09:30 on weekdays.\n")
    fake_openai.queue_text("Lima.")
    ok(*model, "chat", "pal", "-m", "What is the capital of Peru?", "--no-capture")
    assert "Recalled memories" not in json.dumps(fake_openai.chat_requests()[-1].body)
    hits = ok("search", "standup", "--agent", "pal", "--owner", "user:maya", "--json")
    first = json.loads(hits.splitlines()[0])
    assert "10:15" in first["text"] and first["scope"] != "team", hits
    piped = subprocess.run(
        f"{sys.executable} -m memclaw search standup --agent pal --owner user:maya | head -1",
        shell=True, capture_output=True, text=True, env=_env(root), executable="/bin/bash",
    )  # fmt: skip
    assert piped.returncode == 0 and piped.stderr == "" and len(piped.stdout.splitlines()) == 1

    # --- day 7: doctor's summary, a refused config edit, the week's timeline ------------------
    travel.next_day()
    _, report, _ = run("doctor")
    assert re.fullmatch(r"\d+ ok, \d+ warnings?, \d+ failed", report.strip().splitlines()[-1])
    settings = (root / "memclaw.yaml").read_text()
    editor = tmp_path / "editor.sh"
    editor.write_text("#!/bin/sh\necho 'no_such_setting: 1' >> \"$1\"\n")
    editor.chmod(0o755)
    edited = subprocess.run(
        [sys.executable, "-m", "memclaw", "config", "edit"],
        capture_output=True, text=True, env={**_env(root), "EDITOR": str(editor), "VISUAL": ""},
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert edited.returncode == 1, edited.stderr
    assert (root / "memclaw.yaml").read_text() == settings
    events = json.loads(ok("timeline", "pal", "--json"))
    times = [e["time"] for e in events]
    assert times == sorted(times, reverse=True) and times[-1].startswith("2026-11-30")
    kinds = {e["kind"] for e in events}
    assert kinds >= {"extract", "remember", "edit", "dream", "undo", "dream-undo", "consolidate"}
    assert "forget" in kinds
    for shown in (json.dumps(events), ok("timeline", "pal", "--diff")):
        assert "prefers uv" not in shown  # forgotten: not even in the story of the week
    known_stores(root, [str(f["statement"]) for f in facts()])


def _env(root: Path) -> dict[str, str]:
    repo = Path(__file__).resolve().parents[2]
    return {**os.environ, "MEMCLAW_ROOT": str(root), "PYTHONPATH": str(repo)}
