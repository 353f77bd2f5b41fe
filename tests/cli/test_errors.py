"""Bad input: one clear line on stderr, exit 1 (2 for usage), and nothing written."""

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app

# Shaped like a GitHub personal access token: the secret gate must refuse it.
TOKEN = "ghp_R8x2Kq9LmZ4vT1wY7nB3cD6fH0jP5sA2eG9u"
SECRET = f"- my github token is {TOKEN}"


def _cli(*args: str, input: str | bytes | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=input, catch_exceptions=False)


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.name.endswith(".lock")
    }


@pytest.fixture
def seeded(isolated_env: Path) -> Path:
    assert _cli("init", "alpha").exit_code == 0
    return isolated_env


def _assert_one_line_error(result: Any, code: int, *needles: str) -> None:
    assert result.exit_code == code, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in lines[0]


@pytest.mark.parametrize(
    ("args", "code", "needles"),
    [
        (["files", "read", "nobody", "MEMORY.md"], 2, ["nobody", "memclaw init nobody"]),
        (["prompt", "nobody"], 2, ["nobody"]),
        (["prompt", "alpah"], 2, ["did you mean 'alpha'?"]),
        (["files", "list", "../x"], 1, ["../x"]),
        (["init", "../x"], 1, ["../x"]),
        (["init", ".hidden"], 1, [".hidden"]),
        (["files", "read", "alpha", "notes.txt"], 1, ["notes.txt", ".md"]),
        (["files", "read", "alpha", "../beta/MEMORY.md"], 1, [".."]),
        (["files", "read", "alpha", "/etc/passwd.md"], 1, ["absolute"]),
        (["files", "read", "alpha", "MISSING.md"], 1, ["MISSING.md"]),
        (["files", "write", "alpha", "../x.md", "-c", "hi"], 1, [".."]),
        (["files", "write", "alpha", "x.txt", "-c", "hi"], 1, ["x.txt"]),
        (["files", "write", "alpha", ".memclaw/agent.md", "-c", "hi"], 1, ["hidden"]),
        (["files", "edit", "alpha", "MEMORY.md", "--old", "nope", "--new", "x"], 1, ["not found"]),
        (["files", "edit", "alpha", "MEMORY.md", "--old", "## ", "--new", "x"], 1, ["times"]),
        (["files", "edit", "alpha", "GONE.md", "--old", "a", "--new", "b"], 1, ["GONE.md"]),
        (["files", "write", "alpha", "NOTES.md", "-c", SECRET], 1, ["secret"]),
        (["files", "write", "alpha", "[/x].md", "-c", SECRET], 1, ["[/x].md"]),
        (["files", "write", "alpha", "a" * 250 + ".md", "-c", "hi"], 1, ["200 bytes"]),
        (["files", "write", "alpha", "a" * 300 + ".md", "-c", "hi"], 1, ["200 bytes"]),
        (["files", "write", "alpha", "é" * 120 + ".md", "-c", "hi"], 1, ["200 bytes"]),
        (["files", "write", "alpha", "d/" * 600 + "x.md", "-c", "hi"], 1, ["1024 bytes"]),
        (["files", "read", "alpha", "a" * 300 + ".md"], 1, ["200 bytes"]),
        (["files", "edit", "alpha", "a" * 300 + ".md", "--old", "a", "--new", "b"], 1, ["200"]),
        (["prompt", "alpha", "--owner", "bad owner:[/x]"], 2, ["[/x]"]),
        (["--set", "nope=1", "status"], 2, ["nope"]),
        (["--set", "memory_max_char=1", "status"], 2, ["did you mean 'memory_max_chars'?"]),
        (["--set", "memory_max_chars=lots", "status"], 1, ["memory_max_chars"]),
        (["--set", "memory_max_chars", "status"], 1, ["KEY=VALUE"]),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(
    seeded: Path, args: list[str], code: int, needles: list[str]
) -> None:
    before = _tree(seeded)
    _assert_one_line_error(_cli(*args), code, *needles)
    assert _tree(seeded) == before


def test_non_utf8_stdin_is_refused(seeded: Path) -> None:
    before = _tree(seeded)
    result = _cli("files", "write", "alpha", "MEMORY.md", input=b"# Memory\n\ncaf\xe9\n")
    _assert_one_line_error(result, 2, "UTF-8")
    assert _tree(seeded) == before


def test_chat_refuses_non_utf8_or_empty_stdin(seeded: Path) -> None:
    before = _tree(seeded)
    _assert_one_line_error(_cli("chat", "alpha", input=b"caf\xe9 au lait\n"), 2, "UTF-8")
    _assert_one_line_error(_cli("chat", "alpha", input=b" \n"), 2, "no message")
    assert _tree(seeded) == before


def test_secret_piped_on_stdin_is_refused(seeded: Path) -> None:
    before = _tree(seeded)
    result = _cli("files", "write", "alpha", "MEMORY.md", input=f"# Memory\n\n{SECRET}\n")
    _assert_one_line_error(result, 1, "secret")
    assert TOKEN not in result.stderr  # the error never echoes the secret
    assert _tree(seeded) == before


def test_invalid_root_settings_file(seeded: Path) -> None:
    (seeded / "memclaw.yaml").write_text("memory_max_chars: 100\nbogus_key: 1\n", "utf-8")
    before = _tree(seeded)
    for args in (["status"], ["files", "write", "alpha", "NOTES.md", "-c", "x"], ["init", "b"]):
        _assert_one_line_error(_cli(*args), 1, "memclaw.yaml:2", "bogus_key")
    assert _tree(seeded) == before


def test_usage_errors_exit_2(seeded: Path) -> None:
    missing = _cli("files", "read", "alpha")
    assert missing.exit_code == 2
    unknown = _cli("frobnicate")
    assert unknown.exit_code == 2
    bad_flag = _cli("status", "--nope")
    assert bad_flag.exit_code == 2


def test_debug_shows_the_traceback(seeded: Path) -> None:
    from memclaw.errors import AgentNotFoundError

    with pytest.raises(AgentNotFoundError):
        _cli("--debug", "prompt", "nobody")


def test_a_root_that_is_a_file_is_one_line(isolated_env: Path) -> None:
    result = _cli("--root", "/dev/null", "init", "alpha")
    _assert_one_line_error(result, 1, "/dev/null")


def test_a_settings_file_that_is_a_folder_is_refused(seeded: Path) -> None:
    (seeded / "memclaw.yaml").mkdir()
    before = _tree(seeded)
    _assert_one_line_error(_cli("status"), 1, "memclaw.yaml", "folder")
    assert _tree(seeded) == before


def test_a_ratio_above_one_is_refused(seeded: Path) -> None:
    (seeded / "memclaw.yaml").write_text("dream_max_loss_ratio: 5\n", "utf-8")
    before = _tree(seeded)
    _assert_one_line_error(_cli("status"), 1, "memclaw.yaml:1", "dream_max_loss_ratio")
    assert _tree(seeded) == before


@pytest.mark.parametrize(
    "args",
    [
        ["status", "--json"],
        ["search", "anything"],
        ["reindex"],
        ["stats"],
        ["dream", "--all", "--dry-run"],
        ["scan"],
    ],
)
def test_a_home_root_leaves_unrelated_folders_alone(tmp_path: Path, args: list[str]) -> None:
    home = tmp_path / "home"
    (home / "Documents").mkdir(parents=True)
    (home / "Documents" / "taxes.txt").write_text("2025\n", "utf-8")
    assert _cli("--root", str(home), "init", "alpha").exit_code == 0
    result = _cli("--root", str(home), *args)
    assert "Documents" not in result.stdout
    assert sorted(p.name for p in (home / "Documents").iterdir()) == ["taxes.txt"]
    named = _cli("--root", str(home), "search", "2025", "--agent", "Documents")
    assert named.exit_code == 2
    assert sorted(p.name for p in (home / "Documents").iterdir()) == ["taxes.txt"]
