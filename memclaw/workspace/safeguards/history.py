"""Previous versions of rewritten files, so any rewrite can be undone.

Kept in the ledger, one document per version, named as the file it once was:
``history/<relative path>/<timestamp>.md``. A version is known by that name under
the agent folder (``.memclaw/history/MEMORY.md/20261206T165907000000.md``), which is
what the change journal's ``history:`` refs and a dream's ``backup`` hold. The newest
:data:`KEEP` versions of each file are kept.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import memclaw.workspace.ledger as ledger
from memclaw.workspace.paths import META_DIR

if TYPE_CHECKING:
    from memclaw.workspace.folder import Folder


KEEP = 20
_STAMP = "%Y%m%dT%H%M%S%f"
FOLDER = "history/"  # the documents' names start with this
PREFIX = f"{META_DIR}/{FOLDER}"  # and the versions' names, under the agent folder


def save(agent: Folder, rel: str, content: str | bytes) -> str:
    """Keep ``content`` as the newest previous version of ``rel``; returns its name.
    The caller holds the lock.

    Text goes through the secret gate: a credential typed into a file by hand must not
    outlive the rewrite that removed it (undo brings back the rest). Bytes that are not
    UTF-8 (a hand-edited file in another encoding) are kept as they are.
    """
    from memclaw.gates import redact

    document = ledger.text_document(content) if isinstance(content, bytes) else content
    if isinstance(document, str):
        document = redact(document)
    stamp = agent.now().strftime(_STAMP)
    older = versions(agent, rel)
    # Two rewrites within one clock tick (a fixed clock in tests, a coarse clock) get
    # increasing sequence numbers, so the newest always sorts first.
    same_tick = [_order(name)[1] for name in older if _order(name)[0] == stamp]
    name = f"{PREFIX}{rel}/{stamp}" + (f"-{max(same_tick) + 1}.md" if same_tick else ".md")
    stale = dict.fromkeys((_document(n) for n in older[KEEP - 1 :]), None)
    ledger.save_all(agent.meta_dir, {_document(name): document, **stale})
    return name


def versions(agent: Folder, rel: str) -> list[str]:
    """The names of the previous versions of ``rel``, newest first."""
    found = ledger.document_names(agent.meta_dir, f"{FOLDER}{rel}/")
    mine = [f"{META_DIR}/{n}" for n in found if "/" not in n[len(FOLDER) + len(rel) + 1 :]]
    return sorted(mine, key=_order, reverse=True)


def every_version(agent: Folder) -> dict[str, list[str]]:
    """Each file's previous versions (by the file's relative path), newest first."""
    files: dict[str, list[str]] = {}
    for document in ledger.document_names(agent.meta_dir, FOLDER):
        rel = document[len(FOLDER) :].rpartition("/")[0]
        files.setdefault(rel, []).append(f"{META_DIR}/{document}")
    return {rel: sorted(names, key=_order, reverse=True) for rel, names in files.items()}


def read_bytes(agent: Folder, name: str) -> bytes | None:
    """The version called ``name`` as it was kept; None when it is no longer kept."""
    return ledger.document_bytes(ledger.load(agent.meta_dir, _document(name))[0])


def read_text(agent: Folder, name: str) -> tuple[str, bool] | None:
    """The version called ``name`` as text, and whether it was not UTF-8 (its odd bytes are
    then U+FFFD); None when it is no longer kept."""
    data = read_bytes(agent, name)
    if data is None:
        return None
    text = data.decode("utf-8", errors="replace")
    return text, text.encode("utf-8") != data


def read(agent: Folder, name: str) -> str | None:
    """The version called ``name`` as text; None when it is gone or is not UTF-8."""
    found = read_text(agent, name)
    return found[0] if found and not found[1] else None


def rewrite(agent: Folder, name: str, text: str | None) -> None:
    """Replace a kept version's text (a forget, a redaction); None removes it."""
    ledger.save(agent.meta_dir, _document(name), text)


def saved_at(name: str) -> str:
    """When the version called ``name`` was kept, as ISO 8601 (its name says)."""
    stamp = _order(name)[0]
    try:
        return datetime.strptime(stamp, _STAMP).isoformat(timespec="seconds")
    except ValueError:
        return stamp


def label(name: str) -> str:
    """The version called ``name`` as a person reads it: its file and when it was kept."""
    rel = _document(name).removeprefix(FOLDER).rpartition("/")[0]
    return f"{rel} as kept {saved_at(name)}"


def _document(name: str) -> str:
    return name.removeprefix(f"{META_DIR}/")


def _order(name: str) -> tuple[str, int]:
    """(timestamp, sequence): ``<stamp>.md`` is sequence 0, ``<stamp>-<n>.md`` is n."""
    stamp, _, seq = name.rpartition("/")[2].removesuffix(".md").partition("-")
    return stamp, int(seq) if seq.isdigit() else 0
