"""memclaw scan covers every store memclaw keeps text in; --redact leaves no byte of a secret."""

import base64
import json
import random
import sqlite3
from pathlib import Path

from extract.extractkit import make_agent
from secretkit import GITHUB, OPENAI, leaks
from typer.testing import CliRunner

from memclaw import index
from memclaw.cli.app import app
from memclaw.index import vectors
from memclaw.index.storage.packs import visible_blocks
from memclaw.index.store import index_path
from memclaw.review.scan import scan_secrets
from memclaw.workspace import Workspace, ledger
from memclaw.workspace.atomic import atomic_write


def _private_key() -> list[str]:
    rng = random.Random(3)
    body = base64.b64encode(bytes(rng.randrange(256) for _ in range(300))).decode()
    middle = [body[i : i + 64] for i in range(0, len(body), 64)]
    return ["-----BEGIN " + "RSA PRIVATE KEY-----", *middle, "-----END " + "RSA PRIVATE KEY-----"]


def _plant(root: Path) -> Path:
    agent = make_agent(root)
    base, meta = agent.path, agent.meta_dir
    atomic_write(base / "MEMORY.md", agent.read("MEMORY.md") + f"\n- deploy token {GITHUB}\n")
    atomic_write(meta / "history" / "MEMORY.md" / "20260101T000000000000.md", f"old {OPENAI}\n")
    atomic_write(
        meta / "history" / "sessions" / "s-1.jsonl" / "20260101T000000000000.md",
        json.dumps({"role": "user", "content": f"key {GITHUB}"}) + "\n",
    )
    atomic_write(
        meta / "logs" / "extract.jsonl",
        json.dumps({"status": "written", "reason": f"saw {OPENAI}"}) + "\n",
    )
    for folder in (base, base / "owners" / "user%3Amaya"):
        atomic_write(
            folder / "sessions" / "s-1.jsonl",
            json.dumps({"role": "user", "content": f"here: {GITHUB}"}) + "\n",
        )
    lines = ["hello", '"""', *_private_key(), '"""', f"token {OPENAI}", "bye"]
    atomic_write(meta / "chat-history" / "_team", "\n".join(lines) + "\n")
    atomic_write(root / "_global" / "FACTS.md", f"- shared {OPENAI}\n")
    index.sync_agent(agent)
    index.sync_global(agent.workspace)
    # An embedding cached for the block that holds the token.
    with sqlite3.connect(index_path(base)) as conn:
        (digest,) = [b.hash for _, b in visible_blocks(conn) if "deploy token" in b.text]
        vectors.add(conn, "m", [(digest, [1.0])])
    conn.close()
    return base


def test_every_store_is_scanned_and_reported(tmp_path: Path) -> None:
    _plant(tmp_path)
    report = scan_secrets(Workspace.open(tmp_path, env={}))
    counts = {name: count.findings for name, count in report.stores.items()}
    assert counts == {
        "memory": 2,
        "sessions": 2,
        "history": 2,
        "logs": 1,
        "chat-history": 2,
        "index": 2,
    }
    blob = json.dumps(report.to_dict())
    assert GITHUB not in blob and OPENAI not in blob
    (row,) = [f for f in report.findings if f.file == "assistant/.memclaw/index.sqlite"]
    assert row.source == "MEMORY.md"


def test_redact_leaves_no_secret_in_any_file(tmp_path: Path) -> None:
    base = _plant(tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, ["--root", str(tmp_path), "scan", "--redact"])
    assert result.exit_code == 0, result.output
    assert leaks(tmp_path) == []
    history = ledger.load(base / ".memclaw", "chat-history/_team")[0]
    assert history[0] == "hello" and history[-1] == "bye"
    assert not any(line in history for line in _private_key())
    for record in ledger.read(base / ".memclaw", "extract"):
        assert record["status"] == "written"
    with sqlite3.connect(index_path(base)) as conn:
        assert conn.execute("SELECT count(*) FROM vectors").fetchone() == (0,)
    conn.close()
    again = runner.invoke(app, ["--root", str(tmp_path), "scan"])
    assert again.exit_code == 0 and "0 secrets" in again.stderr
    # Search still works on the rebuilt index.
    found = runner.invoke(app, ["--root", str(tmp_path), "search", "deploy token"])
    assert found.exit_code == 0 and "[REDACTED:" in found.stdout


def test_redact_never_follows_a_symlink_out_of_the_agent(tmp_path: Path) -> None:
    agent = make_agent(tmp_path / "ws")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.md").write_text(f"- {GITHUB}\n")
    (agent.path / "memory").mkdir(exist_ok=True)
    link = agent.path / "memory" / "2026-03-30.md"
    link.symlink_to(outside / "notes.md")
    (agent.path / "entries").mkdir(exist_ok=True)
    (agent.path / "entries" / "shared").symlink_to(outside, target_is_directory=True)

    report = scan_secrets(Workspace.open(tmp_path / "ws", env={}), redact=True)

    assert report.findings == [] and report.redacted == []
    assert link.is_symlink() and (outside / "notes.md").read_text() == f"- {GITHUB}\n"
    assert set(report.links) == {"assistant/memory/2026-03-30.md", "assistant/entries/shared"}


def test_a_secret_waiting_in_the_inbox_is_found_and_redacted(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    held = {"id": "c1", "old": f"the deploy token is {GITHUB}", "new": "it was rotated"}
    ledger.save(agent.meta_dir, "inbox", {"items": [held]})
    report = scan_secrets(Workspace.open(tmp_path, env={}), redact=True)
    assert [f.file for f in report.findings] == ["assistant/.memclaw/ledger.sqlite#inbox"]
    assert leaks(tmp_path) == []
    (item,) = ledger.load(agent.meta_dir, "inbox")[0]["items"]
    assert item["new"] == "it was rotated" and "[REDACTED:" in item["old"]
