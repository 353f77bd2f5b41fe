"""What a dream does with the fact layer: corrections, contradictions and low trust.

* Explicit corrections in the window's daily notes ("Correction: the cutover
  moved to 2026-12-19") replace what they correct in MEMORY.md, PROFILE.md
  and the entries, and the old fact is recorded as superseded. A line that a
  correction outdates without being about the same subject ("on track for the
  2026-12-12 cutover", see ``conflict.superseded_by``) is rewritten to the
  correction when a machine wrote it (or removed, when the file already says
  the correction); a person's such line is never changed silently: it waits in
  the inbox against the correction, for the person to decide.
* A candidate that an explicit correction in the notes contradicts is never
  promoted, even when it was repeated after the correction: the correction is
  the fact in force until another correction changes it.
* A candidate that contradicts a remembered fact is not promoted over it: it
  waits in the inbox (``memclaw inbox``) and the remembered fact stays.
* Facts whose trust fell below ``trust_floor``, or that outlived their
  category's ``retention`` ttl_days, are not carried forever: a
  machine-written MEMORY.md line is dropped (through the loss guard, like any
  dream rewrite), a person's is flagged in the diary and kept. An immutable
  category's facts are never dropped for low trust.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memclaw.dream.candidates import CandidateReport, Status
from memclaw.facts import inbox, store
from memclaw.facts.ids import fact_id
from memclaw.facts.judge import Judge
from memclaw.facts.ledger import facts_of, retention
from memclaw.facts.model import Event, EventKind, Fact, Kind, Place
from memclaw.facts.project import project_text
from memclaw.facts.rewrite import restate, retire
from memclaw.facts.settle import Outcome, Settled, hold, settle, strip_cue
from memclaw.judgement import Relation, is_correction, judge, superseded_by

if TYPE_CHECKING:
    from collections.abc import Iterable

    from memclaw.llm import ChatModel
    from memclaw.workspace.scope import Scope

MEMORY = "MEMORY.md"


@dataclass
class FactCheck:
    """What the fact layer changed or held back in one dream."""

    corrected: list[str] = field(default_factory=list)  # statements that superseded a fact
    rewritten: list[str] = field(default_factory=list)  # the files those corrections rewrote
    held: list[str] = field(default_factory=list)  # inbox ids opened by candidates
    dropped: list[str] = field(default_factory=list)  # low-trust model lines removed
    flagged: list[str] = field(default_factory=list)  # low-trust lines a person wrote
    overruled: list[str] = field(default_factory=list)  # a model's lines known to be wrong

    def corrects(self, statement: str, files: Iterable[str] = ()) -> None:
        """Note that ``statement`` corrected memory, in ``files``: each once."""
        if statement not in self.corrected:
            self.corrected.append(statement)
        self.rewritten += [f for f in dict.fromkeys(files) if f not in self.rewritten]

    def to_dict(self) -> dict[str, list[str]]:
        return {
            "corrected": self.corrected,
            "inbox": self.held,
            "dropped_low_trust": self.dropped,
            "flagged_low_trust": self.flagged,
            "overruled": self.overruled,
        }


def apply_corrections(
    scope: Scope,
    notes: list[str],
    check: FactCheck,
    *,
    source: str,
    model: ChatModel | None,
    apply: bool = True,
) -> None:
    """Let each explicit correction in ``notes`` replace the fact it corrects (writes
    files); ``apply`` False only fills ``check`` with what would be done (a dry run)."""
    fixes = []
    opinion = None if model is None else Judge.of(model)  # asked once per pair: judged, then kept
    # A change already put to the person (the extraction that wrote the note held it, or
    # an earlier dream asked) is theirs to settle, open or closed: never applied here.
    asked = {item.new_fact for item in inbox.load(scope.agent)}
    for rel in notes:
        for place in project_text(rel, scope.agent.read(rel)):
            if not is_correction(place.statement):
                continue
            if set(_ids(scope, place)) & asked:
                continue
            judged = settle(
                scope, place.statement, source=source, by_person=True, apply=False, model=opinion
            )
            if _overtaken(scope, place, judged):
                continue
            if mine := _persons_lines(place, judged):
                if apply:
                    _ask(scope, mine, judged.statement, check, source=source)
                else:
                    check.held += [f.id for f in mine]
                continue
            if not apply:
                if judged.outcome is Outcome.REPLACED:
                    paths = (p.path for f in judged.against for p in f.places)
                    check.corrects(judged.statement, paths)
                continue
            fixes.append(place.statement)
            settled = settle(scope, place.statement, source=source, by_person=True, model=opinion)
            if settled.outcome is Outcome.REPLACED:
                check.corrects(settled.statement, settled.changed)
    for fix in fixes:
        _outdated(scope, fix, check, source=source)


def _ids(scope: Scope, place: Place) -> tuple[str, str]:
    """The fact ids of a note's statement: as said, and without its correction cue."""
    said = " ".join(place.statement.split())
    return fact_id(said, scope.prefix), fact_id(strip_cue(said), scope.prefix)


def _overtaken(scope: Scope, place: Place, judged: Settled) -> bool:
    """True when memory learnt better after the note said ``place``: it is not applied again.

    A dream reads every note of its window, so an old note's "moved to ..." would
    otherwise undo a later correction (by ``remember``, a later chat): the note's
    own fact was superseded since, or what it would replace was stated on a later
    day than the note's.
    """
    said = _ids(scope, place)[1]
    if any(f.id == said and f.superseded for f in facts_of(scope)):
        return True
    if place.day is None or judged.outcome is not Outcome.REPLACED:
        return False
    return any(e.time[:10] > place.day.isoformat() for f in judged.against for e in f.events)


def _persons_lines(place: Place, judged: Settled) -> list[Fact]:
    """Facts in a person's own PROFILE.md or MEMORY.md line that a note's change would rewrite.

    Only an explicit correction ("Correction: ...", "Actually ...") rewrites a person's
    line. A note that merely tells of a change ("User moved to Lisbon on ...") may be
    older than the person's own fix of that line (a hand edit leaves no evidence to
    date it): it is asked about in the inbox, never applied silently.
    """
    if judged.outcome is not Outcome.REPLACED or strip_cue(place.statement) != place.statement:
        return []
    return [
        f
        for f in judged.against
        if any(p.author == "person" and p.kind in _INJECTED for p in f.places)
    ]


def _ask(scope: Scope, facts: list[Fact], statement: str, check: FactCheck, *, source: str) -> None:
    filed = {item.id for item in inbox.load(scope.agent)}
    new_id = fact_id(statement, scope.prefix)
    for fact in facts:
        if inbox.item_id(fact.id, new_id) not in filed:  # a closed item is not asked again
            why = "a note tells of a change to a line you wrote"
            check.held.append(hold(scope, fact, statement, why, source=source).id)


_INJECTED = frozenset({Kind.MEMORY, Kind.PROFILE})


def _outdated(scope: Scope, fix: str, check: FactCheck, *, source: str) -> None:
    """Lines of MEMORY.md and PROFILE.md that ``fix`` outdates: rewritten, or held for a person."""
    statement = strip_cue(" ".join(fix.split()))
    new_id = fact_id(statement, scope.prefix)
    facts = facts_of(scope, durable_only=True)
    # Where a line says it already, in these words or others ("Sam lives in Porto" for
    # "Sam moved to Porto"): there the outdated line goes, rather than become a twin.
    there = {p.path for f in facts if _says(f, new_id, statement) for p in f.places}
    filed = {item.id for item in inbox.load(scope.agent)}
    now = scope.agent.now().isoformat(timespec="seconds")
    for fact in facts:
        places = [p for p in fact.places if p.kind in _INJECTED]
        if not places or fact.id == new_id or fact.superseded:
            continue
        if not superseded_by(fact.statement, fix):
            continue
        if any(p.author != "model" for p in places):
            # A person's words: their call, asked once (a closed item is not asked again).
            if inbox.item_id(fact.id, new_id) not in filed:
                why = "an explicit correction in the notes outdates it"
                check.held.append(hold(scope, fact, statement, why, source=source).id)
            continue
        if any(p.path in there for p in places):
            retire(scope, fact, _INJECTED)  # the file says the correction already
        else:
            restate(scope, fact, statement)
            there |= {p.path for p in places}
        store.record(scope.agent, [fact.id], Event(EventKind.SUPERSEDED, now, source))
        store.record(scope.agent, [new_id], Event(EventKind.STATED, now, source))
        check.corrects(statement)


def _says(fact: Fact, new_id: str, statement: str) -> bool:
    if fact.id == new_id:
        return True
    return not fact.superseded and judge(fact.statement, statement).relation is Relation.SAME


def overruled(report: CandidateReport) -> None:
    """Candidates an explicit correction in the notes contradicts are marked CORRECTED."""
    corrections = [
        m
        for cand in report.candidates
        for m in cand.mentions
        if m.correction or is_correction(m.text)
    ]
    if not corrections:
        return
    for cand in report.candidates:
        if cand.status is not Status.PROMOTE:
            continue
        first = min(m.order for m in cand.mentions)
        for fix in corrections:
            if fix in cand.mentions or fix.order < first:
                continue
            if superseded_by(cand.text, fix.text):
                cand.status = Status.CORRECTED
                cand.reasons.append(f"an explicit correction overrules it: {fix.file}:{fix.line}")
                break


def hold_contradictions(
    scope: Scope,
    report: CandidateReport,
    check: FactCheck,
    *,
    source: str,
    apply: bool,
    model: ChatModel | None,
) -> None:
    """Candidates that disagree with a remembered fact go to the inbox instead of MEMORY.md."""
    for cand in report.promoted:
        settled = settle(scope, cand.text, source=source, by_person=False, apply=apply, model=model)
        if settled.outcome is Outcome.HELD:
            cand.status = Status.CONTRADICTS
            ids = [item.id for item in settled.items]
            check.held += ids
            cand.reasons.append(f"contradicts a remembered fact: in the inbox as {', '.join(ids)}")
        elif settled.outcome is Outcome.REPLACED:
            cand.status = Status.KNOWN
            check.corrects(settled.statement, settled.changed)
            cand.reasons.append("it corrected a remembered fact in place")
        elif settled.outcome is Outcome.RESTATED and (said := _injected(settled.against)):
            # Said already in MEMORY.md or PROFILE.md, in other words: "Sam moved to Porto"
            # once the notes' correction made the line "Sam lives in Porto with his cat Miso".
            cand.status = Status.KNOWN
            cand.reasons.append(f"already known: {said[0].statement}")


def _injected(facts: list[Fact]) -> list[Fact]:
    """The facts with a line in MEMORY.md or PROFILE.md (an entry alone is promoted)."""
    return [f for f in facts if any(p.kind in _INJECTED for p in f.places)]


def prune_low_trust(scope: Scope, text: str, check: FactCheck) -> str:
    """``text`` (the new MEMORY.md) without the model lines whose trust is under the floor."""
    floor = scope.agent.settings.trust_floor
    if floor <= 0 and not scope.agent.settings.retention:
        return text
    low = {}
    for f in facts_of(scope, durable_only=True):
        if not any(p.kind is Kind.MEMORY for p in f.places):
            continue
        if not f.events and all(p.kind is Kind.MEMORY for p in f.places):
            # Neither evidence nor a dated note yet (an extraction is still recording
            # them): its age would be a guess from the date of MEMORY.md alone.
            continue
        stale, fixed = retention(scope, f)  # past its time to live; never when immutable
        if stale or (f.trust < floor and not fixed):
            low[f.id] = f
    if not low:
        return text
    kept = []
    model_lines = {
        p.statement
        for f in low.values()
        for p in f.places
        if p.kind is Kind.MEMORY and p.author == "model"
    }
    for place_line in text.splitlines(keepends=True):
        found = project_text(scope.rel(MEMORY), place_line)
        fid = found[0].fact if found else None
        if fid in low:
            statement = found[0].statement
            if statement in model_lines:
                check.dropped.append(statement)
                continue
            if statement not in check.flagged:
                check.flagged.append(statement)
        kept.append(place_line)
    return "".join(kept)


def screen_rewrite(
    scope: Scope,
    old: str,
    new: str,
    report: CandidateReport,
    check: FactCheck,
    *,
    source: str,
    apply: bool,
    model: ChatModel | None,
) -> str:
    """A model's MEMORY.md without the lines it brought in that disagree with what is known.

    A new line is dropped when it states a superseded fact, when an explicit
    correction in the notes contradicts it, or when it contradicts a remembered
    fact (that one goes to the inbox). Lines MEMORY.md already had are the loss
    guard's business, not this one's.
    """
    rel = scope.rel(MEMORY)
    before = {p.fact for p in project_text(rel, old)}
    corrections = [
        m.text
        for c in report.candidates
        for m in c.mentions
        if m.correction or is_correction(m.text)
    ]
    superseded = {f.id for f in facts_of(scope) if f.superseded}
    kept = []
    for line in new.splitlines(keepends=True):
        found = project_text(rel, line)
        if not found or found[0].fact in before:
            kept.append(line)
            continue
        statement = found[0].statement
        if found[0].fact in superseded or any(judge(statement, c).disagrees for c in corrections):
            check.overruled.append(statement)
            continue
        settled = settle(scope, statement, source=source, by_person=False, apply=apply, model=model)
        if settled.outcome is Outcome.HELD:
            check.held += [item.id for item in settled.items]
            continue
        kept.append(line)
    return "".join(kept)
