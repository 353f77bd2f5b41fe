"""The timeline: one line per memory event, newest first.

Events come from the change journal (extract, dream, remember, forget, import,
edit, undo, ...), from dream reports, kept or archived (a dream that changed
nothing is still an event), from the forget log (forget everywhere rewrites
files without the journal, so that no copy of the fact is kept), and from the
files themselves: a memory file whose text is not what the last journalled
change left was edited by hand (or by something memclaw did not journal),
detected at read time; a change a forget explains is the forget's, not a hand edit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from memclaw.changes.receipt import summary
from memclaw.changes.records import ChangeRecord, all_changes
from memclaw.facts.feedback import CONFIRM, REJECT
from memclaw.text.plural import plural
from memclaw.workspace.safeguards.journal import FORGET, IMPORT, sha

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

HAND_EDIT = "hand edit"


@dataclass(frozen=True)
class Event:
    time: str
    kind: str
    text: str
    change: ChangeRecord | None = None
    files: list[str] = field(default_factory=list)
    diff: str = ""

    def to_dict(self, *, with_diff: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "time": self.time,
            "kind": self.kind,
            "text": self.text,
            "files": self.files,
        }
        if self.change is not None:
            data["change"] = self.change.to_dict()
        if with_diff:
            data["diff"] = self.diff
        return data


def _diff(change: ChangeRecord) -> str:
    from memclaw.changes.receipt import file_lines

    rows = []
    for delta in change.files:
        rows.append(f"  {delta.rel}")
        rows.extend(file_lines(delta))
    return "\n".join(rows)


def _from_change(change: ChangeRecord) -> Event:
    text = summary(change, kind=False)
    if change.kind == "undo":
        text += f" (reverted change {change.detail.get('undoes')})"
    if change.undone_by:
        text += f" · undone {change.undone_by}"
    if change.detail.get("session"):
        text += f" · session {change.detail['session']}"
    return Event(
        change.time, change.kind, text, change, [f.rel for f in change.files], _diff(change)
    )


def _from_report(data: dict[str, Any]) -> Event:
    promoted, dropped = len(data.get("promoted", [])), len(data.get("dropped", []))
    contra = len(data.get("contradictions", []))
    text = (
        f"dream {data.get('status', '?')}: {promoted} promoted, {dropped} dropped, "
        f"{plural(contra, 'contradiction')} · {data.get('engine', '')}"
    )
    if data.get("archived"):
        text += f" · {data['archived']}"
    if data.get("reviewed"):
        text += " · reviewed"
    return Event(str(data.get("time", "")), "dream report", text)


def _forgets(scope: Scope) -> list[Event]:
    """Each forget of this scope's facts (the forget log: ids and files, never the text)."""
    from memclaw.workspace.logs import read_log

    found = []
    for record in read_log(scope.agent, "forget"):
        if record.get("owner") != scope.owner:
            continue
        facts = [str(f) for f in record.get("facts", [])]
        files = [str(f) for f in record.get("files", [])]
        text = f"forgot {', '.join(facts) or 'a fact'} everywhere"
        text += f" ({plural(int(record.get('places', 0)), 'place')})"
        found.append(Event(str(record.get("time", "")), "forget", text, files=files))
    return found


_VERDICTS = ("confirmed", "rejected")
_TOLD_ELSEWHERE = (FORGET, CONFIRM, REJECT)


def _feedback(scope: Scope) -> list[Event]:
    """The person's word on facts of this scope: /good, /bad, facts confirm/reject, the card."""
    from memclaw.facts.ledger import facts_of
    from memclaw.facts.store import load_events

    where = {f.id: sorted({p.path for p in f.places}) for f in facts_of(scope)}
    found = []
    for fid, events in load_events(scope.agent).items():
        for event in events:
            if fid in where and str(event.kind) in _VERDICTS:
                said = f"{event.kind} {fid} ({event.source})"
                if event.session:
                    said += f" · session {event.session}"
                found.append(Event(event.time, str(event.kind), said, files=where[fid]))
    return found


def _forgot(forgets: list[Event], rel: str, after: str, before: str | None = None) -> bool:
    """Whether a forget rewrote ``rel`` between ``after`` and ``before`` (None: until now)."""
    return any(
        rel in e.files and e.time >= after and (before is None or e.time <= before) for e in forgets
    )


def _hand_edits(scope: Scope, changes: list[ChangeRecord], forgets: list[Event]) -> list[Event]:
    """Edits memclaw did not make, seen where a file was not what its last change left.

    Between two changes: the later one found a text the earlier one did not leave
    (dated at the later change, when it was seen). Since the last change: the file
    on disk differs now (dated by the file's modification time). Where a forget
    rewrote the file in that window, the difference is the forget's.
    """
    last: dict[str, str | None] = {}
    when: dict[str, str] = {}
    found = []
    for change in changes:
        for delta in change.files:
            # A new agent's import created its files after the history it carried.
            fresh = change.kind == IMPORT and delta.before_sha is None
            if (
                delta.rel in last
                and not fresh
                and delta.before_sha != last[delta.rel]
                and not _forgot(forgets, delta.rel, when[delta.rel], change.time)
            ):
                found.append(
                    Event(
                        change.time,
                        HAND_EDIT,
                        f"{delta.rel} was changed outside memclaw before this {change.kind}",
                        files=[delta.rel],
                    )
                )
            last[delta.rel] = delta.after_sha
            when[delta.rel] = change.time
    for rel, expected in sorted(last.items()):
        path = scope.agent.path / rel
        current = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        if sha(current) == expected or _forgot(forgets, rel, when[rel]):
            continue
        stamp = (
            datetime.fromtimestamp(path.stat().st_mtime, UTC)
            .astimezone()
            .isoformat(timespec="seconds")
            if path.exists()
            else ""
        )
        what = "deleted" if current is None else "changed"
        found.append(
            Event(
                stamp,
                HAND_EDIT,
                f"{rel} {what} outside memclaw since its last recorded change",
                files=[rel],
            )
        )
    return found


def timeline(scope: Scope, *, since: date | None = None) -> list[Event]:
    """Every memory event of ``scope``, newest first; ``since`` keeps those on or after it."""
    from memclaw.dream import report

    changes = all_changes(scope)
    # A forget's mark in the journal (no lines) is told by the forget log below, and a
    # rating (no lines either) by the evidence it left, in :func:`_feedback`.
    events = [_from_change(c) for c in changes if c.files or c.kind not in _TOLD_ELSEWHERE]
    # A dream's change says what it wrote; its report, what it judged (even with no write).
    events += [
        _from_report(d) for d in [*(d for _p, d in report.recent(scope)), *report.archived(scope)]
    ]
    forgets = _forgets(scope)
    events += forgets + _hand_edits(scope, changes, forgets) + _feedback(scope)
    if since is not None:
        events = [e for e in events if e.time[:10] >= since.isoformat()]
    # Times are to the second: events of one second from one source keep the order they
    # happened in, newest first too (each source above lists its events oldest first).
    # Across sources (a change and a forget in one second) that order is not known.
    events.reverse()
    events.sort(key=lambda e: e.time, reverse=True)
    return events
