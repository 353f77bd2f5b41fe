"""init, status and files through the command line: data on stdout, status on stderr."""

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.workspace import Workspace
from memclaw.workspace.logs import append_log

CORE = ["AGENTS.md", "SOUL.md", "PROFILE.md", "MEMORY.md"]


def _cli(*args: str, input: str | bytes | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=input, catch_exceptions=False)


def test_init_then_rerun(isolated_env: Path) -> None:
    first = _cli("init", "alpha")
    assert first.exit_code == 0
    assert first.stdout == ""
    assert "created" in first.stderr and "MEMORY.md" in first.stderr
    assert sorted(p.name for p in (isolated_env / "alpha").glob("*.md")) == sorted(CORE)
    again = _cli("init", "alpha")
    assert again.exit_code == 0
    assert "nothing changed" in again.stderr


def test_root_flag_wins_over_env(isolated_env: Path, tmp_path: Path) -> None:
    other = tmp_path / "other-root"
    assert _cli("--root", str(other), "init", "beta").exit_code == 0
    assert (other / "beta" / "MEMORY.md").is_file()
    assert not (isolated_env / "beta").exists()


def test_status_json(isolated_env: Path) -> None:
    _cli("init", "alpha")
    _cli("init", "beta")
    ws = Workspace.open(clock=lambda: datetime(2026, 11, 29, 3, 0, tzinfo=UTC))
    append_log(ws.agent("alpha"), "extract", {"session": "s1"})
    append_log(ws.agent("alpha"), "dream", {"promoted": 2})
    (isolated_env / "alpha" / "memory").mkdir()
    (isolated_env / "alpha" / "memory" / "2026-11-28.md").write_text("# 2026-11-28\n", "utf-8")

    result = _cli("--set", "memory_max_chars=9000", "status", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["root"] == str(isolated_env)
    alpha, beta = data["agents"]
    assert (alpha["agent"], beta["agent"]) == ("alpha", "beta")
    files = {f["name"]: f for f in alpha["files"]}
    assert files["MEMORY.md"]["ceiling"] == 9000
    assert files["PROFILE.md"]["ceiling"] == 4000
    assert files["AGENTS.md"]["ceiling"] is None
    assert files["MEMORY.md"]["size"] == (isolated_env / "alpha" / "MEMORY.md").stat().st_size
    assert files["MEMORY.md"]["enabled"] is True
    assert files["memory/2026-11-28.md"]["enabled"] is False
    assert alpha["daily_notes"] == 1
    assert alpha["last_extracted"] == "2026-11-29T03:00:00+00:00"
    assert alpha["last_dreamed"] == "2026-11-29T03:00:00+00:00"
    assert beta["last_extracted"] is None and beta["last_dreamed"] is None
    assert alpha["owners"] == []


def test_status_table_and_empty_root(isolated_env: Path) -> None:
    empty = _cli("status")
    assert empty.exit_code == 0
    assert "no agents" in empty.stderr
    _cli("init", "alpha")
    table = _cli("status")
    assert "alpha" in table.stdout and "MEMORY.md" in table.stdout and "never" in table.stdout


def test_files_list_read_json(isolated_env: Path) -> None:
    _cli("init", "alpha")
    listed = json.loads(_cli("files", "list", "alpha", "--json").stdout)
    assert listed["agent"] == "alpha"
    assert listed["count"] == 4
    assert [f["name"] for f in listed["files"]] == CORE
    assert [f["sort_order"] for f in listed["files"]] == [0, 1, 2, 3]
    table = _cli("files", "list", "alpha").stdout
    assert "MEMORY.md" in table and "yes" in table

    read = _cli("files", "read", "alpha", "MEMORY.md")
    assert read.stdout == (isolated_env / "alpha" / "MEMORY.md").read_text(encoding="utf-8")
    data = json.loads(_cli("files", "read", "alpha", "MEMORY.md", "--json").stdout)
    assert data["filename"] == "MEMORY.md" and data["enabled"] is True
    assert data["content"] == read.stdout


def test_files_list_prefix(isolated_env: Path) -> None:
    _cli("init", "alpha")
    (isolated_env / "alpha" / "memory").mkdir()
    (isolated_env / "alpha" / "memory" / "2026-11-28.md").write_text("# 2026-11-28\n", "utf-8")
    listed = json.loads(_cli("files", "list", "alpha", "--prefix", "memory/", "--json").stdout)
    assert [f["name"] for f in listed["files"]] == ["memory/2026-11-28.md"]


def test_files_write_and_edit(isolated_env: Path) -> None:
    _cli("init", "alpha")
    wrote = _cli("files", "write", "alpha", "NOTES.md", "-c", "# Notes\n\n- shed: paint it\n")
    assert wrote.exit_code == 0, wrote.output
    assert "created NOTES.md" in wrote.stderr
    assert wrote.stdout == ""
    path = isolated_env / "alpha" / "NOTES.md"
    assert path.read_text(encoding="utf-8") == "# Notes\n\n- shed: paint it\n"

    piped = _cli("files", "write", "alpha", "NOTES.md", "--json", input="# Notes\n\nfrom stdin\n")
    assert json.loads(piped.stdout) == {
        "agent": "alpha",
        "filename": "NOTES.md",
        "created": False,
        "chars": len("# Notes\n\nfrom stdin\n"),
        "moved_to_overflow": 0,
        "overflow_file": None,
        "over_ceiling": False,
        "warning": None,
    }

    edited = _cli("files", "edit", "alpha", "NOTES.md", "--old", "stdin", "--new", "a pipe")
    assert edited.exit_code == 0
    assert "1 replacement" in edited.stderr
    assert path.read_text(encoding="utf-8") == "# Notes\n\nfrom a pipe\n"

    # a new file is not injected
    prompt = _cli("prompt", "alpha").stdout
    assert "--- NOTES.md ---" not in prompt and "a pipe" not in prompt


def test_files_edit_all_reports_count(isolated_env: Path) -> None:
    _cli("init", "alpha")
    _cli("files", "write", "alpha", "NOTES.md", "-c", "uv, uv and uv\n")
    result = _cli("files", "edit", "alpha", "NOTES.md", "--old", "uv", "--new", "pip", "--all")
    assert "3 replacement" in result.stderr
    as_json = _cli(
        "files", "edit", "alpha", "NOTES.md", "--old", "pip", "--new", "uv", "--all", "--json"
    )
    assert json.loads(as_json.stdout)["replacements"] == 3


def test_files_write_over_the_ceiling_is_reported_every_time(isolated_env: Path) -> None:
    _cli("init", "alpha")
    big = "# Memory\n\n" + "".join(f"## Part {i}\n\n{'m' * 300}\n\n" for i in range(40))
    for _ in range(2):
        result = _cli("files", "write", "alpha", "MEMORY.md", "-c", big)
        assert result.exit_code == 0
        assert "over its 8000-character ceiling" in result.stderr and "by hand" in result.stderr
    data = json.loads(_cli("files", "write", "alpha", "MEMORY.md", "-c", big, "--json").stdout)
    assert data["over_ceiling"] is True and data["moved_to_overflow"] == 0
    assert (isolated_env / "alpha" / "MEMORY.md").read_text(encoding="utf-8") == big


def test_a_one_word_edit_of_an_oversized_memory_loses_nothing(isolated_env: Path) -> None:
    # The outside attack: an 8,174-character MEMORY.md with one '## Notes' section of
    # hand-written lines; a one-word edit used to leave 0 of its 125 lines.
    _cli("init", "alpha")
    lines = [f"- note {i:03d}: " + "w" * 50 for i in range(125)]
    lines[0] = lines[0][:-5] + " word"
    text = "# Memory\n\n## Notes\n\n" + "\n".join(lines) + "\n"
    text = text[:-1] + "z" * (8174 - len(text)) + "\n"
    assert len(text) == 8174 and text.count("\n- ") == 125
    path = isolated_env / "alpha" / "MEMORY.md"
    path.write_text(text, encoding="utf-8")
    result = _cli("files", "edit", "alpha", "MEMORY.md", "--old", "word", "--new", "verb")
    assert result.exit_code == 0
    assert path.read_text(encoding="utf-8") == text.replace("word", "verb")
    assert "over its 8000-character ceiling" in result.stderr
    assert not (isolated_env / "alpha" / "MEMORY.overflow.md").exists()


def test_moved_lines_are_searchable_and_never_in_the_prompt(isolated_env: Path) -> None:
    from memclaw.workspace.safeguards.provenance import Author

    _cli("init", "alpha")
    agent = Workspace.open(isolated_env).agent("alpha")
    facts = [f"- fact {i:03d} about the quokka colony " + "q" * 60 for i in range(100)]
    result = agent.write("MEMORY.md", "\n".join(facts) + "\n", author=Author.MODEL)
    assert result.moved > 0 and facts[0] not in agent.read("MEMORY.md")
    found = _cli("search", "fact 000 quokka", "--json")
    hits = [json.loads(line) for line in found.stdout.splitlines()]
    assert any(h["file"] == "MEMORY.overflow.md" and "fact 000" in json.dumps(h) for h in hits)
    prompt = _cli("prompt", "alpha").stdout
    assert "fact 000" not in prompt and "fact 099" in prompt
