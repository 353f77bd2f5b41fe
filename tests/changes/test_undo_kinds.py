"""Undo of each kind of change: remember, import, a file edit; and what it refuses."""

from pathlib import Path

import pytest
from ledgerkit import stream_text

from memclaw.changes.records import last_undoable
from memclaw.changes.undo import UndoRefusedError, undo_last
from memclaw.entries.memories import remember
from memclaw.snapshot import export_snapshot, import_snapshot, read_snapshot
from memclaw.workspace import Workspace
from memclaw.workspace.safeguards import history
from memclaw.workspace.scope import Scope


@pytest.fixture
def scope(isolated_env: Path) -> Scope:
    agent, _ = Workspace.open(isolated_env).init_agent("pal")
    return Scope(agent)


def test_undo_a_remember_and_an_owners_change_stays_theirs(scope: Scope) -> None:
    maya = Scope.resolve(scope.agent, "user:maya")
    remember(maya, "Maya prefers tea", category="preference")
    assert last_undoable(scope) is None or last_undoable(scope).kind != "remember"
    done = undo_last(maya)
    assert done.change.kind == "remember"
    assert "tea" not in "".join(maya.read(f.name) for f in maya.list_files("entries/"))


def test_undo_an_import_puts_every_replaced_file_back(scope: Scope) -> None:
    agent = scope.agent
    agent.write("MEMORY.md", "# Memory\n- Ships on Fridays\n")
    data = export_snapshot(agent).data
    agent.write("MEMORY.md", "# Memory\n- Ships on Mondays\n")
    agent.write("PROFILE.md", "# Profile\n- Name: Maya\n")
    import_snapshot(agent.workspace, "pal", read_snapshot(data))
    assert "Fridays" in agent.read("MEMORY.md")
    done = undo_last(scope)
    assert done.change.kind == "import" and "MEMORY.md" in done.files
    assert "Mondays" in agent.read("MEMORY.md")


def test_undo_of_an_import_over_a_file_in_another_encoding_says_what_it_replaced(
    scope: Scope,
) -> None:
    agent = scope.agent
    data = export_snapshot(agent).data
    (agent.path / "MEMORY.md").write_bytes(b"# Memory\n- Bob lives in Z\xfcrich\n")  # Latin-1
    import_snapshot(agent.workspace, "pal", read_snapshot(data))
    done = undo_last(scope)
    assert done.change.kind == "import"
    assert agent.read("MEMORY.md") == "# Memory\n- Bob lives in Z\ufffdrich\n"
    assert any("MEMORY.md: the kept version was not UTF-8" in note for note in done.notes)


def test_undo_refuses_when_the_previous_version_is_gone(scope: Scope) -> None:
    agent = scope.agent
    agent.write("MEMORY.md", "# Memory\n- one\n")
    agent.write("MEMORY.md", "# Memory\n- two\n")
    for kept in history.versions(agent, "MEMORY.md"):
        history.rewrite(agent, kept, None)
    with pytest.raises(UndoRefusedError, match="no longer kept"):
        undo_last(scope)
    assert agent.read("MEMORY.md") == "# Memory\n- two\n"


def test_a_receipt_lists_what_was_remembered_not_the_entrys_bookkeeping(scope: Scope) -> None:
    from memclaw.changes.receipt import receipt_lines

    remember(scope, "Knut sleeps on the blue rug")
    change = last_undoable(scope)
    assert change is not None and change.kind == "remember"
    lines = receipt_lines(change, scope)
    assert lines[0].startswith("memory receipt · remember: 1 added, 0 changed, 0 removed")
    assert any("+ Knut sleeps on the blue rug" in line for line in lines)
    assert not any("category:" in line or "created:" in line for line in lines)


def test_a_receipt_gives_no_fact_id_to_a_bookkeeping_line() -> None:
    from memclaw.changes.receipt import file_lines
    from memclaw.changes.records import parse
    from memclaw.facts.ids import fact_id

    added = ["## 09:00 a session", "- source: chat", "- Knut sleeps on the blue rug"]
    record = {
        "id": "c1",
        "kind": "extract",
        "files": [{"rel": "memory/2026-01-02.md", "added": added}],
    }
    change = parse(record)
    assert change is not None
    rows = file_lines(change.files[0])
    assert rows == [
        "    + - source: chat",
        f"    + - Knut sleeps on the blue rug  [{fact_id(added[2])}]",
    ]


def test_a_refused_undo_marks_nothing_undone_and_names_no_undo_that_cannot_work(
    scope: Scope,
) -> None:
    """Forgetting alpha rewrote the file beta's remember wrote: undo past the forget is
    refused, says so, and leaves the remember as it was (not marked undone)."""
    from typer.testing import CliRunner

    from memclaw.changes.undo import ForgetIsFinalError
    from memclaw.cli.app import app

    remember(scope, "Backups of server alpha run nightly at 02:00")
    remember(scope, "Backups of server beta run nightly at 02:00")
    root = str(scope.agent.workspace.root)
    forget = ["--root", root, "forget", "pal", "Backups of server alpha run nightly at 02:00"]
    assert CliRunner().invoke(app, [*forget, "--yes"]).exit_code == 0
    with pytest.raises(ForgetIsFinalError, match="fix that file by hand") as refused:
        undo_last(scope)
    assert "--skip-forget" not in str(refused.value)
    with pytest.raises(UndoRefusedError, match="edited after the remember"):
        undo_last(scope, skip_forget=True)
    journal = stream_text(scope.agent.meta_dir, "changes")
    assert '"kind": "undo"' not in journal  # the remember is not marked undone
