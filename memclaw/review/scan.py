"""Find (and optionally redact) secrets already on disk, wherever memclaw keeps text.

Each agent (and ``_global``) keeps text in six stores, and a secret must not
survive in any of them:

* ``memory``: the markdown files of every scope (core files, daily notes,
  entries, DREAMS.md, ``owners/...``);
* ``sessions``: chat transcripts, ``sessions/*.jsonl`` (owners' ones included);
* ``history``: the previous versions of files, in the ledger;
* ``logs``: the records and documents of the ledger, ``.memclaw/ledger.sqlite``;
* ``chat-history``: the arrow-up input history, in the ledger;
* ``index``: the block text in ``.memclaw/index.sqlite``.

A symlink is never followed, neither read nor rewritten: it could lead out of
the agent folder. Redaction keeps no backup of what it replaces: the only
difference between the two versions is the secret.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.errors import WorkspaceError
from memclaw.gates.redaction import redact_data, redact_lines
from memclaw.review.scan_index import clean_index, index_findings
from memclaw.text import jsonsafe
from memclaw.workspace import ledger
from memclaw.workspace.agent import Agent
from memclaw.workspace.atomic import atomic_write
from memclaw.workspace.paths import GLOBAL_DIR
from memclaw.workspace.reading import read_text
from memclaw.workspace.safeguards import history

if TYPE_CHECKING:
    from memclaw.gates.secrets import SecretFinding
    from memclaw.workspace.agent import Workspace


class Store(StrEnum):
    MEMORY = "memory"
    SESSIONS = "sessions"
    HISTORY = "history"
    LOGS = "logs"
    CHAT_HISTORY = "chat-history"
    INDEX = "index"


@dataclass(frozen=True)
class Finding:
    file: str  # relative to the workspaces root
    line: int
    kind: str
    store: str = Store.MEMORY
    source: str | None = None  # for the index: the indexed file the block came from


@dataclass
class StoreCount:
    files: int = 0
    findings: int = 0
    redacted: int = 0


@dataclass
class ScanReport:
    files_scanned: int = 0
    findings: list[Finding] = field(default_factory=list)
    redacted: list[str] = field(default_factory=list)  # files rewritten
    unreadable: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)  # symlinks left alone
    # Ledgers that still hold an old copy of what was redacted: another process reading
    # one kept its write-ahead log from being folded in (see ``ledger.scrub``).
    held: list[str] = field(default_factory=list)
    stores: dict[str, StoreCount] = field(
        default_factory=lambda: {str(s): StoreCount() for s in Store}
    )

    def to_dict(self) -> dict[str, Any]:
        return {
            "files_scanned": self.files_scanned,
            "findings": [f.__dict__ for f in self.findings],
            "redacted": self.redacted,
            "unreadable": self.unreadable,
            "links": self.links,
            "held": self.held,
            "stores": {name: count.__dict__ for name, count in self.stores.items()},
        }

    def add(self, found: list[Finding], store: Store) -> None:
        self.findings.extend(found)
        self.stores[store].findings += len(found)


def _store_of(rel: tuple[str, ...]) -> Store | None:
    """Which store a file (its path parts relative to the agent folder) belongs to."""
    name = rel[-1]
    if any(part.startswith(".") for part in rel):
        return None
    if name.endswith(".md"):
        return Store.MEMORY
    if name.endswith(".jsonl") and len(rel) >= 2 and rel[-2] == "sessions":
        return Store.SESSIONS
    return None


def _files(base: Path, report: ScanReport, root: Path) -> list[tuple[Path, Store]]:
    """Every file of a store under ``base``; symlinks are listed in the report, not followed."""
    found = []
    for folder, dirs, names in os.walk(base, followlinks=False):
        here = Path(folder)
        for name in sorted([*dirs, *names]):
            path = here / name
            if path.is_symlink():
                report.links.append(path.relative_to(root).as_posix())
        dirs.sort()
        for name in sorted(names):
            path = here / name
            if path.is_symlink() or not path.is_file():
                continue  # a pipe or a device is no store's file, and reading it would block
            store = _store_of(path.relative_to(base).parts)
            if store is not None:
                found.append((path, store))
    return found


def _read(path: Path) -> str:
    """The file's text, refusing to open it through a symlink (it may have just become one)."""
    return read_text(path, follow_links=False)


def _redact_jsonl(text: str) -> str:
    from memclaw.gates import contains_secret, redact

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
        lines.append(json.dumps(redact_data(data), ensure_ascii=False) + ending)
    return "".join(lines)


def _redacted(text: str, *, jsonl: bool) -> str:
    from memclaw.gates import redact

    return _redact_jsonl(text) if jsonl else redact(text)


def _findings(text: str, *, jsonl: bool) -> list[SecretFinding]:
    from memclaw.gates import find_secrets

    return _jsonl_findings(text) if jsonl else find_secrets(text)


def _jsonl_findings(text: str) -> list[SecretFinding]:
    """The secrets of JSON-lines text, judged in each string as it was written (and as
    ``--redact`` cleans it): one record's strings side by side are no sentence, and a
    "passwords" in one must not make a path in the next look like a credential."""
    from memclaw.gates import find_secrets

    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            strings = list(_strings(jsonsafe.loads(line)))
        except json.JSONDecodeError:
            strings = [line]
        found += [replace(f, line=number) for s in strings for f in find_secrets(s)]
    return found


def _kinds(value: Any) -> list[str]:
    """The kind of each secret in the strings of a record or document."""
    from memclaw.gates import find_secrets

    return [f.kind for text in _strings(value) for f in find_secrets(text)]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _scan_folder(holder: Agent, root: Path, report: ScanReport, redact: bool) -> None:
    changed = False
    for path, store in _files(holder.path, report, root):
        report.files_scanned += 1
        report.stores[store].files += 1
        shown = path.relative_to(root).as_posix()
        try:
            text = _read(path)
        except (UnicodeDecodeError, OSError):
            report.unreadable.append(shown)
            continue
        found = _findings(text, jsonl=store is Store.SESSIONS)
        report.add([Finding(shown, f.line, f.kind, store) for f in found], store)
        if found and redact and _rewrite(holder, path, store):
            changed = True
            report.redacted.append(shown)
            report.stores[store].redacted += 1
    _scan_ledger(holder, root, report, redact=redact)
    _scan_index(holder, root, report, redact=redact, changed=changed)


def _scan_ledger(holder: Agent, root: Path, report: ScanReport, *, redact: bool) -> None:
    """Each log record and document (the inbox), judged string by string as it was
    written; with ``redact``, those holding a secret are redacted in the ledger."""
    path = ledger.ledger_path(holder.meta_dir)
    if path.is_symlink():
        return
    shown = path.relative_to(root).as_posix()
    try:
        streams = ledger.streams(holder.meta_dir)  # takes in the logs of an agent from before it
        names = ledger.document_names(holder.meta_dir)
    except WorkspaceError:
        report.unreadable.append(shown)  # damaged: doctor's state check names it
        return
    _scan_history(holder, root, report, redact=redact)
    names = [n for n in names if not n.startswith(history.FOLDER)]
    if not streams and not names:
        return
    report.files_scanned += 1
    report.stores[Store.LOGS].files += 1
    found = []
    for stream in streams:
        for number, record in enumerate(ledger.read(holder.meta_dir, stream), start=1):
            found += [
                Finding(f"{shown}#{stream}", number, kind, Store.LOGS) for kind in _kinds(record)
            ]
    documents = {name: ledger.load(holder.meta_dir, name)[0] for name in names}
    typed = {n: d for n, d in documents.items() if n.startswith("chat-history/")}
    for name, document in documents.items():
        if name not in typed:
            found += [Finding(f"{shown}#{name}", 1, kind, Store.LOGS) for kind in _kinds(document)]
    report.add(found, Store.LOGS)
    if typed:
        _scan_typed(holder, shown, typed, report, redact=redact)
    if not (found and redact):
        return
    ledger.edit(
        holder.meta_dir, lambda _stream, record: redact_data(record) if _kinds(record) else record
    )
    for name, document in documents.items():
        if name not in typed and _kinds(document):
            ledger.save(holder.meta_dir, name, redact_data(document))
    _fold(holder, shown, report)
    report.redacted.append(shown)
    report.stores[Store.LOGS].redacted += 1


def _scan_history(holder: Agent, root: Path, report: ScanReport, *, redact: bool) -> None:
    """The previous versions of files, each judged as the file it was."""
    changed = False
    for rel, names in history.every_version(holder).items():
        jsonl = rel.endswith(".jsonl")  # a previous version of a transcript
        for name in names:
            shown = (holder.path / name).relative_to(root).as_posix()
            report.files_scanned += 1
            report.stores[Store.HISTORY].files += 1
            text = history.read(holder, name)
            if text is None:
                report.unreadable.append(shown)
                continue
            found = _findings(text, jsonl=jsonl)
            report.add(
                [Finding(shown, f.line, f.kind, Store.HISTORY) for f in found], Store.HISTORY
            )
            if not (found and redact):
                continue
            with holder.lock():
                text = history.read(holder, name)  # re-read: it may have changed since
                if text is not None:
                    history.rewrite(holder, name, _redacted(text, jsonl=jsonl))
            changed = True
            report.redacted.append(shown)
            report.stores[Store.HISTORY].redacted += 1
    if changed:
        _fold(holder, ledger.ledger_path(holder.meta_dir).relative_to(root).as_posix(), report)


def _fold(holder: Agent, shown: str, report: ScanReport) -> None:
    """Leave no old copy of what was redacted in the ledger's file (``shown``), or say
    that one is still there."""
    if not ledger.forget_old_versions(holder.meta_dir) and shown not in report.held:
        report.held.append(shown)


def _scan_typed(
    holder: Agent, shown: str, typed: dict[str, Any], report: ScanReport, *, redact: bool
) -> None:
    """The chat's input history, judged as the text it is, lines together (a pasted key
    spans lines, none of which looks like a key alone); redacted as the chat cleans it."""
    from memclaw.gates import find_secrets

    for name, lines in typed.items():
        lines = [str(line) for line in lines] if isinstance(lines, list) else []
        found = [
            Finding(f"{shown}#{name}", f.line, f.kind, Store.CHAT_HISTORY)
            for f in find_secrets("\n".join(lines))
        ]
        report.stores[Store.CHAT_HISTORY].files += 1
        report.add(found, Store.CHAT_HISTORY)
        if found and redact:
            ledger.save(holder.meta_dir, name, redact_lines(lines))
            _fold(holder, shown, report)
            report.redacted.append(f"{shown}#{name}")
            report.stores[Store.CHAT_HISTORY].redacted += 1


def _scan_index(
    holder: Agent, root: Path, report: ScanReport, *, redact: bool, changed: bool
) -> None:
    from memclaw.index.store import index_path

    path = index_path(holder.path)
    if not path.is_file() or path.is_symlink():
        return
    shown = path.relative_to(root).as_posix()
    report.files_scanned += 1
    report.stores[Store.INDEX].files += 1
    found = index_findings(holder.path)
    if found is None:
        report.unreadable.append(shown)
        return
    report.add([Finding(shown, f.line, f.kind, Store.INDEX, f.source) for f in found], Store.INDEX)
    if redact and (found or changed):
        now = holder.workspace.clock().isoformat(timespec="seconds")
        with holder.lock():
            clean_index(holder.path, is_global=holder.id == GLOBAL_DIR, now=now)
        report.redacted.append(shown)
        report.stores[Store.INDEX].redacted += 1


def _rewrite(holder: Agent, path: Path, store: Store) -> bool:
    with holder.lock():
        if path.is_symlink():
            return False
        current = _read(path)  # re-read: it may have changed since
        cleaned = _redacted(current, jsonl=store is Store.SESSIONS)
        if cleaned == current:
            return False
        # Written directly, not through Agent.write: a ceiling must never cut a file
        # that is only being cleaned, and most of these files are not markdown.
        atomic_write(path, cleaned)
    return True


def scan_secrets(
    workspace: Workspace, agents: Sequence[str] | None = None, *, redact: bool = False
) -> ScanReport:
    """Secrets in every store of ``agents`` (all agents and ``_global`` when None).

    With ``redact``, each file with findings is rewritten in place (atomically)
    with the secrets replaced by ``[REDACTED:<kind>]``, and the index is synced,
    compacted and vacuumed so that no replaced text is left in the SQLite file.
    """
    report = ScanReport()
    ids = list(agents) if agents is not None else workspace.agent_ids()
    for agent_id in ids:
        _scan_folder(workspace.agent(agent_id), workspace.root, report, redact)
    if agents is None and workspace.global_dir.is_dir():
        holder = Agent(workspace, GLOBAL_DIR, workspace.global_dir)
        _scan_folder(holder, workspace.root, report, redact)
    return report
