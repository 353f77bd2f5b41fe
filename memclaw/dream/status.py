"""What `memclaw dream status` shows: last run, next run, latest diary entry, waiting facts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from memclaw.dream.candidates import build_candidates
from memclaw.dream.diary import DIARY, latest_entry
from memclaw.dream.runlog import runs
from memclaw.errors import ConfigError
from memclaw.schedule import next_run

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope


def dream_status(scope: Scope, *, scheduled: Mapping[str, str], top: int = 5) -> dict[str, Any]:
    """The dreaming state of one scope, as plain data (the CLI prints it or its JSON).

    ``scheduled`` is {job: schedule} of the lines really installed in the crontab:
    a next run is only promised for a job cron will start.
    """
    agent, owner = scope.agent, scope.owner
    settings = agent.settings
    now = agent.now()
    records = [r for r in runs(scope) if r.get("status") != "undone"]
    last_changed = next((r for r in reversed(records) if r.get("status") == "updated"), None)

    def upcoming(job: str, enabled: bool) -> str | None:
        expr = scheduled.get(job)
        if not enabled or expr is None:
            return None
        try:
            return next_run(expr, now).isoformat(timespec="minutes")
        except ConfigError:
            return None

    report = build_candidates(scope)
    return {
        "agent": agent.id,
        "owner": owner,
        "enabled": settings.dream_enabled,
        "schedule": settings.dream_cron,
        "scheduled": dict(scheduled),
        "next_run": upcoming("dream", settings.dream_enabled),
        "consolidate_schedule": settings.consolidate_cron,
        "next_consolidation": upcoming("consolidate", settings.consolidate_enabled),
        "last_run": records[-1] if records else None,
        "last_change": last_changed,
        "runs": len(records),
        "latest_entry": latest_entry(scope.read(DIARY)),
        "window": {"start": report.start.isoformat(), "end": report.end.isoformat()},
        "notes": len(report.notes),
        "waiting": [c.to_dict() for c in report.promoted[:top]],
        "waiting_total": len(report.promoted),
    }
