"""Plan and apply a forget: find the fact's every copy in one scope, then remove them all.

``plan_forget`` reads only; ``apply_forget`` does, in this order, so that a
crash at any point never lets the fact be learned again and never leaves a
file half-written:

1. the fingerprints go into the ledger's ``forgotten`` stream (extraction,
   dreams, imports, tool calls and ``remember`` check them from then on);
2. under the agent lock (and each affected transcript's chat lock, so an open
   chat is never rewritten under its feet), every place is rewritten
   atomically: the file is wholly old or wholly new;
3. the index is synced, its full-text segments merged, the vectors of the old
   blocks deleted and the file vacuumed, so the SQLite file keeps no copy; the
   ledger's write-ahead log is emptied for the same reason.

Running the same forget again finishes what an interrupted one started.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import memclaw.erasure.places as places
from memclaw.erasure.match import Matcher, Relation, query_words
from memclaw.erasure.places import Kind, Place, Store
from memclaw.erasure.sources import exchanges
from memclaw.errors import LockBusyError, UsageError
from memclaw.extract.forgotten import record_forgotten, record_forgotten_words
from memclaw.extract.transcripts import chat_lock
from memclaw.facts import inbox as fact_inbox
from memclaw.facts import store as evidence
from memclaw.facts.ids import FACT_ID, fact_id, normalise_statement
from memclaw.workspace import ledger
from memclaw.workspace.atomic import file_lock
from memclaw.workspace.entries import parse_entries
from memclaw.workspace.logs import append_log
from memclaw.workspace.safeguards import journal

if TYPE_CHECKING:
    from memclaw.providers.mem0_forget import Mem0Forget
    from memclaw.workspace.scope import Scope

LOG = "forget"


class NothingMatchesError(UsageError):
    """The words or the id name no fact in this scope; nothing was written."""


@dataclass(frozen=True)
class Fact:
    id: str
    statement: str
    where: list[str]  # "MEMORY.md:12", one per copy

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "statement": self.statement, "where": self.where}


@dataclass
class IndexTrace:
    blocks: int = 0
    vectors: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"blocks": self.blocks, "vectors": self.vectors}


@dataclass
class ForgetPlan:
    scope: Scope
    target: str  # what the person typed: words or a fact id
    matcher: Matcher
    facts: list[Fact]
    places: list[Place]
    index: IndexTrace = field(default_factory=IndexTrace)
    applied: bool = False
    left: list[Place] = field(default_factory=list)  # places a re-check still found it in
    # Memory lines naming the fact's words but saying something else: kept unless chosen.
    mentions: list[Fact] = field(default_factory=list)
    mem0: Mem0Forget | None = None  # what went from Mem0 (None: no Mem0 for this scope)

    @property
    def place_count(self) -> int:
        """Places it lives in as every reader counts them: the files and logs, and the index."""
        return len(self.places) + bool(self.index.blocks)

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.scope.agent.id,
            "owner": self.scope.owner,
            "scope": str(self.scope.visibility),
            "target": self.target,
            "facts": [f.to_dict() for f in self.facts],
            "places": [p.to_dict() for p in self.places],
            "index": self.index.to_dict(),
            "forgotten": self.applied,
            "left": [p.to_dict() for p in self.left],
            "mentions": [m.to_dict() for m in self.mentions],
            "also": self.matcher.also,
            "mem0": self.mem0.to_dict() if self.mem0 is not None else None,
        }


def plan_forget(scope: Scope, target: str, *, also: bool = False) -> ForgetPlan:
    """What forgetting ``target`` (words, or a fact id such as ``f1a2b3c4d``) would remove.

    Only the fact's copies go: a line stating another value or correcting it is
    never removed by it, and one that merely mentions it is listed in
    ``mentions`` and goes only when ``also`` is true.
    Raises :class:`NothingMatchesError` when nothing in the scope holds it.
    """
    target = " ".join(target.split())
    if not target:
        raise UsageError("say what to forget: the fact's words or its id (f1a2b3c4d)")
    matcher = Matcher(scope.prefix)
    if FACT_ID.fullmatch(target):
        statement = _statement_of(scope, target)
        if statement is None:
            raise NothingMatchesError(
                f"no fact {target} in {_whose(scope)}; nothing forgotten "
                f"(`memclaw search {scope.agent.id} WORDS` finds a fact by its words)"
            )
        matcher.add_statement(statement)
    else:
        matcher = Matcher(scope.prefix, words=query_words(target))
        # The facts the words find are forgotten as statements too: a transcript that
        # says them in other words goes with them.
        for fact in _facts(scope, matcher):
            matcher.add_statement(fact.statement)
    mentions = [] if also else _facts(scope, matcher, Relation.MENTION)
    matcher.also = also
    facts = _facts(scope, matcher)
    matcher.lines = {_position(where) for fact in facts for where in fact.where}
    matcher.sources = exchanges(scope, matcher)
    found = places.find(scope, matcher)
    if not facts and not found:
        raise NothingMatchesError(
            f"nothing in {_whose(scope)} matches {target!r}; nothing forgotten "
            "(every word must appear; try fewer words)"
        )
    plan = ForgetPlan(scope, target, matcher, facts, found, _index_trace(scope, matcher))
    plan.mentions = mentions
    return plan


def _whose(scope: Scope) -> str:
    return f"{scope.agent.id} (owner {scope.owner})" if scope.personal else scope.agent.id


def _fact_lines(scope: Scope) -> list[tuple[str, int, str]]:
    """(file, line, statement) of every fact of the scope's memory files."""
    found = []
    for rel, path in places.memory_files(scope):
        kind = places.kind_of(rel)
        if kind is Kind.PROSE:
            continue  # the diary mentions facts; it does not hold them
        text = places.read(path) or ""
        if kind is Kind.ENTRIES:
            for entry in parse_entries(text):
                found.append((rel, places.line_of(text, entry.text), entry.text.strip()))
            continue
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                found.append((rel, number, stripped))
    return found


def _statement_of(scope: Scope, wanted: str) -> str | None:
    for _rel, _line, statement in _fact_lines(scope):
        if fact_id(normalise_statement(statement), scope.prefix) == wanted:
            return statement
    return None


def _facts(scope: Scope, matcher: Matcher, only: Relation | None = None) -> list[Fact]:
    """The facts the matcher removes, or (``only``) the lines standing to it so."""
    by_id: dict[str, Fact] = {}
    for rel, line, statement in _fact_lines(scope):
        if only is not None and matcher.line_relation(statement) is not only:
            continue
        if only is None and not matcher.fact_line(statement):
            continue
        key = fact_id(normalise_statement(statement), scope.prefix)
        shown = _marker_free(statement)
        fact = by_id.setdefault(key, Fact(key, shown, []))
        fact.where.append(f"{rel}:{line}")
    return list(by_id.values())


def _position(where: str) -> tuple[str, int]:
    rel, _, line = where.rpartition(":")
    return rel, int(line)


def _marker_free(line: str) -> str:
    return line.lstrip("-*+ ").strip()


def _index_trace(scope: Scope, matcher: Matcher) -> IndexTrace:
    import memclaw.index.vectors as vectors
    from memclaw.index.semantic import passages
    from memclaw.index.storage.packs import visible_blocks
    from memclaw.index.store import index_path

    path = index_path(scope.agent.path)
    if not path.is_file():
        return IndexTrace()
    try:
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=30.0)
    except sqlite3.Error:
        return IndexTrace()
    try:
        rows = [
            p for p in passages(visible_blocks(conn)) if places.in_scope(scope, str(p.file.path))
        ]
        blocks = sum(1 for p in rows if matcher.redact(str(p.block.text))[1])
        # A turn's vector is keyed by its text with the turn before (``semantic.passages``):
        # the next turn's vector holds the fact too.
        hashes = {p.key for p in rows if matcher.redact(p.text)[1]}
        return IndexTrace(blocks, vectors.count(conn, hashes))
    except sqlite3.Error:
        return IndexTrace()
    finally:
        conn.close()


def apply_forget(plan: ForgetPlan, *, own_session: str | None = None) -> ForgetPlan:
    """Remove the fact from every place of the plan's scope; see the module docstring.

    ``own_session`` is the chat calling this (``/forget``): it holds that
    transcript's lock itself, and only ever appends to it.
    """
    scope, matcher = plan.scope, plan.matcher
    agent = scope.agent
    for fact in plan.facts:
        record_forgotten(scope, fact.statement, entry_id=fact.id)
    if matcher.words:
        record_forgotten_words(scope, " ".join(matcher.words))
    with contextlib.ExitStack() as held:
        _hold_sessions(scope, held, own_session)
        with agent.editing(scope.prefix):
            for store, kind, path in places.candidates(scope):
                _clean_file(scope, matcher, store, kind, path)
            _clean_index(scope)
            evidence.remove(agent, {f.id for f in plan.facts})
            scrubbed = ledger.forget_old_versions(agent.meta_dir)  # the inbox's old text, say
    journal.mark_forget(agent, scope.prefix, [f.id for f in plan.facts])
    plan.applied = True
    plan.left = places.find(scope, matcher)
    if not scrubbed:
        where = ledger.ledger_path(agent.meta_dir)
        shown = f"{where.relative_to(agent.path).as_posix()} (an old copy a reader held on to)"
        plan.left.append(Place(Store.LOGS, Kind.LOG, where, shown))
    append_log(
        agent,
        LOG,
        {
            **scope.log_fields(),
            "facts": [f.id for f in plan.facts],
            "places": plan.place_count,
            # Which files it rewrote without the journal: the timeline's forget, not a hand edit.
            "files": sorted({p.shown for p in plan.places}),
            "index_blocks": plan.index.blocks,
            "left": [p.shown for p in plan.left],
        },
    )
    plan.mem0 = _forget_in_mem0(plan)
    return plan


def _forget_in_mem0(plan: ForgetPlan) -> Mem0Forget | None:
    """Mem0's copy goes too (searched by the words and the statements); never raises."""
    from memclaw.providers.mem0_forget import forget_in_mem0

    searches = [] if FACT_ID.fullmatch(plan.target) else [plan.target]
    searches += [fact.statement for fact in plan.facts]
    return forget_in_mem0(plan.scope, searches, lambda text: bool(plan.matcher.redact(text)[1]))


def _hold_sessions(scope: Scope, held: contextlib.ExitStack, own: str | None) -> None:
    """Each transcript's chat lock, so that no open chat has its transcript rewritten."""
    folder = scope.folder / places.SESSIONS
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.jsonl")):
        if path.stem == own:
            continue
        try:
            held.enter_context(file_lock(chat_lock(scope.agent, path.stem), wait=0))
        except LockBusyError:
            raise LockBusyError(
                f"session {path.stem} is open in a memclaw chat; close it and forget again "
                "(nothing was removed yet; the fact will not be learned again meanwhile)"
            ) from None


def _clean_file(scope: Scope, matcher: Matcher, store: Store, kind: Kind, path: Any) -> None:
    if store is Store.LOGS:
        places.forget_in_logs(scope, matcher)
        return
    if kind is Kind.ITEMS:
        fact_inbox.remove(scope.agent, lambda item: places.inbox_item_says(scope, matcher, item))
        return
    if kind is Kind.TYPED:
        places.forget_typed(scope, matcher)
        return
    if kind is Kind.DOCUMENTS:
        for name in places.documents_saying(scope, matcher, store):
            ledger.save(scope.agent.meta_dir, name, None)
        return
    text = places.text_of(scope, store, path)
    if text is None:
        return
    if kind is Kind.DROP:
        data = places.parse_json(text)
        if data is not None and matcher.redact_data(data)[1]:
            path.unlink(missing_ok=True)
        return
    new, _lines, count = places.rewrite(kind, text, matcher, scope)
    if count and new != text:
        # Written directly, not through Agent.write: that would keep the old text in history.
        places.put_text(scope, store, path, new)


def _clean_index(scope: Scope) -> None:
    from memclaw.index.store import index_path
    from memclaw.review.scan_index import clean_index

    agent = scope.agent
    if index_path(agent.path).is_file():
        clean_index(agent.path, is_global=False, now=agent.now().isoformat(timespec="seconds"))
