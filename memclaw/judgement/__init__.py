"""Judgement: what a new statement does to a remembered one. One judge serves every path.

A statement is read offline as subject, attribute and value (``claims``, ``frames``)
in English, Swedish, German or Spanish; two are related by ``relate.judge`` (the same
fact, a richer one, a new value, another fact), and ``combine.merged`` writes the one
line that stays when a newer statement replaces an older one. ``lexicon`` holds the
words these reason with (correction cues, negations, diets, choices that replace one
another). Pure text: no files, no model (a model's second opinion is ``facts.judge``).

May import: text.
"""

from __future__ import annotations

from memclaw.judgement.claims import Claim, read
from memclaw.judgement.combine import Merged, merged
from memclaw.judgement.corrections import is_correction, superseded_by
from memclaw.judgement.relate import (
    Judgement,
    Relation,
    judge,
    may_say_it_otherwise,
    tells_apart,
)

__all__ = [
    "Claim",
    "Judgement",
    "Merged",
    "Relation",
    "is_correction",
    "judge",
    "may_say_it_otherwise",
    "merged",
    "read",
    "superseded_by",
    "tells_apart",
]
