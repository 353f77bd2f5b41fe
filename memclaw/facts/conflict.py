"""Do two remembered statements disagree? An offline judge, with its reasons.

``judge(old, new)`` says one of four things:

* ``conflict``: same subject and attribute, different value ("lives in Oslo" /
  "lives in Bergen"; "is vegetarian" / "eats meat"; a date or a count that
  differs). The old fact stays in force until a person resolves it.
* ``correction``: a conflict the new statement announces as a correction or a
  change ("actually", "correction:", "not X but Y", "moved to", "no longer"):
  the newest statement wins and the old one is superseded.
* ``restated``: the same fact again, maybe with more detail.
* ``compatible``: two facts that can both hold.

Every rule needs the same subject: what Maya does never contradicts what the
user does. A verdict is ``sure`` unless it rests only on word overlap; an
unsure one is what a model is asked to judge (``memclaw.facts.judge``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from memclaw.facts import lexicon as lx
from memclaw.facts.statement import Statement, content, read

Kind = Literal["conflict", "correction", "restated", "compatible"]
KINDS: tuple[Kind, ...] = ("conflict", "correction", "restated", "compatible")


@dataclass(frozen=True)
class Verdict:
    kind: Kind
    reason: str
    attribute: str = ""
    old_value: str = ""
    new_value: str = ""
    sure: bool = True

    @property
    def disagrees(self) -> bool:
        return self.kind in ("conflict", "correction")


def is_correction(text: str) -> bool:
    """True when ``text`` announces itself as correcting or changing what was known."""
    return bool(lx.CORRECTION.search(text))


def _alike(a: str, b: str) -> bool:
    # Stems of the same word that Snowball leaves apart: "marri"/"marriag", "celebr"/"celebrated".
    return a == b or (min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a)))


def _shared(a: Iterable[str], b: Iterable[str]) -> int:
    right = list(b)
    return sum(1 for x in set(a) if any(_alike(x, y) for y in right))


def _within(small: frozenset[str], big: frozenset[str]) -> float:
    return _shared(small, big) / len(small) if small else 0.0


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """How much of the shorter set the longer one says too."""
    if not a or not b:
        return 0.0
    return max(_within(a, b), _within(b, a))


def _same_subject(a: Statement, b: Statement) -> bool:
    if "rule" in (a.subject, b.subject):
        return True
    if a.subject is not None and b.subject is not None:
        return a.subject == b.subject
    if a.subject is None and b.subject is None:
        return _shared(a.subject_terms or a.terms, b.subject_terms or b.terms) > 0
    thing = a if a.subject is None else b
    person = b if thing is a else a
    return person.subject in (thing.subject_terms or thing.terms)


def _differ(old: frozenset[str], new: frozenset[str]) -> bool:
    """Two values of one attribute differ when neither contains the other."""
    return bool(old) and bool(new) and _within(old, new) < 1 and _within(new, old) < 1


def _show(values: Iterable[str | float]) -> str:
    return ", ".join(sorted(f"{v:g}" if isinstance(v, float) else v for v in values))


def _frames(old: Statement, new: Statement) -> Verdict | None:
    for attribute, value in new.frames.items():
        if attribute in old.frames and _differ(old.frames[attribute], value):
            return _conflict(f"different {attribute}", attribute, old.frames[attribute], value)
    if old.attr is None or new.attr is None:
        return None
    (old_attribute, old_value), (new_attribute, new_value) = old.attr, new.attr
    if _overlap(old_attribute, new_attribute) == 1.0 and _differ(old_value, new_value):
        name = " ".join(sorted(new_attribute))
        return _conflict(f"a different {name}", name, old_value, new_value)
    return None


def _habits(old: Statement, new: Statement) -> Verdict | None:
    """A diet and what one eats, abstaining and having, single and married."""
    for a, b in ((old, new), (new, old)):
        for diet in a.diet:
            clash = lx.DIET_EXCLUDES.get(diet, set()) & b.eats
            if clash:
                return _conflict(f"{diet} but eats {_show(clash)}", "diet", {diet}, clash)
        if a.abstains & b.consumes:
            return _conflict("abstains from what the other has", "habit",
                             a.abstains, a.abstains & b.consumes)  # fmt: skip
    if old.marital and new.marital and old.marital.isdisjoint(new.marital):
        return _conflict("a different relationship status", "relationship",
                         old.marital, new.marital)  # fmt: skip
    return None


def _polarity(old: Statement, new: Statement) -> Verdict | None:
    """One likes what the other dislikes, or denies what the other says."""
    opposite = old.sentiment * new.sentiment < 0
    if opposite and _shared(old.object_terms, new.object_terms):
        return _conflict("likes what the other dislikes", "taste")
    if old.negated != new.negated:
        denial, claim = (old, new) if old.negated else (new, old)
        if _shared(denial.heads, claim.terms) and _overlap(denial.terms, claim.terms) >= 0.5:
            return _conflict("one denies what the other says", "polarity")
    # "Actually ... not Sam", "no en Sevilla": naming the old value to take it back.
    taken_back = new.denied & (_said(old) | old.values)
    if new.cue and taken_back:
        return _conflict("takes back the old value", "value", taken_back)
    return None


def _values(old: Statement, new: Statement) -> Verdict | None:
    """A date, time, weekday or count of the same thing that differs."""
    mine, theirs = _said(old), _said(new)
    related = _overlap(mine, theirs) >= 0.5 or (
        new.cue and (_shared(mine, theirs) >= 2 or _overlap(mine, theirs) >= 0.34)
    )
    if not related or old.idents != new.idents:  # "dry run #3" and "dry run #4" are two runs
        return None
    old_days = old.weekdays if not old.dates else frozenset()
    new_days = new.weekdays if not new.dates else frozenset()
    for label, a, b in (
        ("date", old.dates, new.dates),
        ("time", old.times, new.times),
        ("weekday", old_days, new_days),
    ):
        if a and b and a.isdisjoint(b):
            return _conflict(f"a different {label}", label, a, b)
    if not (old.stative and new.stative):
        return None  # counts in what happened ("took 3 min", "peaked at 9") are no state
    for unit, numbers in new.counts.items():
        if unit not in _MEASURES and unit in old.counts and old.counts[unit].isdisjoint(numbers):
            return _conflict(f"a different number of {unit}", unit, old.counts[unit], numbers)
    return None


def _alternatives(old: Statement, new: Statement) -> Verdict | None:
    """ "Prefers tea" and "prefers coffee": one choice replaced by another."""
    if not ((new.single_valued and old.single_valued) or new.cue):
        return None
    for group, words in new.alternatives.items():
        theirs = old.alternatives.get(group)
        if not theirs or words & theirs:
            continue
        rest_old, rest_new = old.terms - _stems(theirs), new.terms - _stems(words)
        if new.cue or _overlap(rest_old, rest_new) >= 0.5:
            return _conflict("one choice replaced by another", "choice", theirs, words)
    return None


# In order: the first rule that finds a disagreement gives the reason.
_RULES = (_frames, _habits, _polarity, _values, _alternatives)


def _conflict(
    reason: str, attribute: str, old: Iterable[str | float] = (), new: Iterable[str | float] = ()
) -> Verdict:
    return Verdict("conflict", reason, attribute, _show(old), _show(new))


_MEASURES = {
    "", "s", "sec", "second", "min", "minut", "h", "hour", "hr", "ms", "day", "week",
    "km", "m", "mi", "kg", "g", "mb", "gb", "tb", "kb", "%", "x", "×",
}  # fmt: skip


def _said(statement: Statement) -> frozenset[str]:
    """What a statement says about its subject; a thing's name is part of what is said."""
    if statement.subject is None:
        return statement.subject_terms | statement.terms
    return statement.terms


def _stems(words: Iterable[str]) -> frozenset[str]:
    return frozenset(stem for word in words for stem in content(word))


def _restates(old: Statement, new: Statement) -> bool:
    if any(a in old.frames and not _differ(old.frames[a], v) for a, v in new.frames.items()):
        return True
    mine = old.terms | {_show(c) for c in old.counts.values()} | old.dates | old.times
    theirs = new.terms | {_show(c) for c in new.counts.values()} | new.dates | new.times
    return _overlap(mine, theirs) >= 0.75


def judge(old: str, new: str) -> Verdict:
    """How ``new`` relates to the remembered ``old``."""
    a, b = read(old), read(new)
    if not _same_subject(a, b):
        return Verdict("compatible", "different subjects")
    found = next((v for rule in _RULES if (v := rule(a, b)) is not None), None)
    if found is not None:
        kind: Kind = "correction" if b.cue else "conflict"
        return Verdict(kind, found.reason, found.attribute, found.old_value, found.new_value)
    if _restates(a, b):
        return Verdict("restated", "the same fact")
    unsure = _overlap(_said(a), _said(b)) >= 0.34
    return Verdict("compatible", "both can hold", sure=not unsure)


# "the PostGIS cutover moved to ...", "the launch has slipped to ...": the word before the
# change verb names the thing whose date or time changed.
_CHANGED_THING = re.compile(
    r"([^\W\d_][\w-]*)\s+(?:(?:has|have|had|was|were|is|got|just)\s+(?:been\s+)?)?"
    r"(?:moved|slipped|shifted|changed|pushed|postponed|rescheduled|delayed|brought forward)\b",
    re.IGNORECASE,
)
# "(as of 2026-11-20)": when a line was true, not a value it states.
_AS_OF = re.compile(r"\(?\bas of \d{4}-\d{2}-\d{2}\)?,?", re.IGNORECASE)


def superseded_by(old: str, correction: str) -> bool:
    """True when the explicit ``correction`` makes ``old`` out of date.

    Beyond :func:`judge`'s disagreement (which needs one subject on both sides),
    a correction that moves a named thing to a new date or time supersedes any
    line that gives that thing another date or time: "the PostGIS cutover moved
    to 2026-12-19" outdates "the migration is on track for the 2026-12-12
    cutover", whoever the line is about.
    """
    if not is_correction(correction):
        return False
    if judge(old, correction).disagrees:
        return True
    thing = _CHANGED_THING.search(correction)
    if thing is None:
        return False
    fix, line = read(_AS_OF.sub("", correction)), read(_AS_OF.sub("", old))
    named = content(thing.group(1))
    if not named or not _shared(named, line.terms | line.subject_terms):
        return False
    for new, was in ((fix.dates, line.dates), (fix.times, line.times)):
        if new and was and new.isdisjoint(was):
            return True
    return False
