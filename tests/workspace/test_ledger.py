"""The ledger: one SQLite file for the records beside an agent's files."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from memclaw.workspace import ledger


def _legacy(meta: Path, name: str, text: str) -> Path:
    path = meta / "logs" / f"{name}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.with_suffix(".lock").touch()
    return path


def cli(*args: str) -> str:
    """A memclaw command, as a person runs it; it must succeed."""
    from typer.testing import CliRunner

    from memclaw.cli.app import app

    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result.stdout + result.stderr


def test_reading_an_agent_without_records_creates_nothing(tmp_path: Path) -> None:
    meta = tmp_path / "sam" / ".memclaw"
    assert list(ledger.read(meta, "changes")) == []
    assert ledger.streams(meta) == {}
    assert not (tmp_path / "sam").exists()


def test_the_logs_of_an_agent_from_before_the_ledger_move_in_once(tmp_path: Path) -> None:
    _legacy(tmp_path, "extract", '{"session": "s1"}\n{"session": "s2"}\n{"session": "s3", "fa')
    _legacy(tmp_path, "changes", '{"change": "c1"}\n[1, 2]\n')
    ledger.append(tmp_path, "extract", {"session": "s4"})
    # A torn last line (a kill mid-append) and a record that is no object stay out.
    assert [r["session"] for r in ledger.read(tmp_path, "extract")] == ["s1", "s2", "s4"]
    assert list(ledger.read(tmp_path, "changes")) == [{"change": "c1"}]
    assert not (tmp_path / "logs").exists()  # the files and their locks are gone
    assert ledger.streams(tmp_path) == {"changes": 1, "extract": 3}


def test_a_crash_between_the_commit_and_the_delete_absorbs_nothing_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    legacy = _legacy(tmp_path, "recall", '{"query": "Porto"}\n')
    with monkeypatch.context() as patched:
        patched.setattr(Path, "unlink", lambda self, missing_ok=False: None)  # killed here
        assert len(list(ledger.read(tmp_path, "recall"))) == 1
    assert legacy.is_file()
    assert len(list(ledger.read(tmp_path, "recall"))) == 1
    assert not legacy.exists()
    # Another file of the same records (staged by an import, say) is new, and goes in.
    _legacy(tmp_path, "recall", '{"query": "Porto"}\n')
    assert len(list(ledger.read(tmp_path, "recall"))) == 2


WRITER = """
import sys
from pathlib import Path
from memclaw.workspace import ledger
for n in range(40):
    ledger.append(Path(sys.argv[1]), "changes", {{"writer": {writer}, "n": n}})
"""


def test_writers_in_four_processes_at_once_lose_no_record(tmp_path: Path) -> None:
    writers = [
        subprocess.Popen([sys.executable, "-c", textwrap.dedent(WRITER.format(writer=w)), tmp_path])
        for w in range(4)
    ]
    assert [w.wait(timeout=120) for w in writers] == [0, 0, 0, 0]
    records = list(ledger.read(tmp_path, "changes"))
    assert sorted((r["writer"], r["n"]) for r in records) == [
        (w, n) for w in range(4) for n in range(40)
    ]
    for w in range(4):  # each writer's own records stay in its order
        assert [r["n"] for r in records if r["writer"] == w] == list(range(40))


def test_an_edit_leaves_no_copy_of_what_it_removed_in_any_file(tmp_path: Path) -> None:
    for n in range(30):
        ledger.append(tmp_path, "recall", {"query": f"where is the zanzibar key {n}"})
        ledger.append(tmp_path, "extract", {"said": f"ordinary line {n}"})

    def cleaned(stream: str, record: dict[str, object]) -> dict[str, object] | None:
        if stream == "recall" and record["query"] == "where is the zanzibar key 0":
            return None
        return {"query": "[forgotten]"} if "zanzibar" in str(record.get("query")) else record

    assert ledger.edit(tmp_path, cleaned, only=frozenset({"recall"})) == 30
    assert len(list(ledger.read(tmp_path, "recall"))) == 29
    assert len(list(ledger.read(tmp_path, "extract"))) == 30
    held = b"".join(p.read_bytes() for p in tmp_path.glob("ledger.sqlite*"))
    assert b"zanzibar" not in held
    assert b"ordinary line 7" in held


def test_a_damaged_ledger_is_told_and_a_sound_one_is_not(tmp_path: Path) -> None:
    assert ledger.check(tmp_path) is None  # none yet
    for n in range(200):
        ledger.append(tmp_path, "changes", {"n": n, "pad": "x" * 200})
    assert ledger.check(tmp_path) is None
    path = ledger.ledger_path(tmp_path)
    data = bytearray(path.read_bytes())
    data[8192:12288] = b"\xff" * 4096  # a page of records overwritten
    path.write_bytes(bytes(data))
    assert ledger.check(tmp_path) is not None


def test_replace_makes_a_stream_exactly_the_records_given(tmp_path: Path) -> None:
    ledger.append(tmp_path, "forgotten", {"id": "a"})
    ledger.append(tmp_path, "changes", {"id": "c"})
    ledger.replace(tmp_path, "forgotten", [{"id": "b"}, {"id": "d"}])
    assert [r["id"] for r in ledger.read(tmp_path, "forgotten")] == ["b", "d"]
    assert [r["id"] for r in ledger.read(tmp_path, "changes")] == ["c"]
    assert json.loads(json.dumps(ledger.streams(tmp_path))) == {"changes": 1, "forgotten": 2}


def test_an_agent_from_before_the_ledger_undoes_and_tells_its_past_as_before(
    isolated_env: Path,
) -> None:
    cli("init", "sam")
    cli("remember", "sam", "Sam's bee colonies are called Ada and Grace")
    cli("remember", "sam", "Sam lives in Porto")
    meta = isolated_env / "sam" / ".memclaw"
    timeline = cli("timeline", "sam", "--json")
    # The layout of an older memclaw: each log a JSON-lines file of its own, no ledger.
    logs = {
        s: "".join(json.dumps(r) + "\n" for r in ledger.read(meta, s)) for s in ledger.streams(meta)
    }
    for path in meta.glob("ledger.sqlite*"):
        path.unlink()
    for stream, records in logs.items():
        _legacy(meta, stream, records)
    assert cli("timeline", "sam", "--json") == timeline
    assert not (meta / "logs").exists()
    assert "undid the remember" in cli("undo", "sam")
    assert not (isolated_env / "sam" / "entries" / "identity.md").exists()  # the remember made it
    assert "Ada and Grace" in cli("search", "bee colonies", "--agent", "sam")


def test_a_document_is_saved_whole_and_its_version_grows(tmp_path: Path) -> None:
    assert ledger.load(tmp_path, "inbox") == (None, 0)
    assert ledger.version(tmp_path, "inbox") == 0
    ledger.save(tmp_path, "inbox", {"items": [{"id": "c1"}]})
    ledger.save(tmp_path, "inbox", {"items": []})
    assert ledger.load(tmp_path, "inbox") == ({"items": []}, 2)
    assert ledger.document_names(tmp_path) == ["inbox"]
    ledger.save(tmp_path, "inbox", None)
    assert ledger.load(tmp_path, "inbox") == (None, 0)


def test_the_fact_records_of_an_agent_from_before_the_ledger_move_in(tmp_path: Path) -> None:
    facts = tmp_path / "facts"
    facts.mkdir()
    (facts / "evidence.json").write_text('{"facts": {"f1": [{"kind": "stated"}]}}')
    (facts / "inbox.json").write_text('{"items": [')  # damaged: left for a person to see
    (tmp_path / "extracted").mkdir()
    (tmp_path / "extracted" / "9f2c.json").write_text('{"a1b2": 2}')
    assert ledger.load(tmp_path, "evidence")[0] == {"facts": {"f1": [{"kind": "stated"}]}}
    assert ledger.load(tmp_path, "extracted/9f2c")[0] == {"a1b2": 2}
    assert not (tmp_path / "extracted").exists()
    assert ledger.load(tmp_path, "inbox") == (None, 0)
    assert sorted(p.name for p in facts.iterdir()) == ["inbox.json"]


UPDATER = """
import sys
from pathlib import Path
from memclaw.workspace import ledger
for n in range(25):
    key = "{writer}-" + str(n)
    ledger.update(Path(sys.argv[1]), "mem0-sync", lambda d: {{**(d or {{}}), key: [n]}})
"""


def test_updates_of_one_document_from_four_processes_lose_none(tmp_path: Path) -> None:
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(UPDATER.format(writer=w)), tmp_path]
        )
        for w in range(4)
    ]
    assert [w.wait(timeout=120) for w in writers] == [0, 0, 0, 0]
    document, version = ledger.load(tmp_path, "mem0-sync")
    assert sorted(document) == sorted(f"{w}-{n}" for w in range(4) for n in range(25))
    assert version == 100


def test_the_extraction_queue_of_an_agent_from_before_the_ledger_moves_in(tmp_path: Path) -> None:
    queue = tmp_path / "pending-extract.jsonl"
    queue.write_text('{"session": "s1", "owner": null}\n{"session": "s2", "why": "model"}\n{"tor')
    (tmp_path / "pending-extract.lock").touch()
    assert ledger.load(tmp_path, "pending-extract")[0] == [
        {"session": "s1", "owner": None},
        {"session": "s2", "why": "model"},
    ]
    assert not queue.exists() and not (tmp_path / "pending-extract.lock").exists()


def test_the_previous_versions_of_an_agent_from_before_the_ledger_move_in(
    isolated_env: Path,
) -> None:
    cli("init", "sam")
    cli("files", "write", "sam", "MEMORY.md", "-c", "# Memory\n\n- first\n")
    cli("files", "write", "sam", "MEMORY.md", "-c", "# Memory\n\n- second\n")
    meta = isolated_env / "sam" / ".memclaw"
    # Older memclaw kept each version as a file, named as the ledger now names it.
    versions = {n: ledger.load(meta, n)[0] for n in ledger.document_names(meta, "history/")}
    logs = {s: list(ledger.read(meta, s)) for s in ledger.streams(meta)}
    for path in meta.glob("ledger.sqlite*"):
        path.unlink()
    for name, text in versions.items():
        (meta / name).parent.mkdir(parents=True, exist_ok=True)
        (meta / name).write_text(text, encoding="utf-8")
    for stream, records in logs.items():
        _legacy(meta, stream, "".join(json.dumps(r) + "\n" for r in records))
    (meta / "history" / "NOTES.md").mkdir()
    (meta / "history" / "NOTES.md" / "20260101T000000000000.md").write_bytes(b"caf\xe9\n")

    assert "\n1\t" in cli("files", "versions", "sam", "MEMORY.md")
    assert not (meta / "history").exists()
    assert ledger.load(meta, "history/NOTES.md/20260101T000000000000.md")[0] == {
        "base64": "Y2Fm6Qo="  # not UTF-8: kept byte for byte
    }
    assert "undid the edit" in cli("undo", "sam")  # the journal's ref finds the version
    assert cli("files", "read", "sam", "MEMORY.md") == "# Memory\n\n- first\n"


def test_a_file_named_in_another_encoding_is_left_where_it_is(tmp_path: Path) -> None:
    meta = tmp_path / ".memclaw"
    odd = meta / "history" / "memory" / "caf\udce9.md"  # the bytes b"caf\xe9.md"
    odd.mkdir(parents=True)
    (odd / "20260101T000000000000.md").write_text("x\n")
    ledger.append(meta, "recall", {"query": "q"})  # the ledger opens, and works
    assert [r["query"] for r in ledger.read(meta, "recall")] == ["q"]
    assert (odd / "20260101T000000000000.md").exists()
    assert ledger.document_names(meta, "history/") == []
