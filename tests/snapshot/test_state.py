"""A clone made by export + import knows what the original knew about its memory."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.errors import SnapshotError
from memclaw.snapshot import export_snapshot, import_snapshot, read_snapshot, recover
from memclaw.workspace import Workspace, ledger
from memclaw.workspace.owners import normalise_owner

from .helpers import manifest_for, raw_zip, tree

TRANSCRIPT = [
    {"role": "user", "content": "I work as a nurse at the city hospital."},
    {"role": "assistant", "content": "ok"},
    {"role": "user", "content": "My favourite colour is green and I always take the train."},
    {"role": "assistant", "content": "noted"},
    {"role": "user", "content": "I am allergic to peanuts."},
    {"role": "assistant", "content": "ok"},
]
SESSION = [
    {"role": "user", "content": "I live next to the old harbour in Porto."},
    {"role": "assistant", "content": "ok"},
    {"role": "user", "content": "I usually swim in the sea every sunday morning."},
    {"role": "assistant", "content": "nice"},
]
FORGOTTEN = "Maya drives a red bike"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str) -> str:
    code, out, err = run(*args)
    assert code == 0, err
    return out


def week(root: Path, tmp: Path) -> None:
    """Remember, extract, confirm, reject and forget, as a person's week would."""
    r = str(root)
    ok("--root", r, "init", "demo")
    for fact in ("Maya prefers tea over coffee", "Maya lives in Lisbon", FORGOTTEN):
        ok("--root", r, "remember", "demo", fact)
    transcript = tmp / "t.jsonl"
    transcript.write_text("".join(json.dumps(m) + "\n" for m in TRANSCRIPT), encoding="utf-8")
    ok("--root", r, "extract", "demo", "--transcript", str(transcript))
    # A chat session's extraction: `why` quotes the user's turn from it.
    session = root / "demo" / "sessions" / "s1.jsonl"
    session.parent.mkdir(exist_ok=True)
    session.write_text("".join(json.dumps(m) + "\n" for m in SESSION), encoding="utf-8")
    ok("--root", r, "extract", "demo", "--session", "s1", "--force")
    ok("--root", r, "facts", "confirm", "demo", "Maya lives in Lisbon")
    ok("--root", r, "facts", "reject", "demo", "Maya prefers tea over coffee")
    ok("--root", r, "forget", "demo", FORGOTTEN, "--yes")


def clone(tmp_path: Path) -> tuple[Path, Path, Path]:
    original, copy = tmp_path / "a", tmp_path / "b"
    week(original, tmp_path)
    zipped = tmp_path / "snap.zip"
    ok("--root", str(original), "export", "demo", "-o", str(zipped))
    copy.mkdir()
    ok("--root", str(copy), "import", "demo", str(zipped))
    return original, copy, zipped


def facts(root: Path) -> list[dict[str, object]]:
    found: list[dict[str, object]] = json.loads(ok("--root", str(root), "facts", "demo", "--json"))[
        "facts"
    ]
    return found


def _but_the_import(said: str) -> str:
    """``why`` or ``timeline`` output without the import's lines (and its list of files)."""
    kept, skipping = [], False
    for line in said.splitlines(keepends=True):
        skipping = " import " in line or (skipping and line.startswith(" " * 10))
        if not skipping:
            kept.append(line)
    return "".join(kept)


def test_a_clone_answers_facts_why_timeline_and_forget_like_the_original(tmp_path: Path) -> None:
    original, copy, _ = clone(tmp_path)
    theirs = facts(original)
    assert {f["source"] for f in theirs} >= {"extract", "remember"}
    assert any(e["kind"] == "confirmed" for f in theirs for e in f["events"])  # type: ignore[attr-defined]
    assert facts(copy) == theirs
    pens = next(str(f["id"]) for f in theirs if "swim" in str(f["statement"]))
    assert "session s1, turn" in ok("--root", str(original), "why", "demo", pens)
    for fact in theirs:
        fid = str(fact["id"])
        mine = ok("--root", str(copy), "why", "demo", fid)
        assert " import " in mine  # the clone's fact came by the import, a step more
        assert _but_the_import(mine) == ok("--root", str(original), "why", "demo", fid)
        query = str(fact["statement"]).split()[-1].strip(".")
        assert ok("--root", str(copy), "search", "demo", query, "--json") == ok(
            "--root", str(original), "search", "demo", query, "--json"
        )
        # Forget finds the same fact in the same places (a preview: nothing removed), but
        # for the previous versions kept for undo, which stay home.
        preview = ("forget", "demo", fid, "--dry-run", "--json")
        assert forget_places(copy, preview) == forget_places(original, preview)
    timeline = ok("--root", str(copy), "timeline", "demo")
    assert "hand edit" not in timeline
    assert " import " in timeline
    assert _but_the_import(timeline) == ok("--root", str(original), "timeline", "demo")
    # The forgotten fact is not learned again by the clone, as by the original.
    for root in (original, copy):
        _, out, err = run("--root", str(root), "remember", "demo", FORGOTTEN)
        assert "forgotten" in out + err
        assert FORGOTTEN not in (root / "demo" / "entries" / "other.md").read_text()


def forget_places(root: Path, args: tuple[str, ...]) -> dict[str, object]:
    found: dict[str, object] = json.loads(ok("--root", str(root), *args))
    found["places"] = [p for p in found["places"] if p["store"] != "history"]  # type: ignore[attr-defined]
    for place in found["places"]:  # type: ignore[attr-defined]
        if place["store"] == "logs":  # a clone's journal holds its import too
            del place["count"], place["lines"]
    return found


def test_state_in_the_zip_holds_no_forgotten_text(tmp_path: Path) -> None:
    _, _, zipped = clone(tmp_path)
    with zipfile.ZipFile(zipped) as archive:
        names = archive.namelist()
        blob = b"".join(archive.read(n) for n in names)
    assert "state/forgotten.jsonl" in names and "state/evidence.json" in names
    assert b"red bike" not in blob.lower()


def _strip_state(data: bytes) -> bytes:
    """The same snapshot as the previous memclaw wrote it: format 1, files only."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = {
            n: archive.read(n)
            for n in archive.namelist()
            if n != "manifest.json" and not n.startswith("state/")
        }
    manifest = manifest_for(files, agent="demo")
    return raw_zip([("manifest.json", json.dumps(manifest).encode()), *files.items()])


def test_the_import_preview_counts_the_carried_state(tmp_path: Path) -> None:
    _, _, zipped = clone(tmp_path)
    fresh = tmp_path / "c"
    fresh.mkdir()
    preview = json.loads(
        ok("--root", str(fresh), "import", "demo", str(zipped), "--dry-run", "--json")
    )
    counts = preview["snapshot"]["state"]
    assert counts["forgotten"] >= 1 and counts["sessions"] == 1 and counts["evidence"] >= 4
    assert list(fresh.iterdir()) == []


def test_a_format_1_zip_still_imports(tmp_path: Path) -> None:
    original, _, zipped = clone(tmp_path)
    old = tmp_path / "old.zip"
    old.write_bytes(_strip_state(zipped.read_bytes()))
    target = tmp_path / "c"
    target.mkdir()
    code, _, err = run("--root", str(target), "import", "demo", str(old))
    assert code == 0, err
    assert (target / "demo" / "PROFILE.md").read_bytes() == (
        original / "demo" / "PROFILE.md"
    ).read_bytes()
    assert list(ledger.read(target / "demo" / ".memclaw", "forgotten")) == []


def _with_entry(data: bytes, name: str, content: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = {n: archive.read(n) for n in archive.namelist() if n != "manifest.json"}
    files[name] = content
    manifest = manifest_for(files, agent="demo")
    manifest["format_version"] = 2
    return raw_zip([("manifest.json", json.dumps(manifest).encode()), *files.items()])


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("state/forgotten.jsonl", b'{"action": "forget", "fingerprint": ["Maya"]}\n', "hashes"),
        ("state/forgotten.jsonl", b"not json\n", "line 1"),
        ("state/evidence.json", b'{"facts": {"f1": [{"kind": "liked"}]}}', "known events"),
        ("state/inbox.json", b'{"items": [{"id": "c1"}]}', "fields"),
        ("state/changes.jsonl", b'{"files": []}\n', "no id"),
        ("state/provenance/NOPE.md.json", b'{"seq": 1, "lines": {}}', "does not carry"),
        ("state/secrets.json", b"{}", "not a kind of state"),
    ],
)
def test_malformed_state_rejects_the_zip_and_writes_nothing(
    tmp_path: Path, name: str, content: bytes, says: str
) -> None:
    _, _, zipped = clone(tmp_path)
    bad = tmp_path / "bad.zip"
    bad.write_bytes(_with_entry(zipped.read_bytes(), name, content))
    target = tmp_path / "c"
    target.mkdir()
    code, _, err = run("--root", str(target), "import", "demo", str(bad))
    assert code == 1
    assert says in err and len(err.strip().splitlines()) == 1
    assert list(target.iterdir()) == []


def test_a_secret_in_carried_state_rejects_the_zip(tmp_path: Path) -> None:
    _, _, zipped = clone(tmp_path)
    secret = b'{"id": "x", "files": [], "note": "sk-proj-' + b"A1b2C3d4E5f6G7h8" * 3 + b'"}\n'
    with pytest.raises(SnapshotError, match="secret"):
        read_snapshot(_with_entry(zipped.read_bytes(), "state/changes.jsonl", secret))


def test_import_into_an_existing_agent_never_undoes_a_forget(tmp_path: Path) -> None:
    ws = Workspace.open(tmp_path / "x")
    ws.root.mkdir(parents=True)
    r = str(ws.root)
    ok("--root", r, "init", "src")
    ok("--root", r, "remember", "src", "Maya plays the cello")
    ok("--root", r, "forget", "src", "Maya plays the cello", "--yes")
    ok("--root", r, "init", "dst")
    ok("--root", r, "remember", "dst", "Maya owns a sailboat")
    ok("--root", r, "forget", "dst", "Maya owns a sailboat", "--yes")
    snap = read_snapshot(export_snapshot(ws.agent("src")).data)
    import_snapshot(ws, "dst", snap)
    for fact in ("Maya plays the cello", "Maya owns a sailboat"):
        _, out, err = run("--root", r, "remember", "dst", fact)
        assert "forgotten" in out + err, fact
    # Importing the same snapshot again adds no second copy of its fingerprints.
    meta = ws.agent("dst").meta_dir
    before = list(ledger.read(meta, "forgotten"))
    import_snapshot(ws, "dst", snap)
    assert list(ledger.read(meta, "forgotten")) == before


def test_evidence_of_an_existing_agent_is_merged_not_replaced(tmp_path: Path) -> None:
    ws = Workspace.open(tmp_path / "x")
    ws.root.mkdir(parents=True)
    r = str(ws.root)
    for agent in ("src", "dst"):
        ok("--root", r, "init", agent)
        ok("--root", r, "remember", agent, "Maya lives in Lisbon")
    ok("--root", r, "facts", "confirm", "src", "Maya lives in Lisbon")
    ok("--root", r, "facts", "reject", "dst", "Maya lives in Lisbon")
    import_snapshot(ws, "dst", read_snapshot(export_snapshot(ws.agent("src")).data))
    kinds = [e["kind"] for f in facts_of(r, "dst") for e in f["events"]]
    assert "confirmed" in kinds and "rejected" in kinds


def facts_of(root: str, agent: str) -> list[dict[str, list[dict[str, str]]]]:
    found: list[dict[str, list[dict[str, str]]]] = json.loads(
        ok("--root", root, "facts", agent, "--json")
    )["facts"]
    return found


def test_an_owners_state_travels_with_that_owner_only(tmp_path: Path) -> None:
    ws = Workspace.open(tmp_path / "x")
    ws.root.mkdir(parents=True)
    r = str(ws.root)
    ok("--root", r, "init", "demo")
    for owner in ("user:alice", "user:bob"):
        ok("--root", r, "remember", "demo", "Maya hums while cooking", "--owner", owner)
        ok("--root", r, "remember", "demo", "Maya paints on sundays", "--owner", owner)
        ok("--root", r, "facts", "confirm", "demo", "Maya paints on sundays", "--owner", owner)
        ok("--root", r, "forget", "demo", "Maya hums while cooking", "--owner", owner, "--yes")
    agent = ws.agent("demo")
    with_alice = export_snapshot(agent, [normalise_owner("user:alice")]).data
    with zipfile.ZipFile(io.BytesIO(with_alice)) as archive:
        carried = b"".join(archive.read(n) for n in archive.namelist())
    assert b"bob" not in carried and b"alice" in carried
    bobs = json.loads(ok("--root", r, "facts", "demo", "--owner", "user:bob", "--json"))["facts"]
    assert bobs and all(f["id"].encode() not in carried for f in bobs)
    # Alice's clone keeps her forget, and her confirmation; nothing of Bob's arrives.
    import_snapshot(ws, "clone", read_snapshot(with_alice), owners=["user:alice"])
    _, out, err = run(
        "--root", r, "remember", "clone", "Maya hums while cooking", "--owner", "user:alice"
    )
    assert "forgotten" in out + err
    kinds = [
        e["kind"]
        for f in json.loads(ok("--root", r, "facts", "clone", "--owner", "user:alice", "--json"))[
            "facts"
        ]
        for e in f["events"]
    ]
    assert "confirmed" in kinds
    clone_meta = ws.root / "clone" / ".memclaw"
    assert all(b"bob" not in p.read_bytes() for p in clone_meta.rglob("*") if p.is_file())
    # Without --owner nobody's personal state leaves home.
    with zipfile.ZipFile(io.BytesIO(export_snapshot(agent).data)) as archive:
        assert not any(b"user%3A" in archive.read(n) for n in archive.namelist())


def test_an_import_of_one_owner_takes_none_of_the_others_state(tmp_path: Path) -> None:
    ws = Workspace.open(tmp_path / "x")
    ws.root.mkdir(parents=True)
    r = str(ws.root)
    ok("--root", r, "init", "demo")
    for owner in ("user:alice", "user:bob"):
        name = owner.split(":")[1]
        ok("--root", r, "remember", "demo", f"{name} hums while cooking", "--owner", owner)
        ok("--root", r, "remember", "demo", f"{name} paints on sundays", "--owner", owner)
        ok("--root", r, "facts", "confirm", "demo", f"{name} paints on sundays", "--owner", owner)
        ok("--root", r, "forget", "demo", f"{name} hums while cooking", "--owner", owner, "--yes")
    everyone = read_snapshot(export_snapshot(ws.agent("demo"), all_owners=True).data)
    assert any(r.get("scope", "").startswith("owners/user%3Abob") for r in everyone.state.forgotten)
    # Only Alice is named: Bob's memory stays out, and so does all memory knew of him.
    import_snapshot(ws, "clone", everyone, owners=["user:alice"])
    clone = ws.root / "clone"
    assert not (clone / "owners" / "user%3Abob").exists()
    meta = b"".join(p.read_bytes() for p in (clone / ".memclaw").rglob("*") if p.is_file())
    assert b"bob" not in meta and b"user%3Abob" not in meta
    bobs = json.loads(ok("--root", r, "facts", "demo", "--owner", "user:bob", "--json"))["facts"]
    assert bobs and all(f["id"].encode() not in meta for f in bobs)
    alices = json.loads(ok("--root", r, "facts", "clone", "--owner", "user:alice", "--json"))
    assert "confirmed" in [e["kind"] for f in alices["facts"] for e in f["events"]]


@pytest.mark.parametrize("crash", ["staging", "journal", "swap:1"])
def test_state_lands_with_the_files_or_not_at_all(tmp_path: Path, crash: str) -> None:
    from .test_crash import CRASHED, memclaw

    ws = Workspace.open(tmp_path / "x")
    ws.root.mkdir(parents=True)
    r = str(ws.root)
    ok("--root", r, "init", "src")
    ok("--root", r, "remember", "src", "Maya keeps bees")
    ok("--root", r, "remember", "src", "Maya plays the cello")
    ok("--root", r, "forget", "src", "Maya plays the cello", "--yes")
    ok("--root", r, "init", "dst")
    zipped = tmp_path / "snap.zip"
    zipped.write_bytes(export_snapshot(ws.agent("src")).data)
    dst = ws.root / "dst"
    before = tree(dst)
    assert memclaw(ws.root, "import", "dst", str(zipped), crash=crash).returncode == CRASHED

    def forgotten() -> list[dict[str, object]]:
        return list(ledger.read(dst / ".memclaw", "forgotten"))

    if crash == "staging":
        # Died before committing: neither the files nor the state moved.
        assert forgotten() == []
        assert {k: v for k, v in tree(dst).items() if not k.startswith(".")} == {
            k: v for k, v in before.items() if not k.startswith(".")
        }
    recover(ws, "dst")
    # Recovered (or re-run): the files and the forget both arrived.
    if crash == "staging":
        import_snapshot(ws, "dst", read_snapshot(zipped.read_bytes()))
    assert forgotten()
    _, out, err = run("--root", r, "remember", "dst", "Maya plays the cello")
    assert "forgotten" in out + err
    assert any("Maya keeps bees" in p.read_text() for p in (dst / "entries").glob("*.md"))


def test_the_inbox_travels_and_a_clone_lists_the_same_contradictions(tmp_path: Path) -> None:
    from memclaw.facts import inbox

    ws = Workspace.open(tmp_path / "x")
    ws.root.mkdir(parents=True)
    r = str(ws.root)
    ok("--root", r, "init", "src")
    ok("--root", r, "remember", "src", "Maya lives in Lisbon")
    item = inbox.Item(
        id=inbox.item_id("f215efab1", "f0000aaaa"),
        prefix="",
        old_fact="f215efab1",
        old="Maya lives in Lisbon",
        old_where=["entries/identity.md"],
        new_fact="f0000aaaa",
        new="Maya lives in Porto",
        category="identity",
        source="remember",
        session=None,
        reason="a different city",
        opened="2026-12-01T10:00:00+00:00",
    )
    inbox.add(ws.agent("src"), item)
    import_snapshot(ws, "dst", read_snapshot(export_snapshot(ws.agent("src")).data))
    listed = json.loads(ok("--root", r, "inbox", "list", "dst", "--json"))
    assert "Maya lives in Porto" in json.dumps(listed)
    assert json.dumps(listed).replace("dst", "src") == json.dumps(
        json.loads(ok("--root", r, "inbox", "list", "src", "--json"))
    )


def test_restoring_a_backup_into_its_own_agent_duplicates_no_state(tmp_path: Path) -> None:
    original, _, zipped = clone(tmp_path)
    before = facts(original)
    meta = original / "demo" / ".memclaw"
    evidence = ledger.load(meta, "evidence")[0]
    forgotten = list(ledger.read(meta, "forgotten"))
    for _ in range(2):
        ok("--root", str(original), "import", "demo", str(zipped))
    assert facts(original) == before
    assert ledger.load(meta, "evidence")[0] == evidence
    assert list(ledger.read(meta, "forgotten")) == forgotten


def test_a_clone_keeps_the_loss_guards_baseline(tmp_path: Path) -> None:
    from memclaw.workspace.safeguards.guard import baseline_entries

    original, copy, _ = clone(tmp_path)
    seen = []
    for root in (original, copy):
        agent = Workspace.open(root).agent("demo")
        current = (root / "demo" / "PROFILE.md").read_text(encoding="utf-8")
        seen.append(baseline_entries(agent, "PROFILE.md", current))
    # The extraction's lines are the machine's, not part of what the person last saw.
    assert not any("nurse" in entry for entry in seen[0])
    assert seen[1] == seen[0]
