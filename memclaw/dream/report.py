"""The structured report of a dream, next to its DREAMS.md entry, and the monthly archive.

DREAMS.md says in prose what a dream saw; the report says it as data a person
can act on: the lines it promoted into MEMORY.md and those it dropped (each
with its fact id), the contradictions it found, the facts whose trust fell.
A fact's trust "fell" when it is now under ``trust_floor`` and was not at the
previous report (or there was none), or when it lost ``FELL_BY`` or more since
then, floor or not: each report keeps the trust of every remembered fact by id
(numbers, never the text) so the next one can tell. A fact still low and
already shown is not shown again every night.
It lives in the scope's folder as ``dreams/<day>-<run>.json``; the morning card
shows the newest one nobody has reviewed yet and records the review in it.
Reports older than ``archive_keep_days`` roll into ``dreams/archive-YYYY-MM.jsonl``,
one line per report, which the timeline still reads and export carries.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from memclaw.facts.ids import fact_id
from memclaw.gates import find_secrets
from memclaw.text import jsonsafe
from memclaw.workspace.atomic import atomic_write
from memclaw.workspace.safeguards.journal import line_changes

if TYPE_CHECKING:
    from pathlib import Path

    from memclaw.dream.candidates import CandidateReport
    from memclaw.workspace.scope import Scope

_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
REPORTS_DIR = "dreams"
REPORT_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})-([0-9a-f]{6,32})\.json$")
ARCHIVE_NAME = re.compile(r"^archive-(\d{4}-\d{2})\.jsonl$")
LISTED = 20  # contradictions (and facts whose trust fell) a report names
FELL_BY = 0.2  # a drop this large since the last report is news even above the floor


def folder(scope: Scope) -> Path:
    return scope.folder / REPORTS_DIR


def build(
    scope: Scope,
    *,
    run: str,
    status: str,
    engine: str,
    reason: str,
    old: str,
    new: str,
    report: CandidateReport | None,
) -> dict[str, Any]:
    """The report of one dream, from MEMORY.md before and after it and its candidates."""
    from memclaw.dream.candidates import Status

    prefix = scope.prefix
    added, removed, changed = line_changes(old, new)
    promoted = [*added, *(n for _o, n in changed)]

    def fact(text: str, **extra: Any) -> dict[str, Any]:
        shown = _MARKER.sub("", text).strip()  # the statement, as a person reads it
        return {"text": shown, "fact": fact_id(text, prefix), **extra}

    dropped: list[dict[str, Any]] = [fact(t, why="removed from MEMORY.md") for t in removed]
    contradictions = []
    candidates = report.candidates if report else []
    for cand in candidates:
        if cand.status is not Status.CORRECTED or cand.representative.correction:
            # A correction is the truth that replaced a fact: never offered for forgetting.
            continue
        by = cand.corrected_by
        superseded: dict[str, str] = {}
        if by is not None and not find_secrets(by.text):
            superseded = {"superseded_by": by.text.strip(), "by": f"{by.file}:{by.line}"}
        why = "; ".join(cand.reasons) or "corrected"
        contradictions.append(fact(cand.text, why=why, **superseded))
    fell, now = _trust_fell(scope)
    return {
        "run": run,
        "time": scope.agent.now().isoformat(timespec="seconds"),
        "owner": scope.owner,
        "status": status,
        "engine": engine,
        "reason": reason,
        "notes": report.notes if report else [],
        "promoted": [fact(t) for t in promoted if t.strip() and not t.lstrip().startswith("#")],
        "dropped": dropped,
        "contradictions": contradictions[:LISTED],
        # Said once and not kept: counted, not listed; a card is for what changed.
        "one_offs": sum(1 for c in candidates if c.status is Status.ONE_OFF),
        "trust_fell": fell,
        "trust": now,
        "soul": None,
        "reviewed": None,
    }


def _trust_fell(scope: Scope) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """The remembered facts whose trust fell since the last report, and every one's trust now."""
    from memclaw.facts.ledger import facts_of, retention, said_age
    from memclaw.text.plural import plural

    floor = scope.agent.settings.trust_floor
    last = next((d for _p, d in recent(scope)), None) or next(iter(archived(scope)), None)
    before = last.get("trust") if last else None
    before = before if isinstance(before, dict) else {}
    now: dict[str, float] = {}
    fell: list[dict[str, Any]] = []
    for fact in facts_of(scope, durable_only=True):
        trust = round(fact.trust, 3)
        now[fact.id] = trust
        if fact.superseded:
            continue  # a correction replaced it: the contradictions say so
        stale, fixed = retention(scope, fact)
        if fixed:
            continue  # an immutable category's facts are never offered for forgetting
        was = before.get(fact.id)
        was = float(was) if isinstance(was, int | float) else None
        if stale:
            days = plural(round(said_age(scope, fact)), "day")  # the age retention counted
            why = f"last said {days} ago, past its category's time to live"
        elif trust < floor and (was is None or was >= floor):
            why = f"trust {trust:.2f}, under the floor {floor:.2f}"
        elif was is not None and was - trust >= FELL_BY:
            why = f"trust fell from {was:.2f} to {trust:.2f}"
        else:
            continue
        item = {"text": fact.statement, "fact": fact.id, "trust": trust, "was": was, "why": why}
        fell.append(item)
    fell.sort(key=lambda i: i["trust"])
    return fell[:LISTED], now


def write(scope: Scope, data: dict[str, Any]) -> Path:
    """Store a new report; every string passes the secret gate, as log lines do."""
    from memclaw.gates.redaction import redact_data

    data = redact_data(data)
    day = str(data["time"])[:10]
    path = folder(scope) / f"{day}-{data['run']}.json"
    atomic_write(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    return path


def save(path: Path, data: dict[str, Any]) -> None:
    """Rewrite a report (its review, the SOUL diff added later), atomically."""
    atomic_write(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def load(path: Path) -> dict[str, Any] | None:
    try:
        data = jsonsafe.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "run" in data else None


def recent(scope: Scope) -> list[tuple[Path, dict[str, Any]]]:
    """The reports not yet archived, newest first."""
    base = folder(scope)
    if not base.is_dir():
        return []
    found = []
    for path in base.iterdir():
        if REPORT_NAME.match(path.name) and (data := load(path)) is not None:
            found.append((path, data))
    found.sort(key=lambda pair: (str(pair[1].get("time", "")), pair[0].name), reverse=True)
    return found


def archived(scope: Scope) -> list[dict[str, Any]]:
    """Every report in the monthly archives, newest first."""
    base = folder(scope)
    if not base.is_dir():
        return []
    found = []
    for path in sorted(base.iterdir()):
        if not ARCHIVE_NAME.match(path.name):
            continue
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                data = jsonsafe.loads(line)
            except ValueError:
                continue  # a torn line from a crash mid-write
            if isinstance(data, dict):
                found.append({**data, "archived": path.name})
    found.sort(key=lambda d: str(d.get("time", "")), reverse=True)
    return found


def roll(scope: Scope) -> list[str]:
    """Move reports older than ``archive_keep_days`` into their month's archive.

    The archive line is written before the report is removed, and a run already
    in the archive is not added twice: a crash between the two loses nothing.
    """
    keep = scope.agent.settings.archive_keep_days
    cutoff = scope.agent.now() - timedelta(days=keep)
    moved = []
    for path, data in recent(scope):
        try:
            when = datetime.fromisoformat(str(data["time"]))
        except ValueError:
            continue
        if when.replace(tzinfo=None) >= cutoff.replace(tzinfo=None):
            continue
        archive = folder(scope) / f"archive-{when.strftime('%Y-%m')}.jsonl"
        text = archive.read_text(encoding="utf-8") if archive.is_file() else ""
        if f'"run": "{data["run"]}"' not in text:
            line = json.dumps(data, ensure_ascii=False, sort_keys=True) + "\n"
            atomic_write(archive, text + line)
        path.unlink()
        moved.append(archive.name)
    return sorted(set(moved))
