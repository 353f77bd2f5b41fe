"""The public API: the README's example runs as written, and `import memclaw` stays cheap."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import memclaw


def test_the_readme_example_runs_on_real_files(demo_agent: Path, isolated_env: Path) -> None:
    ws = memclaw.open_workspace(isolated_env)
    maya = memclaw.Scope.resolve(ws.agent("demo"), "user:maya")
    assert memclaw.remember(maya, "Maya prefers rooibos tea over coffee").entry is not None
    hits = memclaw.search(ws, "rooibos", owner=maya.owner)
    assert any("rooibos" in hit.text for hit in hits)
    assert all(hit.owner in (None, "user:maya") for hit in hits)
    said = [{"role": "user", "content": "I moved to Lisbon last month and love the trams."}] * 3
    assert memclaw.extract_conversation(maya, said, force=True).status in (
        "written",
        "nothing-to-keep",
    )
    assert memclaw.dream_agent(maya, dry_run=True).agent == "demo"
    backup = memclaw.export_snapshot(ws.agent("demo"), [memclaw.normalise_owner("maya")]).data
    result = memclaw.import_snapshot(ws, "demo-copy", memclaw.read_snapshot(backup))
    assert result.applied and (isolated_env / "demo-copy" / "MEMORY.md").is_file()


def test_every_exported_name_resolves() -> None:
    for name in memclaw.__all__:
        assert getattr(memclaw, name) is not None


def test_importing_memclaw_loads_nothing_else_of_it() -> None:
    code = "import sys, memclaw; print(sorted(m for m in sys.modules if m.startswith('memclaw')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['memclaw']"


def test_no_subpackage_shadows_an_exported_name() -> None:
    # Importing a subpackage binds it on its parent: one named like an export (a package
    # ``memclaw/forget`` beside the ``forget`` function) would replace the function.
    code = (
        "import importlib, pkgutil, memclaw\n"
        "for m in pkgutil.walk_packages(memclaw.__path__, 'memclaw.'):\n"
        "    if not m.name.startswith(('memclaw.mcp', 'memclaw.browse', 'memclaw.__main__')):\n"
        "        importlib.import_module(m.name)\n"
        "print([n for n in memclaw.__all__ if isinstance(getattr(memclaw, n), type(memclaw))])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
