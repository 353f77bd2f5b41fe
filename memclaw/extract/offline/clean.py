"""Clean-up of a user's English sentence before the rules read it, and clause splitting.

People type "btw im based in lisbon 🙂", "heads up: ...", "..., if you can help me
draft it": the fact is inside, wrapped in openers, tags, emoji and asides to the
assistant. Text pasted from an assistant is recognised and never read as a fact.
"""

from __future__ import annotations

import re
import unicodedata

I_ = re.IGNORECASE

_CASUAL = (
    (re.compile(r"\bi\b"), "I"),
    (re.compile(r"\bim\b", I_), "I'm"),
    (re.compile(r"\bive\b", I_), "I've"),
    (re.compile(r"\bdont\b", I_), "don't"),
    (re.compile(r"\bdoesnt\b", I_), "doesn't"),
    (re.compile(r"\bcant\b", I_), "can't"),
    (re.compile(r"\bdidnt\b", I_), "didn't"),
)
# Openers that carry no fact: "btw", "heads up:", "like I said", "I told you yesterday,".
_OPENER = re.compile(
    r"^(?:(?:ok(?:ay)?|so|oh|and|also|but|btw|fyi|tbh|honestly|personally|anyway|anyways|well|"
    r"yeah|yep|actually|basically|fwiw|imo|just so you know|for the record|for context|"
    r"(?:please )?note that|keep in mind(?: that)?|remember that|fun fact|"
    r"(?:as|like) i (?:said|mentioned)(?: before| earlier)?|as you know|"
    r"i told you(?: yesterday| before| earlier| already)?|long story short|"
    r"(?:and )?the (?:main|important|big) (?:thing|news) is(?: that)?)[,:!.]?\s+|"
    r"(?:update|news|note|reminder|heads[- ]up|quick (?:note|update|fyi)|side note)[:!]\s+)+",
    I_,
)
_CLOSER = re.compile(
    r"(?:,?\s+(?:btw|tbh|fyi|lol|haha|these days|nowadays|by the way|for what it's worth))+"
    r"\s*([.!]?)\s*$",
    I_,
)


# A trailing request to the assistant ("..., if you can help me draft that way") is not part
# of the fact before it.
_ASIDE_TO_YOU = re.compile(
    r",?\s+(?:(?:if|so|and)\s+(?:you|u)\b|(?:so\s+)?(?:can|could) you\b|please\b).*$", I_
)


def _pictograph(ch: str) -> bool:
    kind = unicodedata.category(ch)
    # Backticks and carets are modifier symbols too, but mark code: only emoji modifiers go.
    return kind in {"So", "Cs", "Co"} or (kind == "Sk" and ord(ch) > 0x2000)


def _plain(text: str) -> str:
    """Emoji and pictographs out: they never carry the fact."""
    kept = (" " if _pictograph(ch) else ch for ch in text)
    return " ".join("".join(kept).replace("\ufe0f", "").split())


def normalise(sentence: str) -> str:
    """An English sentence without emoji, openers and tags, with casual spellings fixed."""
    text = _plain(sentence)
    for pattern, replacement in _CASUAL:
        text = pattern.sub(replacement, text)
    text = _CLOSER.sub(r"\1", text)
    text = _ASIDE_TO_YOU.sub("", text)
    stripped = _OPENER.sub("", text)
    return stripped[:1].upper() + stripped[1:] if stripped != text else stripped


# Clause boundaries inside one sentence: a dash, a semicolon, "and"/"but"/"so" starting a new
# subject, a comma followed by a discourse word, or a comma before a new first-person subject.
_BOUNDARY = re.compile(
    r"\s+[-–—]\s+|;\s*|,?\s+(?:and|but|so|plus)\s+(?=(?:I|I'm|we|we're|my|our|also)\b)|"
    r",\s+(?=(?:anyway|also|and|so|but|plus|btw|I|I'm|I've|we|we're|we've|my|our|the main|"
    r"the big)\b)|,\s+(?=(?:y|und|och)\s)|\s+(?:y|und|och)\s+(?=(?:ab sofort|prefiero|trabajo|"
    r"vivo|soy|jag|ich|vi|wir)\b)",
    I_,
)


def clauses(sentence: str) -> list[str]:
    parts = [p.strip(" ,") for p in _BOUNDARY.split(sentence)]
    return [p for p in parts if len(p.split()) >= 2]


_ASSISTANTISH = (
    re.compile(r"\bas an ai\b", I_),
    re.compile(r"^(?:sure|certainly|of course|absolutely|great question)[!,.]", I_),
    re.compile(r"\blet me know if you (?:need|have|want|would like|'d like)\b", I_),
    re.compile(
        r"\bhere(?:'s| is) (?:a|the|your) (?:quick |short |brief )?(?:summary|overview|"
        r"breakdown|rundown|recap)\b",
        I_,
    ),
    re.compile(r"\b(?:i hope this helps|happy to help|feel free to (?:ask|reach out))\b", I_),
    re.compile(r"\bi (?:can|could) help you\b", I_),
)


def looks_like_assistant(text: str) -> bool:
    """Text pasted from an assistant (or written like one): never a fact about the user."""
    hits = sum(1 for pattern in _ASSISTANTISH if pattern.search(text))
    return hits >= 2 or bool(_ASSISTANTISH[0].search(text))
