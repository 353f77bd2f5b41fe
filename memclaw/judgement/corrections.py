"""Corrections: a statement that says it changes what was known, and what it outdates.

"Actually ...", "correction: ...", "moved to ...", "no longer ...": the newest statement
wins over the one it corrects. Beyond the one judgement (which needs one subject on
both sides), a correction that moves a named thing to a new date or time outdates any
line giving that thing another date or time: "the PostGIS cutover moved to 2026-12-19"
outdates "the migration is on track for the 2026-12-12 cutover", whoever that line is
about.
"""

from __future__ import annotations

import re

from memclaw.judgement.claims import read, strip
from memclaw.judgement.lexicon import CORRECTION
from memclaw.judgement.relate import Relation, judge
from memclaw.judgement.words import keys, words

# "the PostGIS cutover moved to ...", "the launch has slipped to ...": the word before the
# change verb names the thing whose date or time changed.
_CHANGED_THING = re.compile(
    r"([^\W\d_][\w-]*)\s+(?:(?:has|have|had|was|were|is|got|just)\s+(?:been\s+)?)?"
    r"(?:moved|slipped|shifted|changed|pushed|postponed|rescheduled|delayed|brought forward)\b",
    re.IGNORECASE,
)
_OF = re.compile(r"\s+(?:of|av|von|des|de|del)\s+", re.IGNORECASE)
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_TIME = re.compile(r"(?<![\d.:])(?:[01]?\d|2[0-3]):[0-5]\d(?![\d:])")


def is_correction(text: str) -> bool:
    """True when ``text`` announces itself as correcting or changing what was known."""
    return bool(CORRECTION.search(text))


def superseded_by(old: str, correction: str) -> bool:
    """True when the explicit ``correction`` makes ``old`` out of date (see the module)."""
    if not is_correction(correction):
        return False
    if judge(old, correction).relation is Relation.UPDATE:
        return True
    fix, line = strip(correction)[0], strip(old)[0]
    thing = _CHANGED_THING.search(fix)
    if thing is None:
        return False
    language = read(fix).language
    # "The Postgres 16 upgrade of server alpha was postponed": the upgrade is the thing,
    # and it is server alpha's; a line of server beta's upgrade is about another.
    subject = _OF.split(fix[: thing.end(1)], maxsplit=1)
    head = subject[0].split()[-1:] if len(subject) > 1 else [thing.group(1)]
    named = keys(words(" ".join(head), language))
    whose = keys(words(subject[1], language)) if len(subject) > 1 else frozenset()
    said = read(line, language).keys
    if not named or not named & said or not whose <= said:
        return False
    for kind in (_DATE, _TIME):  # a date for a date, a time for a time
        new, was = set(kind.findall(fix)), set(kind.findall(line))
        if new and was and new.isdisjoint(was):
            return True
    return False
