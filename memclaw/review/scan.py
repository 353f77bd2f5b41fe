"""Find (and optionally redact) secrets that are already on disk in memory files.

Scans every markdown file of an agent in every scope (core files, daily
notes, entries, DREAMS.md, owners/...) and its chat sessions
(``sessions/*.jsonl``), plus ``_global/``. ``.memclaw/`` is not scanned: it
holds logs and the backups that a redaction itself creates.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.text import jsonsafe
from memclaw.workspace import history
from memclaw.workspace.agent import Agent
from memclaw.workspace.atomic import atomic_write
from memclaw.workspace.paths import GLOBAL_DIR, META_DIR

if TYPE_CHECKING:
    from memclaw.workspace.agent import Workspace


@dataclass(frozen=True)
class Finding:
    file: str  # relative to the workspaces root
    line: int
    kind: str


@dataclass
class ScanReport:
    files_scanned: int = 0
    findings: list[Finding] = field(default_factory=list)
    redacted: list[str] = field(default_factory=list)  # files rewritten
    backups: list[str] = field(default_factory=list)  # their previous versions
    unreadable: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "files_scanned": self.files_scanned,
            "findings": [f.__dict__ for f in self.findings],
            "redacted": self.redacted,
            "backups": self.backups,
            "unreadable": self.unreadable,
        }


def _files(base: Path) -> list[Path]:
    found = []
    for path in sorted(base.rglob("*")):
        rel = path.relative_to(base)
        if any(part.startswith(".") for part in rel.parts) or META_DIR in rel.parts:
            continue
        if path.is_file() and (
            path.suffix == ".md" or (path.suffix == ".jsonl" and rel.parent.name == "sessions")
        ):
            found.append(path)
    return found


def _redact_json(value: Any) -> Any:
    from memclaw.gates import redact

    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [_redact_json(item) for item in value]
    if isinstance(value, dict):
        return {key: _redact_json(item) for key, item in value.items()}
    return value


def _redacted_text(path: Path, text: str) -> str:
    from memclaw.gates import contains_secret, redact

    if path.suffix != ".jsonl":
        return redact(text)
    lines = []
    for line in text.splitlines(keepends=True):
        if not contains_secret(line):
            lines.append(line)
            continue
        try:
            # Redacting inside the parsed strings keeps every line valid JSON.
            data = jsonsafe.loads(line)
        except json.JSONDecodeError:
            lines.append(redact(line))
            continue
        ending = "\n" if line.endswith("\n") else ""
        lines.append(json.dumps(_redact_json(data), ensure_ascii=False) + ending)
    return "".join(lines)


def _scan_folder(holder: Agent, root: Path, report: ScanReport, redact: bool) -> None:
    from memclaw.gates import find_secrets

    changed = False
    for path in _files(holder.path):
        report.files_scanned += 1
        shown = path.relative_to(root).as_posix()
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            report.unreadable.append(shown)
            continue
        found = find_secrets(text)
        report.findings.extend(Finding(shown, f.line, f.kind) for f in found)
        if found and redact:
            changed = _rewrite(holder, path, shown, report) or changed
    if changed:
        _sync_index(holder)


def _sync_index(holder: Agent) -> None:
    # The index still holds the old text until it syncs; sync now, not at the next search.
    from memclaw import index

    if holder.id == GLOBAL_DIR:
        index.sync_global(holder.workspace)
    else:
        index.sync_agent(holder)


def _rewrite(holder: Agent, path: Path, shown: str, report: ScanReport) -> bool:
    rel = path.relative_to(holder.path).as_posix()
    with holder.lock():
        current = path.read_text(encoding="utf-8")  # re-read: it may have changed since
        cleaned = _redacted_text(path, current)
        if cleaned == current:
            return False
        backup = history.save(holder, rel, current)
        # Written directly, not through Agent.write: a ceiling must never cut a file
        # that is only being cleaned, and .jsonl sessions are not markdown.
        atomic_write(path, cleaned)
    report.redacted.append(shown)
    report.backups.append(backup.relative_to(holder.workspace.root).as_posix())
    return True


def scan_secrets(
    workspace: Workspace, agents: Sequence[str] | None = None, *, redact: bool = False
) -> ScanReport:
    """Secrets in the memory files of ``agents`` (all agents and ``_global`` when None).

    With ``redact``, each file with findings is rewritten with the secrets
    replaced by ``[REDACTED:<kind>]``; its previous version goes to
    ``.memclaw/history/`` (delete those backups once the credential is rotated).
    """
    report = ScanReport()
    ids = list(agents) if agents is not None else workspace.agent_ids()
    for agent_id in ids:
        _scan_folder(workspace.agent(agent_id), workspace.root, report, redact)
    if agents is None and workspace.global_dir.is_dir():
        holder = Agent(workspace, GLOBAL_DIR, workspace.global_dir)
        _scan_folder(holder, workspace.root, report, redact)
    return report
