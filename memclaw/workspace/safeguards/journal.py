"""The change journal: every memory change as one unit, across however many files it wrote.

An extraction writes PROFILE.md, MEMORY.md and a daily note; a dream writes
MEMORY.md and DREAMS.md. A person who asks "what did that do?" or "undo that"
means the whole of it, so the writes of one operation are grouped: the
operation opens :func:`change`, and every write memclaw makes while it is open
(:meth:`Agent._put`, :meth:`Agent.append_daily`, an import's swap) is noted in
it. When it closes, one record goes to the ledger's ``changes`` stream: per
file the lines added, removed and changed, the hash of the text the change
left, and how to get the text before it back:

* ``created``: the file did not exist (undo deletes it);
* ``append:N``: the change only appended (undo cuts the file back to N bytes);
* ``history:NAME``: the previous version the history kept (see its module).

A write with no change open (``memclaw files write``, a model's file tool) is a
change of its own, of kind ``edit``. The record is a log line, so it passes the
secret gate, and whatever scrubs logs (forget) scrubs it too; it holds lines,
not whole files, and the whole previous versions stay in the history, which
already keeps them for undo.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import uuid
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memclaw.errors import storage_refusal
from memclaw.workspace.owners import OWNERS_DIR

if TYPE_CHECKING:
    from memclaw.workspace.folder import Folder

LOG = "changes"
FORGET = "forget"
IMPORT = "import"
CREATED = "created"
APPEND = "append:"
HISTORY = "history:"


def sha(text: str | None) -> str | None:
    """The short hash the journal compares files by; None for a file that does not exist."""
    if text is None:
        return None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def last_written(agent: Folder) -> dict[str, str | None]:
    """Each file's hash as memclaw's newest recorded change of it left it (None: that
    change deleted it)."""
    from memclaw.workspace.logs import read_log

    found: dict[str, str | None] = {}
    for record in read_log(agent, LOG):
        for delta in record.get("files") or []:
            if isinstance(delta, dict) and isinstance(delta.get("rel"), str):
                after = delta.get("after_sha")
                found[delta["rel"]] = after if isinstance(after, str) else None
    return found


def scope_prefix(rel: str) -> str:
    """The scope folder ``rel`` lives in: 'owners/<owner>/' or '' for the agent's own."""
    parts = rel.split("/")
    if len(parts) > 2 and parts[0] == OWNERS_DIR:
        return f"{OWNERS_DIR}/{parts[1]}/"
    return ""


@dataclass
class _File:
    rel: str
    before: str | None
    after: str | None
    ref: str


@dataclass
class Change:
    """One open change: what kind of operation, and the files it wrote so far."""

    agent: Folder
    kind: str
    detail: dict[str, Any]
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    files: dict[str, _File] = field(default_factory=dict)
    # What the change did to the state beside the files (evidence, inbox, provenance),
    # as deltas in the order made, so undo can take back exactly these and nothing later.
    state: list[dict[str, Any]] = field(default_factory=list)
    record: dict[str, Any] | None = None  # the journal record, once closed with any write

    def note(self, rel: str, before: str | None, after: str | None, ref: str) -> None:
        """A write of ``rel``: the first write keeps the before, the last sets the after."""
        known = self.files.get(rel)
        if known is None:
            self.files[rel] = _File(rel, before, after, ref)
        else:
            known.after = after

    def close(self) -> dict[str, Any] | None:
        files = [_summary(f) for f in self.files.values() if f.before != f.after]
        # An undo is recorded even when what it reverted lay only beside the files (a
        # rating): its record is what marks that change undone.
        if not files and not self.state and "undoes" not in self.detail:
            return None
        prefixes = {scope_prefix(f["rel"]) for f in files} or {
            str(op.get("prefix", "")) for op in self.state
        }
        record = {
            "id": self.id,
            "kind": self.kind,
            "prefix": prefixes.pop() if len(prefixes) == 1 else "*",
            **self.detail,
            "files": files,
        }
        if self.state:
            record["state"] = self.state
        from memclaw.workspace.logs import append_log

        try:
            append_log(self.agent, LOG, record)
        except BaseException:
            # A change that cannot be journalled (a full disk) could never be undone or
            # explained: its files are taken back, so it did not happen.
            self.take_back()
            raise
        self.record = record
        return record

    def take_back(self) -> None:
        """Put back the files this change wrote, newest first, as well as the machine lets."""
        from memclaw.workspace.atomic import atomic_write
        from memclaw.workspace.paths import resolve_inside

        for noted in reversed(self.files.values()):
            with contextlib.suppress(OSError):
                path = resolve_inside(self.agent.path, noted.rel)
                if noted.before is None:
                    path.unlink(missing_ok=True)
                else:
                    atomic_write(path, noted.before)


_open: ContextVar[Change | None] = ContextVar("memclaw_open_change", default=None)


@contextlib.contextmanager
def change(agent: Folder, kind: str, **detail: Any) -> Iterator[Change]:
    """Group every write made inside into one change of ``kind`` (extract, dream, ...).

    Nested changes are separate units (a dream that first extracts pending
    chats journals the extraction as its own change), except one of the same kind
    for the same agent, which is part of the outer one (a forget that removes
    lines and then entries is one forget). The record is written even
    when the body raises: what was written before the error was written; but when
    the machine refused a write (a full disk), what was written is taken back.
    Context variables are per thread: a thread opens its own change.
    """
    outer = _open.get()
    if outer is not None and outer.kind == kind and outer.agent.path == agent.path:
        yield outer
        return
    opened = Change(agent, kind, {k: v for k, v in detail.items() if v is not None})
    token = _open.set(opened)
    try:
        yield opened
    except BaseException as exc:
        if storage_refusal(exc) is not None:
            # The machine refused a write midway (a full disk, a read-only root): what was
            # written is taken back, so the change happened whole or not at all.
            opened.take_back()
            opened.files.clear()
            opened.state.clear()
        raise
    finally:
        _open.reset(token)
        opened.close()


def mark_forget(agent: Folder, prefix: str, facts: list[str]) -> None:
    """Put a forget in the journal: ids only, no line, so undo knows it is the newest change.

    A forget rewrites files outside the journal (keeping their text for undo would
    keep what was forgotten), so it cannot be undone; the mark lets undo say so
    instead of reaching past it to the change before.
    """
    from memclaw.workspace.logs import append_log

    record = {"id": uuid.uuid4().hex[:12], "kind": FORGET, "prefix": prefix, "facts": facts}
    append_log(agent, LOG, {**record, "files": []})


def note_state(agent: Folder, delta: dict[str, Any]) -> None:
    """Called by the stores beside the files with what one write of theirs changed.

    Only a change that is open for ``agent`` keeps it (undo reverts that change's
    deltas); a state write outside any change (feedback, a forget's scrub) is not
    a memory change of its own and is not noted.
    """
    current = _open.get()
    if current is not None and current.agent.path == agent.path:
        current.state.append(delta)


def note(
    agent: Folder, rel: str, before: str | None, after: str | None, backup: str | None
) -> None:
    """Called by every memclaw write of a memory file, with the lock held.

    ``backup`` names the history version the write saved of ``before``, if any; a
    rewrite of a file the history does not version gets one here, so undo can
    always bring the text back.
    """
    if before == after:
        return
    if before is None:
        ref = CREATED
    elif after is not None and after.startswith(before):
        ref = APPEND + str(len(before.encode("utf-8")))
    else:
        if backup is None:
            from memclaw.workspace.safeguards import history

            backup = history.save(agent, rel, before)
        ref = HISTORY + backup
    current = _open.get()
    if current is not None and current.agent.path == agent.path:
        current.note(rel, before, after, ref)
        return
    single = Change(agent, "edit", {})
    single.note(rel, before, after, ref)
    single.close()


def _summary(f: _File) -> dict[str, Any]:
    added, removed, changed = line_changes(f.before or "", f.after or "")
    return {
        "rel": f.rel,
        "ref": f.ref,
        "before_sha": sha(f.before),
        "after_sha": sha(f.after),
        "added": added,
        "removed": removed,
        "changed": changed,
    }


def line_changes(old: str, new: str) -> tuple[list[str], list[str], list[list[str]]]:
    """Lines added, removed, and changed (old, new) between two texts; blank lines ignored."""
    a = [line for line in old.splitlines() if line.strip()]
    b = [line for line in new.splitlines() if line.strip()]
    # Most changes touch a few lines of a long file: the lines both share at either end
    # are left out before diffing, so a note's hundredth line costs what its tenth did.
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    a, b = a[head : len(a) - tail], b[head : len(b) - tail]
    added: list[str] = []
    removed: list[str] = []
    changed: list[list[str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        olds, news = a[i1:i2], b[j1:j2]
        if op == "replace":
            pairs = min(len(olds), len(news))
            changed.extend([o, n] for o, n in zip(olds[:pairs], news[:pairs], strict=True))
            olds, news = olds[pairs:], news[pairs:]
        removed.extend(olds)
        added.extend(news)
    return added, removed, changed
