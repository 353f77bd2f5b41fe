"""--executor ray: the same jobs on a local Ray cluster leave the same files as the local runner.

Slow (a Ray cluster takes seconds to start), so one cluster serves the module.
"""

from __future__ import annotations

import hashlib
import logging
import re
import shutil
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from functools import partial
from pathlib import Path

import pytest
import ray

from memclaw.jobs.batch import Target
from memclaw.jobs.runner import consolidate_work, dream_work, run_jobs
from memclaw.workspace import Workspace, ledger
from memclaw.workspace.entries import Entry, format_entries
from memclaw.workspace.scope import Scope

pytestmark = pytest.mark.slow

NOW = "2026-11-29T03:00:00+01:00"
# A clock Ray can ship by reference (a test module's function would not import on a worker).
CLOCK = partial(datetime.fromisoformat, NOW)
TODAY = date(2026, 11, 29)
PREFS = [
    "prefers short answers with commands first.",
    "prefers short answers, commands first, and no summaries.",
    "lives in Gothenburg, in the Majorna district.",
    "has a dog called Knut, a three-year-old Labrador.",
    "learns Swedish in an evening class on Tuesdays.",
    "trains for the Göteborgsvarvet half marathon.",
    "reports to Jonas Ek, the CTO.",
    "writes Python with uv and ruff.",
    "writes Python with uv and with ruff.",
]


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.WARNING)
    yield
    ray.shutdown()


def generate(root: Path, agents: int) -> None:
    ws = Workspace.open(root, env={}, clock=CLOCK)
    for n in range(agents):
        agent, _ = ws.init_agent(f"agent-{n:02d}")
        person = f"Person{n}"
        for offset in (3, 2, 1):
            day = TODAY - timedelta(days=offset)
            agent.append_daily(f"- {person} {PREFS[(n + offset) % 3]}", day=day)
            agent.append_daily(f"- {person} {PREFS[7]}", day=day)
        entries = [
            Entry(f"m-{i:04d}", f"{person} {text}", "preference", date(2026, 11, 1 + i))
            for i, text in enumerate(PREFS)
        ]
        Scope.resolve(agent, None).write(
            "entries/preference.md", format_entries(entries, "Preferences")
        )


def files(root: Path) -> dict[str, str]:
    """Every memory file's digest; .memclaw/ (logs, index, leases) is history, not memory."""
    found = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_dir() or ".memclaw" in rel.parts:
            continue
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"\b[0-9a-f]{12}\b", "<run>", text)  # a dream's random run id
        name = re.sub(r"\b[0-9a-f]{12}\b", "<run>", rel.as_posix())  # and its report's name
        found[name] = hashlib.sha256(text.encode()).hexdigest()
    return found


def run_both(tmp_path: Path, job: str, work: object) -> tuple[Path, Path]:
    template = tmp_path / "template"
    if not template.exists():
        generate(template, 6)
    results = []
    for executor in ("local", "ray"):
        root = tmp_path / f"{job}-{executor}"
        shutil.copytree(template, root)
        ws = Workspace.open(root, env={}, clock=CLOCK)
        targets = [Target(a) for a in ws.agent_ids()]
        summary = run_jobs(ws, job, targets, work, executor=executor, workers=2)  # type: ignore[arg-type]
        assert not summary.failed, summary.failed[0].error
        assert [o.target for o in summary.outcomes] == targets
        results.append(root)
    return results[0], results[1]


def test_dream_on_ray_writes_what_the_local_runner_writes(cluster: None, tmp_path: Path) -> None:
    local, remote = run_both(tmp_path, "dream", partial(dream_work, trigger="cron"))
    assert files(remote) == files(local)
    changed = [n for n in files(local) if n.endswith("MEMORY.md")]
    assert len(changed) == 6
    assert "writes Python with uv and ruff" in (remote / "agent-03" / "MEMORY.md").read_text()
    assert files(remote) != files(tmp_path / "template")  # the dreams did write


def test_consolidate_on_ray_writes_what_the_local_runner_writes(
    cluster: None, tmp_path: Path
) -> None:
    local, remote = run_both(tmp_path, "consolidate", partial(consolidate_work, trigger="cron"))
    assert files(remote) == files(local)
    merged = (remote / "agent-01" / "entries" / "preference.md").read_text()
    assert merged.count("Person1 writes Python") == 1  # the near-duplicate was merged
    (record,) = ledger.read(remote / ".memclaw", "jobs")
    assert record["executor"] == "ray" and record["failed"] == 0
