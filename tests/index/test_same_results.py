"""The index's storage can change (issue 15: contentless full-text table, vacuumed
rebuilds) but what a search finds must not: the hits of a fixed set of queries on a
fixed workspace are compared with those saved from the previous storage.

Regenerate ``data/same_results.json`` only when ranking is meant to change:
``python tests/index/test_same_results.py`` (it prints what changed).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "data" / "same_results.json"
NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
QUERIES = [
    "when is the PostGIS cutover",
    "kanelbullar",
    "勤労感謝の日",
    "Maya",
    "Göteborgsvarvet bib number",
    "cutover window",
    "kayak permit",
    "vet vaccine Knut",
    "sourdough recipe",
    "hyresvärden",
    "Straße gesperrt",
    "東京 会議",
    "データベース",
    "서울 친구",
    "bouncer upgrade latency",
    "parkrun pace",
    "heater landlord",
    "coffee",
    "the",
    "morning review deploy",
]


def _speed_bench() -> ModuleType:
    path = HERE.parent.parent / "benchmarks" / "search_speed.py"
    spec = importlib.util.spec_from_file_location("search_speed_fixture", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_workspace(root: Path) -> None:
    """The demo agent, a synthetic agent of 40 daily notes, and a personal file."""
    sys.path.insert(0, str(HERE.parent))  # tests/, when run as a script
    import pristine

    shutil.copytree(
        pristine.demo(), root / "demo", ignore=shutil.ignore_patterns(".memclaw", "sessions")
    )
    _speed_bench().build_workspace(root, notes=40, lines=60)
    personal = root / "bench" / "owners" / "maya" / "MEMORY.md"
    personal.parent.mkdir(parents=True)
    personal.write_text("# Maya\n\n- Maya keeps her kayak permit in the red folder.\n")


def collect(root: Path) -> dict[str, Any]:
    from memclaw.index import reindex, search
    from memclaw.workspace import Workspace, normalise_owner

    ws = Workspace.open(root, env={}, clock=lambda: NOW)
    for agent_id in ws.agent_ids():
        reindex(ws.agent(agent_id))
    found: dict[str, Any] = {}
    for query in QUERIES:
        for owner in (None, "maya"):
            hits = search(
                ws,
                query,
                owner=normalise_owner(owner) if owner else None,
                limit=8,
                log=False,
            )
            found[f"{query} | {owner}"] = [
                [h.agent, h.file, h.line, h.end_line, round(h.score, 6), h.snippet] for h in hits
            ]
    return found


def test_storage_changes_keep_every_hit_and_score(isolated_env: Path) -> None:
    make_workspace(isolated_env)
    got = collect(isolated_env)
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    assert got.keys() == expected.keys()
    for key, hits in expected.items():
        assert got[key] == hits, key
    assert sum(len(h) for h in got.values()) > 100  # the queries do find things


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        make_workspace(Path(tmp))
        result = collect(Path(tmp))
    if EXPECTED.exists():
        old = json.loads(EXPECTED.read_text(encoding="utf-8"))
        for key in result:
            if old.get(key) != result[key]:
                print(f"changed: {key}", file=sys.stderr)
    EXPECTED.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
