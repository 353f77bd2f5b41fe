"""The ledger: the records memclaw keeps beside an agent's files, in one SQLite database.

``.memclaw/ledger.sqlite`` holds streams of JSON records, oldest first: the change
journal (``changes``), the extraction, dream, forget and recall runs, the forgotten
fingerprints, and every other log. SQLite does the work hand-made locks and
fsynced appends did before: a record is written in a transaction (WAL, so readers
never wait on a writer and never see half a record), writers from many processes
queue on ``busy_timeout``, and a process killed mid-write loses only its own
unfinished record.

Deleted text does not linger: ``secure_delete`` zeroes what a forget or a redaction
removes, and ``scrub`` empties the write-ahead log afterwards.

Beside the streams, the ledger keeps whole JSON documents by name: the fact layer's
evidence and its contradiction inbox, the conversations waiting to be extracted,
which turns of each were read and when each owner was last extracted, which chat
turns reached Mem0 or must never leave the machine, per scope what SOUL.md last
learned and the day the morning card was seen and what the person typed in chat
(``chat-history/<scope>``), and per file who wrote each line (``provenance/<file>``),
the version a person last saw (``guard/<file>``) and the previous versions undo
restores (``history/<file>/<time>.md``, each its text).

A JSON-lines file in ``.memclaw/logs/`` is absorbed into the stream of its name the
next time the ledger is opened, and a document's file (``facts/evidence.json``) into
the document, then deleted: that moves an agent's records from before the ledger,
and lets an import stage records as plain files. The digest of each
absorbed file is committed with its records, so a file left behind by a crash
between the commit and the delete is never absorbed twice.
"""

from __future__ import annotations

import base64
import contextlib
import fnmatch
import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from memclaw.errors import WorkspaceError, storage_refusal
from memclaw.text import jsonsafe

LEDGER = "ledger.sqlite"
LEGACY_DIR = "logs"  # where the JSON-lines logs lived, and where an import stages some
_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY,
    stream TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_by_stream ON records (stream, id);
CREATE TABLE IF NOT EXISTS documents (
    name TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS absorbed (digest TEXT PRIMARY KEY);
"""
# The JSON documents that lived in files of their own, by name: absorbed like the logs.
LEGACY_DOCUMENTS = {
    "evidence": "facts/evidence.json",
    "inbox": "facts/inbox.json",
    "extract-state": "extract-state.json",
    "mem0-sync": "mem0-sync.json",
    "mem0-forgotten": "mem0-forgotten.json",
    "uncaptured": "uncaptured.json",
    "pending-extract": "pending-extract.jsonl",  # a list, one row a line
}
# Files each of which was a document named by its path: ``extracted/<digest>.json`` is
# the document ``extracted/<digest>``, ``soul.team.json`` the document ``soul.team``.
LEGACY_GLOBS = (
    "extracted/*.json",
    "soul.*.json",
    "morning.*.json",
    "provenance/**/*.json",
    "guard/**/*.json",
    "chat-history/*",  # the chat's input history, a line each: the list of its lines
    "history/**/*.md",  # a previous version of a file: its text
)
# Readers and writers of one agent wait for each other this long before giving up.
_BUSY_MS = 30_000

# What an edit does to one record: the record (changed or not) to keep it, None to drop it.
Edit = Callable[[str, dict[str, Any]], dict[str, Any] | None]


def ledger_path(meta_dir: Path) -> Path:
    return meta_dir / LEDGER


@contextlib.contextmanager
def _opened(meta_dir: Path, *, create: bool) -> Iterator[sqlite3.Connection | None]:
    """A connection in autocommit mode (transactions are begun explicitly), or None when
    there is no ledger yet and nothing to absorb and ``create`` is false."""
    path = ledger_path(meta_dir)
    if not create and not path.is_file() and not _legacy_files(meta_dir):
        yield None
        return
    try:
        db = _connect(meta_dir, path, create=create)
        try:
            yield db
        finally:
            db.close()
    except sqlite3.OperationalError as exc:
        raise _refused(exc, path) from exc
    except sqlite3.DatabaseError as exc:
        raise WorkspaceError(
            f"the ledger {path} is damaged ({exc}): the memory files are whole; move it "
            "aside (memclaw starts a new one, without the journal, logs and fact records "
            "it held) or restore it from a backup"
        ) from None


def _connect(meta_dir: Path, path: Path, *, create: bool) -> sqlite3.Connection:
    try:
        meta_dir.mkdir(parents=True, exist_ok=True)
        new = not path.exists()
        db = sqlite3.connect(path, timeout=_BUSY_MS / 1000, isolation_level=None)
        if new:  # what a person typed and asked is theirs alone (its WAL takes this mode)
            path.chmod(0o600)
    except OSError as exc:
        raise _refused(exc, path) from exc
    try:
        db.execute(f"PRAGMA busy_timeout = {_BUSY_MS}")
        use_wal(db)
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA secure_delete = ON")
        db.executescript(_SCHEMA)
        _absorb(db, meta_dir)
    except sqlite3.OperationalError as exc:
        db.close()
        if create or storage_refusal(exc) is None or not path.is_file():
            raise
        # A disk that is full or read-only still reads: the ledger as it stands, untouched.
        return sqlite3.connect(f"file:{path}?immutable=1", uri=True, isolation_level=None)
    except BaseException:
        db.close()
        raise
    return db


def use_wal(conn: sqlite3.Connection, wait: float = _BUSY_MS / 1000) -> None:
    """``journal_mode = WAL`` on a new file (the ledger, the search index), waiting out
    another process doing the same.

    Changing the journal mode needs the file to itself, and SQLite answers "database
    is locked" at once instead of calling the busy handler: many first searches of a
    fresh agent started together would all but one fail. Retry for as long as the
    busy timeout would have waited.
    """
    import random
    import time

    if conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
        return
    deadline = time.monotonic() + wait
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if time.monotonic() > deadline:
                raise
            time.sleep(random.uniform(0.005, 0.05))


@contextlib.contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One transaction holding the write lock from its start: other writers wait.
    (The index's too.) After some errors (a full disk) SQLite has rolled it back
    itself, and a second ROLLBACK would fail and hide why."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _refused(exc: BaseException, path: Path) -> BaseException:
    """The machine's refusal as one line for a person; anything else unchanged."""
    return storage_refusal(exc, where=str(path)) or exc


def append(meta_dir: Path, stream: str, record: dict[str, Any]) -> None:
    """Add one record to the end of ``stream``; safe across processes."""
    body = json.dumps(record, ensure_ascii=False, default=str)
    with _opened(meta_dir, create=True) as db:
        assert db is not None
        db.execute("INSERT INTO records (stream, body) VALUES (?, ?)", (stream, body))


def read(meta_dir: Path, stream: str) -> Iterator[dict[str, Any]]:
    """The records of ``stream``, oldest first (read in one snapshot of the ledger)."""
    with _opened(meta_dir, create=False) as db:
        if db is None:
            return
        rows = db.execute(
            "SELECT body FROM records WHERE stream = ? ORDER BY id", (stream,)
        ).fetchall()
    for (body,) in rows:
        record = _parsed(body)
        if record is not None:
            yield record


def streams(meta_dir: Path) -> dict[str, int]:
    """Each stream's name and how many records it holds."""
    with _opened(meta_dir, create=False) as db:
        if db is None:
            return {}
        rows = db.execute("SELECT stream, count(*) FROM records GROUP BY stream ORDER BY stream")
        return dict(rows.fetchall())


def edit(meta_dir: Path, change: Edit, *, only: frozenset[str] | None = None) -> int:
    """Apply ``change`` to every record (of the streams ``only`` names, or of all) in one
    transaction; returns how many records it changed or dropped. Nothing else writes
    meanwhile."""
    changed = 0
    with _opened(meta_dir, create=False) as db:
        if db is None:
            return 0
        with transaction(db):
            rows = db.execute("SELECT id, stream, body FROM records").fetchall()
            for rowid, stream, body in rows:
                record = _parsed(body)
                if record is None or (only is not None and stream not in only):
                    continue
                new = change(stream, record)
                if new is None:
                    db.execute("DELETE FROM records WHERE id = ?", (rowid,))
                elif new != record:
                    text = json.dumps(new, ensure_ascii=False, default=str)
                    db.execute("UPDATE records SET body = ? WHERE id = ?", (text, rowid))
                else:
                    continue
                changed += 1
        if changed:
            scrub(db)
    return changed


def replace(meta_dir: Path, stream: str, records: list[dict[str, Any]]) -> None:
    """Make ``records`` the whole of ``stream``, in one transaction."""
    with _opened(meta_dir, create=True) as db:
        assert db is not None
        with transaction(db):
            db.execute("DELETE FROM records WHERE stream = ?", (stream,))
            db.executemany(
                "INSERT INTO records (stream, body) VALUES (?, ?)",
                [(stream, json.dumps(r, ensure_ascii=False, default=str)) for r in records],
            )


def load(meta_dir: Path, name: str) -> tuple[Any, int]:
    """(the document ``name``, its version); (None, 0) when there is none. The version
    grows with every save: a reader may cache what it parsed until it changes."""
    with _opened(meta_dir, create=False) as db:
        if db is None:
            return None, 0
        row = db.execute("SELECT body, version FROM documents WHERE name = ?", (name,)).fetchone()
    return (None, 0) if row is None else (_loaded(row[0]), int(row[1]))


def _loaded(body: str) -> Any:
    try:
        return jsonsafe.loads(body)
    except (json.JSONDecodeError, ValueError):
        return None


def save(meta_dir: Path, name: str, document: Any) -> None:
    """Make ``document`` the whole of ``name`` (None: remove it), in one transaction."""
    save_all(meta_dir, {name: document})


def save_all(meta_dir: Path, documents: dict[str, Any]) -> None:
    """:func:`save` of each document (None: remove it), all in one transaction."""
    with _opened(meta_dir, create=True) as db:
        assert db is not None
        with transaction(db):
            for name, document in documents.items():
                if document is None:
                    db.execute("DELETE FROM documents WHERE name = ?", (name,))
                else:
                    body = json.dumps(document, ensure_ascii=False, sort_keys=True, default=str)
                    _put(db, name, body)


def update(meta_dir: Path, name: str, change: Callable[[Any], Any]) -> Any:
    """Make the document ``name`` what ``change`` makes of it (None when there is none),
    read and saved in one transaction: a writer elsewhere waits, so none is lost."""
    with _opened(meta_dir, create=True) as db:
        assert db is not None
        with transaction(db):
            row = db.execute("SELECT body FROM documents WHERE name = ?", (name,)).fetchone()
            new = change(_loaded(row[0]) if row else None)
            _put(db, name, json.dumps(new, ensure_ascii=False, sort_keys=True, default=str))
    return new


def version(meta_dir: Path, name: str) -> int:
    """The version of the document ``name`` (0: there is none), without reading it."""
    with _opened(meta_dir, create=False) as db:
        if db is None:
            return 0
        row = db.execute("SELECT version FROM documents WHERE name = ?", (name,)).fetchone()
    return int(row[0]) if row else 0


def document_names(meta_dir: Path, prefix: str = "") -> list[str]:
    """The names of the documents (those starting with ``prefix``), in order."""
    with _opened(meta_dir, create=False) as db:
        if db is None:
            return []
        rows = db.execute(  # a range, so SQLite walks the names' index
            "SELECT name FROM documents WHERE name >= ? AND name < ? ORDER BY name",
            (prefix, prefix + "\U0010ffff"),
        )
        return [name for (name,) in rows]


def forget_old_versions(meta_dir: Path) -> bool:
    """After text was removed (a forget, a redaction): no old copy stays behind. False
    when another process reading the ledger kept it from being done (see :func:`scrub`)."""
    with _opened(meta_dir, create=False) as db:
        return db is None or scrub(db)


def _put(db: sqlite3.Connection, name: str, body: str) -> None:
    db.execute(
        "INSERT INTO documents (name, body, version) VALUES (?, ?, 1) ON CONFLICT (name) "
        "DO UPDATE SET body = excluded.body, version = documents.version + 1",
        (name, body),
    )


def scrub(db: sqlite3.Connection) -> bool:
    """Fold the write-ahead log into the file and empty it: until then the file keeps
    the old version of each changed page, and the log the new ones (``secure_delete``
    zeroes what was removed in those). False when a reader in another process held on
    past the busy timeout, so the old copy stays until it lets go."""
    busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return not (busy and busy[0])


def check(meta_dir: Path) -> str | None:
    """What is wrong with the ledger's file (SQLite's own check), or None when it is sound."""
    path = ledger_path(meta_dir)
    if not path.is_file():
        return None
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            verdict = db.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return None if verdict == "ok" else str(verdict)


def _parsed(body: str) -> dict[str, Any] | None:
    try:
        record = jsonsafe.loads(body)
    except (json.JSONDecodeError, ValueError):
        return None
    return record if isinstance(record, dict) else None


# --- files from before the ledger, absorbed ----------------------------------------------


def absorb(meta_dir: Path) -> None:
    """Take in the files from before the ledger now (any opening of it does)."""
    with _opened(meta_dir, create=False):
        pass


def _legacy_files(meta_dir: Path) -> list[Path]:
    """The logs' JSON-lines files of ``logs/``, and the documents' files, that exist."""
    logs = _listed(meta_dir / LEGACY_DIR, "*.jsonl")
    documents = [meta_dir / rel for rel in LEGACY_DOCUMENTS.values()]
    documents += [p for pattern in LEGACY_GLOBS for p in _listed(meta_dir, pattern)]
    return [p for p in (*logs, *documents) if p.is_file() and not p.is_symlink()]


def _listed(folder: Path, pattern: str) -> list[Path]:
    return sorted(folder.glob(pattern)) if folder.is_dir() else []


def takes_in(rel: str) -> bool:
    """Whether a file at ``rel`` under ``.memclaw`` is one the ledger takes in."""
    return (
        fnmatch.fnmatch(rel, f"{LEGACY_DIR}/*.jsonl")
        or rel in LEGACY_DOCUMENTS.values()
        or any(fnmatch.fnmatch(rel, pattern.replace("**/", "")) for pattern in LEGACY_GLOBS)
    )


def _absorb(db: sqlite3.Connection, meta_dir: Path) -> None:
    """Move every file from before the ledger into it (see the module's note)."""
    if not _legacy_files(meta_dir):
        return
    done = []
    with transaction(db):  # one absorber at a time; the others then find nothing
        for path in _legacy_files(meta_dir):
            try:
                stat, data = path.stat(), path.read_bytes()
            except FileNotFoundError:
                continue  # another process absorbed it a moment ago
            log = path.parent.name == LEGACY_DIR
            document = None if log else _parsed_document(data, _form_of(path))
            if (not log and document is None) or not _utf8(path.relative_to(meta_dir)):
                continue  # damaged, or named in another encoding: left for a person
            done.append(path)
            # The file itself, not only its content: another file of the same records is
            # absorbed again (an import of records a forget had absorbed before, say).
            named = f"{path.name}\0{stat.st_ino}\0{stat.st_mtime_ns}\0".encode()
            digest = hashlib.sha256(named + data).hexdigest()
            if db.execute("SELECT 1 FROM absorbed WHERE digest = ?", (digest,)).fetchone():
                continue
            if document is None:
                db.executemany(
                    "INSERT INTO records (stream, body) VALUES (?, ?)",
                    [(path.stem, body) for body in _lines(data)],
                )
            else:  # a whole document: what the file says replaces what the ledger had
                _put(db, _document_of(meta_dir, path), document)
            db.execute("INSERT INTO absorbed (digest) VALUES (?)", (digest,))
    for path in done:
        path.unlink(missing_ok=True)
        path.with_suffix(".lock").unlink(missing_ok=True)  # its lock, of no use now
    for path in _listed(meta_dir, "history/**/.*.tmp"):
        path.unlink(missing_ok=True)  # a version half written when a process was killed
    for folder in sorted({meta_dir / LEGACY_DIR, *(p.parent for p in done)}, reverse=True):
        while folder != meta_dir and folder.is_relative_to(meta_dir):
            try:
                folder.rmdir()  # when nothing else is left in it
            except OSError:
                break
            folder = folder.parent


def _utf8(rel: Path) -> bool:
    try:
        str(rel).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _document_of(meta_dir: Path, path: Path) -> str:
    rel = path.relative_to(meta_dir).as_posix()
    named = [name for name, where in LEGACY_DOCUMENTS.items() if where == rel]
    if named:
        return named[0]
    return rel if _form_of(path) in ("lines", "text") else rel.removesuffix(".json")


def _form_of(path: Path) -> str:
    """How a document's file was written: JSON, JSON lines (``rows``), text ``lines`` or
    a whole ``text`` (a previous version of a file, kept by the history)."""
    if path.parent.name == "chat-history":
        return "lines"
    if path.suffix == ".md":
        return "text"
    return "rows" if path.suffix == ".jsonl" else "json"


def _parsed_document(data: bytes, form: str) -> str | None:
    """A document file's content as the ledger keeps it (JSON); None when it does not
    parse. JSON lines become the list of their records, text the list of its lines."""
    if form == "text":
        return json.dumps(text_document(data), ensure_ascii=False)
    try:
        text = data.decode("utf-8")
        if form == "rows":
            document = [jsonsafe.loads(r) for r in _lines(data)]
        else:
            document = text.splitlines() if form == "lines" else jsonsafe.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError, ValueError):
        return None
    return json.dumps(document, ensure_ascii=False, sort_keys=True)


def text_document(data: bytes) -> str | dict[str, str]:
    """A file's bytes as a document: its text, or ``{"base64": ...}`` when it is not
    UTF-8 (a hand-edited file in another encoding is kept byte for byte)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}


def document_bytes(document: Any) -> bytes | None:
    """The bytes :func:`text_document` keeps (None: it is no such document)."""
    if isinstance(document, str):
        return document.encode("utf-8")
    if isinstance(document, dict) and isinstance(document.get("base64"), str):
        with contextlib.suppress(ValueError):
            return base64.b64decode(document["base64"], validate=True)
    return None


def _lines(data: bytes) -> Iterator[str]:
    """The records of a JSON-lines file, as JSON text; a torn line (a crash mid-append) and
    anything else that is not a JSON object are left out."""
    for line in data.decode("utf-8", errors="replace").splitlines():
        record = _parsed(line)
        if record is not None:
            yield json.dumps(record, ensure_ascii=False)
