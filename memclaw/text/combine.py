"""Combining statements about one thing into one self-contained sentence, offline.

Two moves, both on words alone (whether two statements *disagree* is the fact
layer's question, asked by the callers first):

* ``absorb``: a newer version of a fact (``updates``) takes in what only the older one said.
  "User is planning a trip to Paris in September with friend Jack", then "User
  booked the Paris trip for 2026-09-12 to 2026-09-19": the booking keeps its
  own words and gains ", with friend Jack". The older one's head ("is planning
  a trip") is what the newer restates, and its time ("in September") is what
  the newer updates, so neither is carried over.
* ``join``: short facts about one subject become one sentence. "User has a
  dog", "Dog's name is Poppy", "User walks the dog daily": "User has a dog
  named Poppy and walks the dog daily."

A fact should read as one sentence of roughly 15 to 50 words (``MAX_WORDS``):
nothing is joined past that.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memclaw.text.language import language_of
from memclaw.text.likeness import is_value, tokens

MAX_WORDS = 50  # a fact is one sentence of roughly 15-50 words: joins stop here
SHORT_WORDS = 12  # a fact this short is a fragment worth joining to its neighbours

_AS_OF = re.compile(r"^\s*(?:as of \d{4}-\d{2}-\d{2},?)\s*|\s*\(as of [^)]*\)", re.IGNORECASE)
# Where an older statement's details start: after a comma, or before a preposition.
_PIECES = re.compile(
    r"\s*[,;]\s*|\s+(?=(?:with|for|in|on|at|to|from|by|near|via|because|since|until|"
    r"med|mit|con|avec)\s)",
    re.IGNORECASE,
)
_TIME = re.compile(
    r"\b(?:\d{4}-\d{2}(?:-\d{2})?|\d{1,2}:\d{2}|january|february|march|april|may|june|july|"
    r"august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|"
    r"nov|dec|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|"
    r"yesterday|tonight|week|weekend|month|year|spring|summer|autumn|fall|winter|"
    r"\d{4})\b",
    re.IGNORECASE,
)
_NAME = re.compile(r"\b[A-ZÅÄÖ][\w-]+")
# A thing, as opposed to a person: a lower-case noun after an article ("a dog", "the dog").
# Spanish articles too ("un perro", "al perro"); "el usuario" is the person, not a thing.
_THING = re.compile(
    r"\b(?i:a|an|the|my|our|their|his|her|un|una|el|la|al|del|mi|su)\s+"
    r"(?!(?i:usuari[oa]|equipo)\b)([a-zåäöüñ][\w-]*)"
)
_ARTICLES = frozenset({"a", "an", "the", "my", "our", "their", "his", "her", "el", "la", "mi"})
_HAS = re.compile(r"\b(?:has|have|owns|got|tiene)\s+(?:a|an|un|una)\s+([\w-]+)", re.IGNORECASE)
# Ways a fact names the thing another one introduced: (thing, name) in named groups.
_NAMED = (
    re.compile(
        r"^(?:the\s+|user's\s+|my\s+|their\s+)?(?P<thing>[\w-]+?)(?:'s|’s)\s+name\s+is\s+"
        r"(?P<name>.+?)\.?$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^(?:the\s+|user's\s+|my\s+)?(?P<thing>[\w-]+)\s+is\s+(?:called|named)\s+(?P<name>.+?)\.?$",
        re.IGNORECASE,
    ),
    # "Poppy is the user's dog", as the offline engine words a pet's name.
    re.compile(r"^(?P<name>[A-ZÅÄÖ][\w-]*)\s+is\s+the\s+user's\s+(?P<thing>[\w-]+)\.?$"),
    re.compile(
        r"^(?:el|la|mi|su)\s+(?P<thing>[\w-]+)(?:\s+del\s+usuario)?\s+se\s+llama\s+"
        r"(?P<name>.+?)\.?$",
        re.IGNORECASE,
    ),
)
# Words that tie a name or a second fact on, per language (English when not listed).
_TIES = {"spanish": (" que se llama ", " y ")}


def _body(text: str) -> str:
    return _AS_OF.sub(" ", " ".join(text.split())).strip()


def _names(text: str) -> frozenset[str]:
    """Names in ``text`` (capitalised words past its first), as tokens."""
    body = _body(text)
    first = body.split(" ", 1)[0] if body else ""
    found = {m.group(0) for m in _NAME.finditer(body) if m.start() > 0 or m.group(0) != first}
    return frozenset(t for name in found for t in tokens(name))


_POSSESSIVE = re.compile(r"(\w)['’]s\b")


def _words(text: str) -> frozenset[str]:
    """Content words without values; "dog's" is the dog."""
    return frozenset(t for t in tokens(_POSSESSIVE.sub(r"\1", text)) if not is_value(t))


def same_thing(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` are about one named thing (the Paris trip, the lotsen
    cutover): they share a name and a word that is no name (the thing itself). Two facts
    that share only names ("Maya's manager is Jonas Ek", "Jonas Ek reviews Maya's code")
    are two facts about people, not two versions of one."""
    shared = _words(a) & _words(b)
    names = _names(a) | _names(b)
    return bool(shared & names) and bool(shared - names)


def _covered(piece: frozenset[str], newer: frozenset[str]) -> bool:
    return all(any(w == n or (len(w) >= 4 and n.startswith(w[:4])) for n in newer) for w in piece)


# What a newer version may change in an older one's head: the status of the thing.
_STATUS = tokens(
    "plan plans planning planned book books booking booked schedule schedules scheduling "
    "scheduled consider considers considering considered think thinking hope hoping want "
    "wants wanted intend intends intending start starts starting started finish finished "
    "confirm confirmed"
)


def updates(newer: str, older: str) -> bool:
    """True when ``newer`` is a newer version of ``older``: about the same named thing, and
    restating the older one's head but for its status ("is planning" a trip, "booked" it)."""
    if not same_thing(newer, older):
        return False
    pieces = [p for p in _PIECES.split(_body(older).rstrip(".")) if p and p.strip()]
    head = tokens(pieces[0]) if pieces else frozenset()
    left = {w for w in head if not _covered(frozenset({w}), tokens(newer))}
    return left <= _STATUS


def absorb(newer: str, older: str) -> str | None:
    """``newer`` with the details only ``older`` gives added at its end (see the module);
    None when that would pass ``MAX_WORDS`` (then both stay)."""
    have = tokens(newer)
    timed = bool(_TIME.search(_body(newer)))
    pieces = [p for p in _PIECES.split(_body(older).rstrip(".")) if p and p.strip()]
    extra = []
    for piece in pieces[1:]:  # the first piece is the statement's head: the newer restates it
        words = tokens(piece)
        if not words or _covered(words, have):
            continue
        if timed and _TIME.search(piece):
            continue  # the newer one's time is the update
        extra.append(piece.strip())
        have |= words
    if not extra:
        return newer
    stem = newer.rstrip().rstrip(".")
    joined = f"{stem}, {', '.join(extra)}" + ("." if newer.rstrip().endswith(".") else "")
    return joined if len(joined.split()) <= MAX_WORDS else None


def short(text: str) -> bool:
    return len(text.split()) <= SHORT_WORDS


_SUBJECT = re.compile(
    r"^(?:(?:a|an|the|my|our|their|el|la|los|las|mi|su)\s+)?[\w'’-]+\s+", re.IGNORECASE
)


def _subject(text: str) -> tuple[str, str]:
    """(the subject, the rest): ("the dog", "sleeps a lot")."""
    match = _SUBJECT.match(text)
    if match is None:
        return "", text
    return match.group(0).strip().casefold(), text[match.end() :]


def _restated(a: frozenset[str], b: frozenset[str]) -> bool:
    # A one-word fact inside another ("has a dog" in "walks the dog") introduces the thing.
    return a == b or (len(a) > 1 and a < b) or (len(b) > 1 and b < a)


def join(facts: Sequence[str]) -> str | None:
    """One sentence saying what the short ``facts`` about one subject say, or None.

    The facts must share a content word (their subject) and together stay under
    ``MAX_WORDS``; the one that introduces the thing ("has a dog") leads.
    """
    cleaned = [" ".join(f.split()).rstrip(".") for f in facts if f.strip()]
    if len(cleaned) < 2 or not all(short(f) for f in cleaned):
        return None
    words = [_words(f) for f in cleaned]
    if any(_restated(a, b) for i, a in enumerate(words) for b in words[i + 1 :]):
        return None  # restatements, or one kind of fact with other values: not fragments
    shared = frozenset.intersection(*words)
    # The subject is a thing named with an article ("a dog", "the dog"), not a verb two
    # facts happen to share ("lives") nor a person, whose facts are many and unrelated.
    things = frozenset(t for f in cleaned for m in _THING.finditer(f) for t in _words(m.group(1)))
    if not shared & things:
        return None
    lead = next(
        (f for f in cleaned if (m := _HAS.search(f)) and _words(m.group(1)) <= shared),
        cleaned[0],
    )
    sentence = lead
    named_tie, and_tie = _TIES.get(language_of(" ".join(cleaned)), (" named ", " and "))
    for fact in cleaned:
        if fact is lead:
            continue
        named = next((m for pattern in _NAMED if (m := pattern.match(fact))), None)
        has = _HAS.search(sentence)
        if named and has and _words(named.group("thing")) == _words(has.group(1)):
            tie = f"{named_tie}{named.group('name')}"
            sentence = f"{sentence[: has.end()]}{tie}{sentence[has.end() :]}"
        elif _subject(fact)[0] == _subject(lead)[0] and _subject(fact)[1]:
            sentence += and_tie + _subject(fact)[1]
        else:
            first, _, rest = fact.partition(" ")
            lead_word = first.lower() if first.lower() in _ARTICLES else first
            sentence += "; " + f"{lead_word} {rest}".strip()
    if len(sentence.split()) > MAX_WORDS:
        return None
    return sentence + "."
