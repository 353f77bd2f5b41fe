"""Export side of carried state: gather what memory knows about the files a snapshot holds.

Only the carried scopes' state is gathered (see :mod:`memclaw.snapshot.state` for
what each entry is and how an import merges it): an owner whose memory stays home
leaves no journal line, inbox item, forgotten fingerprint, session or evidence in the zip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from memclaw.snapshot.state import (
    AGENT_META,
    CHANGES,
    EVIDENCE,
    EXTRACT,
    FORGET_KEYS,
    FORGETS,
    FORGOTTEN,
    GUARD,
    INBOX,
    PROVENANCE,
    RUN_KEYS,
    as_json,
    as_jsonl,
    facts_at_home,
    owner_prefix,
    prefix_of,
    scope_label,
    state_reason,
)

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent


# --- export ------------------------------------------------------------------------------------


def collect_state(agent: Agent, carried: Sequence[str]) -> list[tuple[str, bytes]]:
    """The state entries for a snapshot carrying the memory files ``carried``."""
    from memclaw.facts import EVIDENCE as EVIDENCE_DOCUMENT
    from memclaw.facts import inbox as inbox_store
    from memclaw.workspace import ledger
    from memclaw.workspace.logs import read_log
    from memclaw.workspace.safeguards import guard, provenance
    from memclaw.workspace.safeguards.journal import LOG as CHANGES_LOG

    labels = {scope_label(rel) for rel in carried}
    prefixes = {prefix_of(rel) for rel in carried}
    rels = set(carried)
    out: list[tuple[str, bytes]] = []
    forgotten = [
        {k: r[k] for k in FORGET_KEYS if k in r}
        for r in read_log(agent, "forgotten")
        if r.get("scope") in labels
    ]
    out.append((FORGOTTEN, as_jsonl(forgotten)))
    evidence = ledger.load(agent.meta_dir, EVIDENCE_DOCUMENT)[0]
    if evidence is not None:
        out.append((EVIDENCE, _evidence(agent, evidence, prefixes)))
    items = [i.to_dict() for i in inbox_store.load(agent) if i.prefix in prefixes]
    if items:
        out.append((INBOX, as_json({"items": items})))
    changes = []
    for record in read_log(agent, CHANGES_LOG):
        files = [f for f in record.get("files", []) if isinstance(f, dict) and f.get("rel") in rels]
        if files:
            changes.append({**record, "files": files})
    kept = {str(c.get("id")) for c in changes}
    out.append((CHANGES, as_jsonl(changes)))
    runs = [r for r in read_log(agent, "extract") if str(r.get("change")) in kept]
    out.append((EXTRACT, as_jsonl(runs)))
    out += _sessions(agent, changes, runs, rels)
    # A forget run names its owner (None for the shared scope), not its folder.
    forgets = [
        {k: r[k] for k in RUN_KEYS if k in r}
        for r in read_log(agent, "forget")
        if owner_prefix(r.get("owner")) in prefixes
    ]
    out.append((FORGETS, as_jsonl(forgets)))
    if agent.meta_path.is_file():
        out.append((AGENT_META, agent.meta_path.read_bytes()))
    for rel in sorted(rels):
        for entry, name in ((PROVENANCE, provenance.document(rel)), (GUARD, guard.document(rel))):
            document = ledger.load(agent.meta_dir, name)[0]
            if document is not None:
                out.append((f"{entry}{rel}.json", as_json(document)))
    # An agent with no state of a kind carries no entry for it, so the zip stays small.
    return [(name, data) for name, data in out if data]


def _sessions(
    agent: Agent, changes: list[dict[str, Any]], runs: list[dict[str, Any]], rels: set[str]
) -> list[tuple[str, bytes]]:
    from memclaw.gates import contains_secret

    by_change = {str(r.get("change")): r.get("session") for r in runs}
    found: dict[str, bytes] = {}
    for change in changes:
        detail = change.get("detail")
        session = (detail if isinstance(detail, dict) else {}).get("session")
        session = session or by_change.get(str(change.get("id")))
        if not isinstance(session, str):
            continue
        prefix = str(change.get("prefix") or "")
        for rel in (
            f"{prefix}sessions/{session}.jsonl" if prefix else "",
            f"sessions/{session}.jsonl",
        ):
            name = f"state/{rel}"
            # Never an owner's session unless that owner's memory travels too.
            if rel and state_reason(name, rels) is None:
                path = agent.path / rel
                if path.is_file() and not path.is_symlink():
                    data = path.read_bytes()
                    # A transcript is a person's words: one that trips the gate stays home
                    # (``why`` then names the session without quoting it).
                    text = data.decode("utf-8", errors="replace")
                    if len(data) <= 1024 * 1024 and not contains_secret(text):
                        found[name] = data
                    break
    return sorted(found.items())


def _evidence(agent: Agent, doc: Any, prefixes: set[str]) -> bytes:
    """The evidence record without the facts that live in an owner's memory left at home."""
    from memclaw.workspace.owners import OWNERS_DIR

    folder = agent.path / OWNERS_DIR
    home = facts_at_home(
        (
            path.relative_to(agent.path).as_posix(),
            path.read_text(encoding="utf-8", errors="replace"),
        )
        for owner in (sorted(folder.iterdir()) if folder.is_dir() else [])
        if owner.is_dir() and f"{OWNERS_DIR}/{owner.name}/" not in prefixes
        for path in owner.rglob("*.md")
    )
    try:
        facts = dict(doc["facts"])
    except (ValueError, KeyError, TypeError):
        return b""  # an unreadable record counts as none at home too
    return as_json({"facts": {fid: ev for fid, ev in facts.items() if fid not in home}})
