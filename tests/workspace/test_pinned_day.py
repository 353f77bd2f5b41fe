"""An agent may live on a day of its own (``today:`` in agent.yaml): the bundled demo does,
so its walk-through reads the same on any day, and so can a workspace replayed from a
backup. Dates come from that day; the time of day keeps moving."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path

import pristine
import pytest

from memclaw.dream.run import dream_agent
from memclaw.errors import WorkspaceError
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope

DAY = date(2026, 3, 14)


def _clock(when: datetime) -> Callable[[], datetime]:
    return lambda: when


def test_the_pinned_day_and_the_clocks_time(isolated_env: Path) -> None:
    agent, _ = Workspace.open(isolated_env).init_agent("replay")
    agent.meta_path.write_text(
        agent.meta_path.read_text(encoding="utf-8").replace("files:", f"today: {DAY}\nfiles:"),
        encoding="utf-8",
    )
    later = datetime(2027, 8, 1, 14, 30, tzinfo=UTC)
    agent = Workspace.open(isolated_env, clock=_clock(later)).agent("replay")
    assert agent.now() == datetime(2026, 3, 14, 14, 30, tzinfo=UTC)
    agent.append_daily("- Maya bought a kayak")
    assert (agent.path / "memory" / f"{DAY}.md").is_file()
    agent.set_meta("SOUL.md", enabled=False)  # rewriting agent.yaml keeps the day
    assert Workspace.open(isolated_env).agent("replay").pinned_day == DAY


def test_a_day_that_is_no_day_is_one_clear_error(isolated_env: Path) -> None:
    agent, _ = Workspace.open(isolated_env).init_agent("replay")
    agent.meta_path.write_text("today: someday\nfiles: {}\n", encoding="utf-8")
    with pytest.raises(WorkspaceError, match="'today' must be a day, YYYY-MM-DD"):
        Workspace.open(isolated_env).agent("replay").now()


@pytest.mark.parametrize("moved", [0, 40, 400])
def test_the_demo_dreams_the_same_on_any_day(isolated_env: Path, moved: int) -> None:
    shutil.copytree(pristine.demo(), isolated_env / "demo")
    when = datetime(2026, 12, 5, 9, 0, tzinfo=UTC).timestamp() + moved * 86400
    ws = Workspace.open(isolated_env, clock=_clock(datetime.fromtimestamp(when, UTC)))
    result = dream_agent(Scope(ws.agent("demo")), dry_run=True)
    promoted = [c.text for c in result.report.promoted]
    assert promoted == ["Tomas raised the lotsen HPA maximum from 6 to 10 replicas."]
    assert len(result.report.candidates) == 46
