"""memclaw scan: secrets already on disk are found, reported without the secret, redacted."""

import json
from pathlib import Path

import pytest
from extract.extractkit import make_agent

from memclaw.review.scan import scan_secrets
from memclaw.workspace.atomic import atomic_write
from memclaw.workspace.safeguards import history

KEY = "ghp_" + "R8kq2Lx7Vw4Nz1Tb6Yc9Pm3Hd5Js0Ga8Fe2Ku"
AWS = "AKIA" + "QX7RT2LM8NW4VB1Z"


def _plant(root: Path) -> tuple[Path, Path]:
    agent = make_agent(root)
    atomic_write(agent.path / "MEMORY.md", agent.read("MEMORY.md") + f"\n- deploy token {KEY}\n")
    atomic_write(
        agent.path / "owners" / "user%3Amaya" / "memory" / "2026-03-30.md", f"# x\n\nkey {AWS}\n"
    )
    atomic_write(agent.path / "entries" / "other.md", "# e\n\n## m-1\nnothing secret here\n")
    session = agent.path / "sessions" / "s-1.jsonl"
    lines = [
        {"role": "user", "content": f"here: {KEY}"},
        {"role": "assistant", "content": "Please rotate it."},
    ]
    atomic_write(session, "\n".join(json.dumps(m) for m in lines) + "\n")
    atomic_write(root / "_global" / "FACTS.md", f"- shared {AWS}\n")
    return agent.path, session


def test_scan_reports_file_line_and_kind_only(tmp_path: Path) -> None:
    from memclaw.workspace import Workspace

    _plant(tmp_path)
    report = scan_secrets(Workspace.open(tmp_path, env={}))
    found = {(f.file, f.kind) for f in report.findings}
    files = {f.file for f in report.findings}
    assert files == {
        "assistant/MEMORY.md",
        "assistant/owners/user%3Amaya/memory/2026-03-30.md",
        "assistant/sessions/s-1.jsonl",
        "_global/FACTS.md",
    }
    assert all(kind for _file, kind in found)
    assert KEY not in json.dumps(report.to_dict()) and AWS not in json.dumps(report.to_dict())
    memory_line = next(f for f in report.findings if f.file == "assistant/MEMORY.md").line
    text = (tmp_path / "assistant" / "MEMORY.md").read_text().splitlines()
    assert KEY in text[memory_line - 1]


def test_a_log_record_is_judged_string_by_string_as_it_was_written(tmp_path: Path) -> None:
    """An undo record lists a file's removed lines ("Never store passwords ...") beside
    the next file's history path: side by side they read like a credential, alone not."""
    from memclaw.workspace import Workspace

    agent = make_agent(tmp_path)
    record = {
        "kind": "undo",
        "files": [
            {"rel": "AGENTS.md", "removed": ["- Never store passwords, API keys, tokens."]},
            {"rel": "DREAMS.md", "ref": "history:.memclaw/history/DREAMS.md/20261206T165907.md"},
        ],
    }
    leak = {"kind": "note", "text": f"the deploy token is {KEY}"}
    log = agent.path / ".memclaw" / "logs" / "changes.jsonl"
    atomic_write(log, json.dumps(record) + "\n" + json.dumps(leak) + "\n")
    report = scan_secrets(Workspace.open(tmp_path, env={}))
    assert [(f.file, f.line) for f in report.findings] == [
        ("assistant/.memclaw/ledger.sqlite#changes", 2)
    ]


def test_redact_rewrites_in_place_and_keeps_no_copy_of_the_secret(tmp_path: Path) -> None:
    from memclaw.workspace import Workspace

    agent_path, session = _plant(tmp_path)
    ws = Workspace.open(tmp_path, env={})
    report = scan_secrets(ws, ["assistant"], redact=True)
    assert set(report.redacted) == {
        "assistant/MEMORY.md",
        "assistant/owners/user%3Amaya/memory/2026-03-30.md",
        "assistant/sessions/s-1.jsonl",
    }
    memory = (agent_path / "MEMORY.md").read_text()
    assert KEY not in memory and "[REDACTED:" in memory
    for line in session.read_text().splitlines():
        json.loads(line)  # still valid JSON lines
    assert KEY not in session.read_text()
    assert history.every_version(ws.agent("assistant")) == {}  # the old text is not kept
    assert scan_secrets(ws, ["assistant"]).findings == []
    assert AWS in (tmp_path / "_global" / "FACTS.md").read_text()  # not asked for


def test_redact_says_when_a_reader_keeps_an_old_copy_in_the_ledger(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from memclaw.workspace import Workspace, ledger

    agent = make_agent(tmp_path)
    ledger.append(agent.meta_dir, "changes", {"kind": "note", "text": f"the token is {KEY}"})
    monkeypatch.setattr(ledger, "_BUSY_MS", 200)  # not half a minute of waiting here
    reader = sqlite3.connect(ledger.ledger_path(agent.meta_dir), isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM records").fetchone()  # a snapshot, held
    ws = Workspace.open(tmp_path, env={})
    assert scan_secrets(ws, ["assistant"], redact=True).held == ["assistant/.memclaw/ledger.sqlite"]
    reader.execute("COMMIT")
    reader.close()
    assert ledger.forget_old_versions(agent.meta_dir)
    assert KEY.encode() not in ledger.ledger_path(agent.meta_dir).read_bytes()
    assert scan_secrets(ws, ["assistant"]).findings == []
