"""Every place one scope keeps text, and how each loses a fact.

A scope's places (its folder is ``Scope.folder``; the team's excludes ``owners/``):

* ``memory``: its markdown files; a fact line goes whole, an entry goes whole,
  the dream diary (``DREAMS.md``, ``dreams/``) loses only the sentence;
* ``sessions``: ``sessions/*.jsonl`` transcripts, sentence by sentence in
  every message (tool-call arguments included);
* ``history``: the previous versions of its files, in the ledger, cleaned as the
  file itself is;
* ``logs``: the records of the ledger (``.memclaw/ledger.sqlite``) that belong to
  the scope (another owner's records are never touched);
* ``chat-history``: the scope's arrow-up input history, in the ledger: a line that
  said the fact goes;
* ``inbox``: the contradictions waiting in the ledger that state it on either side;
* ``state``: any other JSON-lines file under ``.memclaw/``, record by record as a log;
* ``state`` too: the scope's documents in the ledger (what SOUL.md learned, for
  the morning card): one that says the fact is dropped;
* ``guard``: the loss guard's baseline of its files, in the ledger (dropped: the
  next guarded rewrite takes the file as it now is for its baseline, as after any
  hand edit);
* ``summaries``: the chat's cached summaries of the scope's sessions (dropped: a
  rebuildable cache, the next long turn summarises the cleaned transcript again).

The index is cleaned separately (see :mod:`memclaw.erasure.run`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.erasure.match import MARK
from memclaw.errors import UsageError, WorkspaceError
from memclaw.extract.forgotten import LOG as FORGOTTEN_LOG
from memclaw.facts import inbox as fact_inbox
from memclaw.text import jsonsafe
from memclaw.workspace import ledger
from memclaw.workspace.atomic import atomic_write
from memclaw.workspace.entries import ENTRIES_DIR, parse_entries, splice_entries
from memclaw.workspace.owners import OWNERS_DIR, normalise_owner
from memclaw.workspace.reading import read_text
from memclaw.workspace.safeguards import history
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.erasure.match import Matcher
    from memclaw.workspace.agent import Agent

DIARY = "DREAMS.md"
# A diary line's list marker and bold label stay: "- **Held back:** [forgotten]".
_LEAD = re.compile(r"^\s*(?:(?:[-*+]|\d+[.)])\s+)?(?:\*\*[^*\n]+\*\*:?\s*)?")
_HEADING = re.compile(r"^\s*#+\s+")
DIARY_ARCHIVE = "dreams/"
SESSIONS = "sessions"
# Folders of .memclaw/ walked on their own above.
_OWN_WALK = frozenset({"logs", SESSIONS})


class Store(StrEnum):
    MEMORY = "memory"
    SESSIONS = "sessions"
    HISTORY = "history"
    LOGS = "logs"
    CHAT_HISTORY = "chat-history"
    GUARD = "guard"
    SUMMARIES = "summaries"  # the chat's summary cache of a session
    STATE = "state"  # other JSON-lines records under .memclaw/
    INBOX = "inbox"  # contradictions waiting in the fact layer's inbox


class Kind(StrEnum):
    """How a file's text loses the fact."""

    LINES = "lines"  # a memory file: matching lines go
    TYPED = "typed"  # the input history: lines that said the fact go (``Matcher.typed``)
    ENTRIES = "entries"  # an entries file: matching entries go
    PROSE = "prose"  # the dream diary: matching sentences become [forgotten]
    JSONL = "jsonl"  # a transcript: matching sentences inside each message
    LOG = "log"  # a log: like a transcript, for the scope's records only
    DROP = "drop"  # derived state holding the fact: removed
    DOCUMENTS = "documents"  # the scope's documents in the ledger: one holding it is removed
    ITEMS = "items"  # the contradiction inbox: items of the scope stating it are removed


@dataclass
class Place:
    store: Store
    kind: Kind
    path: Path
    shown: str  # relative to the agent folder
    count: int = 0  # lines, entries, sentences or records that change
    lines: list[int] = field(default_factory=list)  # line numbers (memory and transcripts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "store": str(self.store),
            "file": self.shown,
            "count": self.count,
            "lines": self.lines,
        }


def in_scope(scope: Scope, rel: str) -> bool:
    """True when ``rel`` (relative to the agent folder) is one of the scope's files."""
    if scope.prefix:
        return rel.startswith(scope.prefix)
    return not rel.startswith(OWNERS_DIR + "/")


def kind_of(rel: str) -> Kind:
    name = rel.rsplit("/", 1)[-1]
    local = (
        rel.split("/", 2)[2] if rel.startswith(OWNERS_DIR + "/") and rel.count("/") >= 2 else rel
    )
    if name.endswith(".jsonl"):
        return Kind.JSONL
    if name == DIARY or local.startswith(DIARY_ARCHIVE):
        return Kind.PROSE
    if local.startswith(ENTRIES_DIR + "/"):
        return Kind.ENTRIES
    return Kind.LINES


def rewrite(kind: Kind, text: str, matcher: Matcher, scope: Scope) -> tuple[str, list[int], int]:
    """(new text, the changed line numbers, how many pieces changed) of one file."""
    if kind is Kind.LINES:
        kept, gone = [], []
        for number, line in enumerate(text.splitlines(keepends=True), 1):
            heading = _HEADING.match(line)
            if heading and matcher.says(line[heading.end() :]):
                # A heading goes to [forgotten], not away: the section under it stays.
                gone.append(number)
                kept.append(heading.group(0) + MARK + "\n")
            elif not heading and matcher.fact_line(line):
                gone.append(number)
            else:
                kept.append(line)
        return "".join(kept), gone, len(gone)
    if kind is Kind.ENTRIES:
        entries = parse_entries(text)
        kept_entries = [e for e in entries if not matcher.fact_line(e.text)]
        if len(kept_entries) == len(entries):
            return text, [], 0
        gone_lines = [line_of(text, e.text) for e in entries if e not in kept_entries]
        return splice_entries(text, kept_entries, ""), gone_lines, len(entries) - len(kept_entries)
    if kind is Kind.PROSE:
        out, changed, total = [], [], 0
        for number, line in enumerate(text.splitlines(keepends=True), 1):
            lead = _LEAD.match(line)
            head = lead.group(0) if lead else ""
            new, count = matcher.redact(line.rstrip("\n")[len(head) :])
            new = head + new
            if count:
                changed.append(number)
                total += count
                line = new + ("\n" if line.endswith("\n") else "")
            out.append(line)
        return "".join(out), changed, total
    if kind in (Kind.JSONL, Kind.LOG):
        return _rewrite_jsonl(text, matcher, scope if kind is Kind.LOG else None)
    raise AssertionError(kind)


def line_of(text: str, statement: str) -> int:
    first = statement.strip().splitlines()[0] if statement.strip() else ""
    for number, line in enumerate(text.splitlines(), 1):
        if first and line.strip() == first:
            return number
    return 0


def _rewrite_jsonl(text: str, matcher: Matcher, scope: Scope | None) -> tuple[str, list[int], int]:
    out, changed, total = [], [], 0
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        try:
            data = jsonsafe.loads(line)
        except (json.JSONDecodeError, ValueError):
            data = None
        if data is None:
            if matcher.fact_line(line):  # a torn line that holds the fact goes
                changed.append(number)
                total += 1
            else:
                out.append(line)
            continue
        cleaned, count = clean_record(data, matcher, scope)
        if count:
            changed.append(number)
            total += count
            if cleaned is None:
                continue
            line = json.dumps(cleaned, ensure_ascii=False) + ("\n" if line.endswith("\n") else "")
        out.append(line)
    return "".join(out), changed, total


def clean_record(record: Any, matcher: Matcher, scope: Scope | None) -> tuple[Any, int]:
    """(what stays of one transcript or log record, how many pieces of it said the fact);
    None stays when the record goes whole. ``scope``: a log's, whose records of another
    owner are left alone; None for a transcript, all of whose records are the scope's."""
    if scope is not None and not _record_in_scope(scope, record):
        return record, 0
    if scope is not None and isinstance(record, dict) and matcher.asked(record):
        return None, 1  # a search for the fact, or one that found it: it goes whole
    return matcher.redact_data(record)


def _log_records(agent: Agent) -> Iterator[dict[str, Any]]:
    for stream in log_streams(agent):
        yield from ledger.read(agent.meta_dir, stream)


def log_streams(agent: Agent) -> frozenset[str]:
    """The ledger's streams that may hold what a person said (not the forgotten
    fingerprints: hashes only, nothing there to read back)."""
    return frozenset(ledger.streams(agent.meta_dir)) - {FORGOTTEN_LOG}


def typed_lines(scope: Scope) -> list[str]:
    """What the person typed in the scope's chats (the arrow-up history), oldest first."""
    lines = ledger.load(scope.agent.meta_dir, scope.input_history)[0]
    return [str(line) for line in lines] if isinstance(lines, list) else []


def forget_typed(scope: Scope, matcher: Matcher) -> None:
    """The lines of the input history that said the fact go, in one transaction."""
    ledger.update(
        scope.agent.meta_dir,
        scope.input_history,
        lambda lines: [line for line in lines or [] if not matcher.typed(str(line))],
    )


def scope_documents(scope: Scope, store: Store) -> list[str]:
    """The ledger's documents of the scope that may say a fact: for ``state``, its own
    derived state (``soul.<label>``: what SOUL.md learned, shown on the morning card;
    exactly this scope's label, which may hold dots itself); for ``guard``, the loss
    guard's baseline of each of its files (``guard/<file>``)."""
    names = ledger.document_names(scope.agent.meta_dir)
    if store is Store.GUARD:
        return [n for n in names if n.startswith("guard/") and in_scope(scope, n[6:])]
    return [n for n in names if "/" not in n and n.partition(".")[2] == scope.label]


def documents_saying(scope: Scope, matcher: Matcher, store: Store) -> list[str]:
    """Those of the scope's documents that say the fact (they go, as a summary does)."""
    meta = scope.agent.meta_dir
    said = [(n, ledger.load(meta, n)[0]) for n in scope_documents(scope, store)]
    return [name for name, document in said if matcher.redact_data(document)[1]]


def forget_in_logs(scope: Scope, matcher: Matcher) -> None:
    """The scope's log records lose the fact, in one transaction of the ledger."""
    ledger.edit(
        scope.agent.meta_dir,
        lambda _stream, record: clean_record(record, matcher, scope)[0],
        only=log_streams(scope.agent),
    )


def _record_in_scope(scope: Scope, record: Any) -> bool:
    """A log record belongs to the scope of its ``owner`` (none: the team's)."""
    if not isinstance(record, dict):
        return not scope.prefix
    owner = record.get("owner")
    if not isinstance(owner, str) or not owner:
        return not scope.prefix
    try:
        return Scope(scope.agent, normalise_owner(owner)).label == scope.label
    except UsageError:
        return False


# --- where they are -------------------------------------------------------------------------


def memory_files(scope: Scope) -> Iterator[tuple[str, Path]]:
    """(path relative to the agent, path) of every markdown file of the scope."""
    for info in scope.list_files():
        rel = scope.prefix + info.name
        if info.name.startswith(SESSIONS + "/"):
            continue
        yield rel, scope.agent.path / rel


def candidates(scope: Scope) -> Iterator[tuple[Store, Kind, Path]]:
    """Every file of the scope that may hold the fact, symlinks left out."""
    agent = scope.agent
    for _rel, path in memory_files(scope):
        yield Store.MEMORY, kind_of(_rel), path
    sessions = scope.folder / SESSIONS
    if sessions.is_dir():
        for path in sorted(sessions.glob("*.jsonl")):
            yield Store.SESSIONS, Kind.JSONL, path
    for rel, kept in history.every_version(agent).items():
        if in_scope(scope, rel):
            for name in kept:  # named as the file it once was, under the agent folder
                yield Store.HISTORY, kind_of(rel), agent.path / name
    if ledger.streams(agent.meta_dir):
        yield Store.LOGS, Kind.LOG, ledger.ledger_path(agent.meta_dir)
    if typed_lines(scope):
        yield Store.CHAT_HISTORY, Kind.TYPED, ledger.ledger_path(agent.meta_dir)
    for path in _walk(agent.meta_dir):
        top = path.relative_to(agent.meta_dir).parts[0]
        if path.suffix == ".jsonl" and top not in _OWN_WALK:
            yield Store.STATE, Kind.LOG, path  # its records are scoped by owner like a log's
    if fact_inbox.load(agent):
        yield Store.INBOX, Kind.ITEMS, ledger.ledger_path(agent.meta_dir)
    if scope_documents(scope, Store.STATE):
        yield Store.STATE, Kind.DOCUMENTS, ledger.ledger_path(agent.meta_dir)
    summaries = scope.summaries()
    if summaries.is_dir():
        for path in sorted(summaries.glob("*.json")):
            yield Store.SUMMARIES, Kind.DROP, path
    if scope_documents(scope, Store.GUARD):
        yield Store.GUARD, Kind.DOCUMENTS, ledger.ledger_path(agent.meta_dir)


def _walk(folder: Path) -> Iterator[Path]:
    if not folder.is_dir():
        return
    for here, dirs, names in os.walk(folder, followlinks=False):
        dirs.sort()
        for name in sorted(names):
            path = Path(here) / name
            if not path.is_symlink() and path.is_file():
                yield path


def text_of(scope: Scope, store: Store, path: Path) -> str | None:
    """The text of a place that is one text: a file, or a previous version of one."""
    if store is Store.HISTORY:
        kept = history.read_text(scope.agent, path.relative_to(scope.agent.path).as_posix())
        # A version in another encoding is read as UTF-8 with its odd bytes replaced: an
        # old version that says the fact is cleaned (and so becomes UTF-8), never skipped.
        return None if kept is None else kept[0]
    return None if path == ledger.ledger_path(scope.agent.meta_dir) else read(path)


def put_text(scope: Scope, store: Store, path: Path, text: str) -> None:
    """Write back what :func:`text_of` read, cleaned."""
    if store is Store.HISTORY:
        history.rewrite(scope.agent, path.relative_to(scope.agent.path).as_posix(), text)
    else:
        atomic_write(path, text)


def read(path: Path) -> str | None:
    """The file's text, never through a symlink; None when it is not UTF-8 text."""
    try:
        return read_text(path, follow_links=False)
    except (OSError, UnicodeDecodeError, WorkspaceError):
        return None


def find(scope: Scope, matcher: Matcher) -> list[Place]:
    """Every place of the scope where the fact lives, with what would change there."""
    found = []
    for store, kind, path in candidates(scope):
        text = text_of(scope, store, path)
        shown = path.relative_to(scope.agent.path).as_posix()
        if store is Store.HISTORY:  # `memclaw files versions` lists it by that time
            shown = history.label(shown)
        if text is None and path.suffix == ".md" and path.is_file() and not path.is_symlink():
            # A note memclaw cannot read may hold the fact: forgetting around it would
            # say "forgotten" of what is still there.
            raise WorkspaceError(
                f"{shown} is not UTF-8 text, so forget cannot look inside it; nothing was "
                "forgotten: re-save it as UTF-8 (e.g. `iconv -f latin1 -t utf-8`), then "
                "forget again"
            )
        if store is Store.LOGS:
            count = sum(
                clean_record(record, matcher, scope)[1] for record in _log_records(scope.agent)
            )
            if count:
                found.append(Place(store, kind, path, shown, count))
            continue
        if kind is Kind.ITEMS:
            held = [i for i in fact_inbox.load(scope.agent) if inbox_item_says(scope, matcher, i)]
            if held:
                found.append(Place(store, kind, path, shown, len(held)))
            continue
        if kind is Kind.TYPED:
            said = [n for n, line in enumerate(typed_lines(scope), 1) if matcher.typed(line)]
            if said:
                found.append(Place(store, kind, path, shown, len(said), said))
            continue
        if kind is Kind.DOCUMENTS:
            saying = documents_saying(scope, matcher, store)
            if saying:
                found.append(Place(store, kind, path, shown, len(saying)))
            continue
        if text is None:
            continue
        if kind is Kind.DROP:
            data = parse_json(text)
            count = matcher.redact_data(data)[1] if data is not None else 0
            if count:
                found.append(Place(store, kind, path, shown, count))
            continue
        _new, lines, count = rewrite(kind, text, matcher, scope)
        if count:
            found.append(Place(store, kind, path, shown, count, lines))
    return found


def inbox_item_says(scope: Scope, matcher: Matcher, item: fact_inbox.Item) -> bool:
    """True when a contradiction of this scope states the fact on either side."""
    return item.prefix == scope.prefix and (
        matcher.fact_line(item.old) or matcher.fact_line(item.new)
    )


def parse_json(text: str) -> Any:
    try:
        return jsonsafe.loads(text)
    except (json.JSONDecodeError, ValueError):
        return None
