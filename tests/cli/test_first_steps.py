"""A newcomer's first commands: init says what to do next; Tab completes agents and keys."""

from pathlib import Path

from typer.testing import CliRunner

from memclaw.cli.app import app


def _complete(words: str) -> list[str]:
    env = {
        "_MEMCLAW_COMPLETE": "complete_bash",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)),
    }
    result = CliRunner().invoke(app, [], env=env, prog_name="memclaw")
    return result.stdout.split()


def test_init_names_the_next_step(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["init", "maya"], catch_exceptions=False)
    assert "next: `memclaw chat maya`" in result.stderr
    elsewhere = str(tmp_path / "agents")
    result = CliRunner().invoke(app, ["--root", elsewhere, "init", "bo"], catch_exceptions=False)
    assert f"next: `memclaw --root {elsewhere} chat bo`" in result.stderr


def test_tab_completes_agent_names_and_setting_keys(tmp_path: Path) -> None:
    for name in ("alpha", "beta", "alps"):
        CliRunner().invoke(app, ["init", name], catch_exceptions=False)
    assert _complete("memclaw files list al") == ["alpha", "alps"]
    assert _complete("memclaw chat ") == ["alpha", "alps", "beta"]
    assert _complete("memclaw dream run b") == ["beta"]
    other = tmp_path / "other"
    CliRunner().invoke(app, ["--root", str(other), "init", "gamma"], catch_exceptions=False)
    assert _complete(f"memclaw --root {other} prompt ") == ["gamma"]
    assert _complete("memclaw config get memory_m") == ["memory_max_chars"]
    assert "dream_cron" in _complete("memclaw config set dream_")
