"""`config edit` as `crontab -e`: a copy is edited, and a copy memclaw would refuse never
replaces the file (it would stop every command, and the cron line, until fixed)."""

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.workspace.config_file import edit_checked

GOOD = "memory_max_chars: 7000\n"
TYPO = "modle: llama3\n"


def _cli(*args: str) -> object:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_a_refused_copy_is_edited_again_and_the_file_never_holds_it(tmp_path: Path) -> None:
    path = tmp_path / "settings" / "memclaw.yaml"
    path.parent.mkdir()
    path.write_text(GOOD, encoding="utf-8")
    seen: list[str] = []

    def editor(copy: Path) -> None:
        seen.append(path.read_text(encoding="utf-8"))  # the real file, while editing
        text = copy.read_text(encoding="utf-8")
        copy.write_text(text + TYPO if "modle" not in text else text.replace("modle", "model"))

    asked: list[str] = []
    outcome = edit_checked(path, editor, lambda why: not asked.append(why))
    assert outcome.saved and path.read_text(encoding="utf-8") == GOOD + "model: llama3\n"
    assert seen == [GOOD, GOOD] and "unknown key 'modle'" in asked[0]
    assert str(path) in asked[0] and ".edit-" not in asked[0]  # the file's name, not the copy's
    assert [p.name for p in path.parent.iterdir()] == ["memclaw.yaml"]  # no copy left behind


def test_without_a_terminal_the_previous_file_is_kept(
    isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _cli("init", "demo")
    (isolated_env / "memclaw.yaml").write_text(GOOD, encoding="utf-8")
    editor = tmp_path / "editor.py"
    editor.write_text(f"import sys\nopen(sys.argv[1], 'a').write({TYPO!r})\n", "utf-8")
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
    result = _cli("config", "edit")
    assert result.exit_code == 1  # type: ignore[attr-defined]
    stderr = result.stderr  # type: ignore[attr-defined]
    assert stderr.count("\n") == 1 and "unknown key 'modle'" in stderr
    assert "kept the previous" in stderr
    assert (isolated_env / "memclaw.yaml").read_text(encoding="utf-8") == GOOD
    assert _cli("status").exit_code == 0  # type: ignore[attr-defined]


def _screen(session: str) -> str:
    done = subprocess.run(
        ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True, check=False
    )
    return done.stdout


def _wait_for(session: str, words: str) -> str:
    for _ in range(300):  # a slow shared machine: up to a minute, never asserted on
        screen = _screen(session)
        if words in screen:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{words!r} never showed:\n{_screen(session)}")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux for a real terminal")
@pytest.mark.parametrize(("answer", "kept"), [("y", False), ("n", True)])
def test_in_a_terminal_it_asks_to_edit_again(
    isolated_env: Path, tmp_path: Path, answer: str, kept: bool
) -> None:
    _cli("init", "demo")
    config = isolated_env / "memclaw.yaml"
    config.write_text(GOOD, encoding="utf-8")
    # First edit: a typo. Second edit (if asked again): the typo fixed.
    editor = tmp_path / "editor.py"
    editor.write_text(
        "import sys\n"
        "p = sys.argv[1]\n"
        "t = open(p).read()\n"
        f"open(p, 'w').write(t.replace('modle', 'model') if 'modle' in t else t + {TYPO!r})\n",
        "utf-8",
    )
    env = {
        "EDITOR": f"{sys.executable} {editor}",
        "MEMCLAW_ROOT": str(isolated_env),
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        "HOME": os.environ["HOME"],
        "NO_COLOR": "1",
    }
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    done = tmp_path / "exit"
    command = f"env {exports} {sys.executable} -m memclaw config edit; echo $? > {done}"
    session = f"memclaw-edit-{os.getpid()}-{answer}"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "30", command],
        check=True,
    )
    try:
        screen = _wait_for(session, "edit again?")
        assert "unknown key 'modle'" in screen
        subprocess.run(["tmux", "send-keys", "-t", session, answer, "Enter"], check=True)
        for _ in range(300):
            if done.exists() and done.read_text().strip():
                break
            time.sleep(0.2)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)
    text = config.read_text(encoding="utf-8")
    if kept:
        assert done.read_text().strip() == "1" and text == GOOD
    else:
        assert done.read_text().strip() == "0" and text == GOOD + "model: llama3\n"
