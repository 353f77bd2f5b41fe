"""What one remembered statement claims, read offline: about whom, which attribute, which values.

The contradiction detector compares two of these. A statement is read for
its subject (the user, a named person, a rule, or the thing it is about),
the single-valued attributes it sets (where someone lives, works, is called,
how old they are), its polarity (denied or not), what it likes or dislikes,
the diet, drinks and relationship status it implies, and its values: dates,
times, weekdays and counted things ("two daughters", "40,000 SEK").
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from functools import cache

from memclaw.facts import lexicon as lx
from memclaw.text.tokenize import STOPWORDS, tokens

I_ = re.IGNORECASE

_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
_STAMP = re.compile(r"^\s*(?:\(?as of \d{4}-\d{2}-\d{2}\)?,?|\d{4}-\d{2}-\d{2}\s+[—–-])\s*", I_)
_CUE_LEAD = re.compile(r"^\s*([^:]{1,60}):\s+")
_CUE_WORD = re.compile(
    r"^\s*(?:actually|in fact|correction|update|en realidad|de hecho|faktiskt|eigentlich|"
    r"tatsächlich|en fait)\s*[,:]?\s+",
    I_,
)
_SPELLING = (("favourite", "favorite"), ("colour", "color"), ("behaviour", "behavior"))

_USER = re.compile(
    r"^(?:the |our )?(?:user|användaren|der nutzer|die nutzerin|el usuario|la usuaria|"
    r"l'utilisateur|i)\b(?!')",
    I_,
)
_POSSESSIVE = re.compile(
    r"^(?:(?:the )?user's|my|användarens|(?P<name>[A-ZÅÄÖ][\w-]+)'s)\s+(?P<attr>[\w -]{1,40}?)\s+"
    r"(?:is|are|was|är|ist|es)\s+(?P<value>.+)$",
    I_,
)
_RULE = re.compile(
    r"^(?:never|always|don't|do not|must|aldrig|alltid|nie|immer|nunca|siempre)\b", I_
)
_SUBJECTLESS = re.compile(
    r"^(?:prefers?|likes?|loves?|hates?|dislikes?|enjoys?|lives|works|wants|uses|speaks|has|"
    r"drinks|eats|runs|plays|is|was|föredrar|gillar|bor|arbetar|jobbar|vill|använder|"
    r"bevorzugt|mag|wohnt|arbeitet|will|nutzt|prefiere|vive|trabaja|quiere|usa)\b",
    I_,
)
_NAME = re.compile(r"^(?P<name>[A-ZÅÄÖ][\w-]+)(?:'s)?\s+(?:and\s+\w+\s+)?(?P<verb>\w+)")
_PERSON_VERB = re.compile(
    r"^(?:is|was|has|had|lives|works|reports|turned|turns|celebrated|moved|eats|likes|loves|"
    r"hates|prefers|wants|uses|speaks|plays|runs|goes|drinks|does|doesn't|can't|never|no|"
    r"bor|är|har|arbetar|jobbar|äter|ist|hat|wohnt|arbeitet|isst|trinkt|es|tiene|vive|trabaja|"
    r"come|bebe)$"
    r"|^[a-z]{3,}s$",  # "Kenji reviews", "Priya wants": a verb of the third person
)
_VERB = re.compile(
    r"\b(?:is|are|was|were|has|have|had|moved|slipped|took|takes|starts|ends|runs|goes|uses|"
    r"deploys|ist|sind|wurde|hat|är|har|flyttades|flyttade|es|está|se|tiene|fue)\b",
    I_,
)

# Single-valued attributes: a person lives in one place, works at one employer, has one name.
_STOP = (
    r"(?=\s+(?:with|and|since|now|as|in|for|after|before|but|on|at|last|this|next|again|"
    r"och|med|sedan|igen|nu|und|mit|seit|jetzt|y|con|desde|ahora|et|avec)\b|[,.;:!?()]|$)"
)
_VALUE = r"(?P<v>[^,.;:!?()]+?)"
_FRAMES: dict[str, re.Pattern[str]] = {
    "residence": re.compile(
        r"\b(?:lives|living|is based|resides|moved|has moved|relocated|bor|flyttat|flyttade|"
        r"wohnt|vive|se mudó|se ha mudado|habite)\s+(?:in|to|i|till|en|a|à)\s+"
        + _VALUE
        + _STOP
        + r"|\bnach\s+(?P<v2>\w+)\s+(?:umgezogen|gezogen)",
        I_,
    ),
    "employer": re.compile(
        r"\b(?:works|worked|is employed|arbetar|jobbar|arbeitet|trabaja|travaille)\s+"
        r"(?:at|for|by|på|hos|för|bei|für|en|para|chez)\s+" + _VALUE + _STOP,
        I_,
    ),
    "name": re.compile(
        r"\b(?:name is|is called|heter|heißt|se llama|s'appelle|m'appelle)\s+" + _VALUE + _STOP,
        I_,
    ),
    "manager": re.compile(
        r"\b(?:reports to|rapporterar till|berichtet an)\s+" + _VALUE + _STOP,
        I_,
    ),
    "age": re.compile(
        r"\b(?:is|är|ist)\s+(?P<v>\d{1,3})(?=\s*(?:years? old|år\b|jahre\b|[.,;]|$))"
        r"|\bturn(?:ed|s)\s+(?P<v2>\d{1,3})\b|\btiene\s+(?P<v3>\d{1,3})\s+años"
        r"|\b(?P<v4>\d{1,3})\s+years old",
        I_,
    ),
}
# "prefers uv over Poetry": Poetry is the value not held.
_OVER = re.compile(
    r"\s+(?:over|rather than|instead of|framför|istället för|statt|anstatt|en vez de|"
    r"en lugar de|plutôt que)\s+[^,.;]+",
    I_,
)
_NOT_BUT = re.compile(
    r"\b(?:not|inte|nicht|no|pas)\s+(?P<x>[^,;:]{1,40}?)\s*,?\s*(?:but|utan|sondern|sino|mais)\b",
    I_,
)
_DENIED_TAIL = re.compile(
    r"[,;]\s*(?:not|no|inte|nicht|pas)\s+(?:in|en|i|on|at|am|på)?\s*(?P<x>[^,;.!]+?)\s*[.!]?\s*$",
    I_,
)
# "is no longer 2026-12-05", "not 09:30": a value named only to be taken back.
_NEGATED_VALUE = re.compile(
    r"\b(?:no longer|not|inte längre|inte|nicht mehr|nicht|ya no|no)\s+"
    r"(?:(?:on|at|in|i|på|am|um|el|en)\s+)?(?P<x>\d[\w:.-]*)",
    I_,
)
_SINGLE_VALUED = re.compile(
    r"\b(?:prefers?|prefer|favou?rite|wants?|uses?|switched|chose|runs on|föredrar|vill|"
    r"använder|bevorzugt|nutzt|prefiere|quiere|usa|mode)\b",
    I_,
)

_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th|\.)?\s+([a-zäéû]+)\b", I_)
_MONTH_DAY = re.compile(r"\b([a-zäéû]+)\s+(\d{1,2})(?:st|nd|rd|th)?\b", I_)
# A clock time, not a pace ("4:35/km") or a race time ("24:12").
_TIME = re.compile(r"(?<![\d.:])([01]?\d|2[0-3])[:.]([0-5]\d)(?![\d.:/])")
_STATIVE = re.compile(
    r"\b(?:has|have|is|are|har|hat|haben|ist|sind|är|tiene|tienen|es|son|size)\b", I_
)
_NUMBER = re.compile(
    r"(?<![\w.:#-])(\d{1,3}(?:[, ]\d{3})+|\d+(?:\.\d+)?)(?![\w:.-]*\d)\s*([^\W\d_]+)?"
)
_IDENT = re.compile(r"#\d+|\b\d+\.\d+(?:\.\d+)?\b|\bv\d+\b", I_)


@dataclass(frozen=True)
class Statement:
    text: str
    body: str
    cue: bool
    subject: str | None  # "user", "rule", a lower-case name, or None for a thing named by terms
    subject_terms: frozenset[str]
    terms: frozenset[str]  # content stems: no function words, values, subject or negation
    negated: bool
    heads: frozenset[str]  # the stems a negation bears on
    sentiment: int
    object_terms: frozenset[str]
    frames: dict[str, frozenset[str]] = field(default_factory=dict)
    attr: tuple[frozenset[str], frozenset[str]] | None = None  # possessive: attribute, value
    diet: frozenset[str] = frozenset()
    eats: frozenset[str] = frozenset()
    abstains: frozenset[str] = frozenset()
    consumes: frozenset[str] = frozenset()
    marital: frozenset[str] = frozenset()
    dates: frozenset[str] = frozenset()
    weekdays: frozenset[str] = frozenset()
    times: frozenset[str] = frozenset()
    counts: dict[str, frozenset[float]] = field(default_factory=dict)
    denied: frozenset[str] = frozenset()  # stems and values a "not X" takes back
    values: frozenset[str] = frozenset()  # the words holding a digit, lower-case
    alternatives: dict[int, frozenset[str]] = field(default_factory=dict)
    single_valued: bool = False
    stative: bool = False  # says what is ("has two kids"), not what happened
    idents: frozenset[str] = frozenset()


def content(text: str) -> frozenset[str]:
    """The content stems of ``text``: no function words, no values, no negation."""
    return frozenset(
        t
        for t in tokens(_fold_spelling(text))
        if t not in STOPWORDS and not any(c.isdigit() for c in t) and not _is_negation(t)
    )


def _is_negation(stem: str) -> bool:
    return bool(lx.NEGATION.fullmatch(stem))


def _fold_spelling(text: str) -> str:
    lowered = text.lower()
    for british, american in _SPELLING:
        lowered = lowered.replace(british, american)
    return lowered.replace("-", " ")


def _strip(raw: str) -> tuple[str, bool]:
    body = _STAMP.sub("", _MARKER.sub("", raw)).strip()
    cue = bool(lx.CORRECTION.search(body))
    lead = _CUE_LEAD.match(body)
    if lead and lx.CORRECTION.search(lead.group(1)):
        body = body[lead.end() :]
    body = _CUE_WORD.sub("", body)
    return body.strip().rstrip("."), cue


def _subject(body: str) -> tuple[str | None, str]:
    """The subject key and the text it was read from (what precedes the verb)."""
    if _RULE.match(body):
        return "rule", ""
    if _SUBJECTLESS.match(body):
        return "user", ""
    user = _USER.match(body)
    if user:
        return "user", user.group(0)
    possessive = re.match(r"^(?:(?:the )?user's|my|användarens)\b", body, I_)
    if possessive:
        return "user", possessive.group(0)
    name = _NAME.match(body)
    if name and _PERSON_VERB.match(name.group("verb")):
        return name.group("name").lower(), name.group("name")
    verb = _VERB.search(body)
    return None, body[: verb.start()] if verb else body


def _values_in(text: str) -> tuple[set[str], set[str], set[str]]:
    dates: set[str] = {f"{m[1]}-{m[2]}-{m[3]}" for m in _ISO.finditer(text)}
    for match in _DAY_MONTH.finditer(text):
        if match.group(2).lower() in lx.MONTHS:
            dates.add(f"--{lx.MONTHS[match.group(2).lower()]:02d}-{int(match.group(1)):02d}")
    for match in _MONTH_DAY.finditer(text):
        if match.group(1).lower() in lx.MONTHS and int(match.group(2)) <= 31:
            dates.add(f"--{lx.MONTHS[match.group(1).lower()]:02d}-{int(match.group(2)):02d}")
    # A full date and its month-day form are one date.
    dates = {
        d
        for d in dates
        if not (
            d.startswith("--") and any(x.endswith(d[1:]) for x in dates if not x.startswith("--"))
        )
    }
    weekdays = {
        f"wd{lx.WEEKDAYS[w]}" for w in re.findall(r"[^\W\d_]+", text.lower()) if w in lx.WEEKDAYS
    }
    times = {f"{int(h):02d}:{m}" for h, m in _TIME.findall(_ISO.sub(" ", text))}
    return dates, weekdays, times


def _counts(text: str) -> dict[str, set[float]]:
    found: dict[str, set[float]] = {}
    cleaned = _TIME.sub(" ", _ISO.sub(" ", _IDENT.sub(" ", text)))
    for match in _NUMBER.finditer(cleaned):
        number = float(re.sub(r"[, ]", "", match.group(1)))
        found.setdefault(_unit(match.group(2) or ""), set()).add(number)
    words = re.findall(r"[^\W\d_]+", cleaned.lower())
    for word, unit in itertools.pairwise(words):
        if word in lx.NUMBER_WORDS:
            found.setdefault(_unit(unit), set()).add(float(lx.NUMBER_WORDS[word]))
    return found


def _unit(word: str) -> str:
    """One name per counted thing: "kids", "children" and "Kinder" are all "child"."""
    word = word.lower()
    if not word:
        return ""
    stem = next(iter(tokens(word)), word)
    return lx.UNIT_SYNONYMS.get(word) or lx.UNIT_SYNONYMS.get(stem) or stem


def _heads(body: str, subject_terms: frozenset[str]) -> frozenset[str]:
    """The stems right before and after each negation: what the denial is about."""
    words = [w for w in re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", body.lower())]
    heads: set[str] = set()
    for index, word in enumerate(words):
        if not lx.NEGATION.fullmatch(word):
            continue
        after = [w for w in words[index + 1 : index + 5] if w not in _NEGATION_TAIL]
        for neighbour in (after[:3], list(reversed(words[:index]))[:1]):
            for candidate in neighbour:
                stems = content(candidate) - subject_terms
                if stems:
                    heads.update(stems)
                    break
    return frozenset(heads)


_NEGATION_TAIL = {"longer", "more", "any", "anymore", "längre", "mehr"}


def _negated_span(body: str, match: re.Match[str]) -> bool:
    before = body[max(0, match.start() - 20) : match.start()]
    return bool(lx.NEGATION.search(before)) or bool(lx.NEGATION.search(match.group(0)))


@cache
def read(raw: str) -> Statement:
    """What ``raw`` (a list item, a memory entry, a candidate) claims."""
    body, cue = _strip(raw)
    subject, subject_text = _subject(body)
    subject_terms = content(subject_text) if subject_text else frozenset()
    denied: set[str] = set()
    kept = body
    for pattern in (_NOT_BUT, _DENIED_TAIL, _NEGATED_VALUE):
        for match in pattern.finditer(kept):
            denied_text = match.group("x")
            if len(denied_text.split()) <= 3:  # "not Sam", "no en Sevilla"; not a whole clause
                denied.update(content(denied_text) | _digits(denied_text))
        kept = pattern.sub(" ", kept)
    kept = _OVER.sub("", kept)
    dates, weekdays, times = _values_in(kept)
    negated = bool(lx.NEGATION.search(kept))
    like, dislike = bool(lx.LIKE.search(body)), bool(lx.DISLIKE.search(body))
    sentiment = -1 if dislike or (like and negated) else (1 if like else 0)
    verb = lx.DISLIKE.search(body) or lx.LIKE.search(body)
    object_terms = content(body[verb.end() :]) if verb else frozenset()
    frames: dict[str, frozenset[str]] = {}
    for attribute, pattern in _FRAMES.items():
        found = pattern.search(kept)
        if found:
            value = next(v for v in found.groupdict().values() if v)
            frames[attribute] = content(value) or frozenset({value.strip().lower()})
    attr = None
    possessive = _POSSESSIVE.match(kept)
    if possessive:
        attr = (content(possessive.group("attr")), _value_key(possessive.group("value")))
        # "The user's cat is called Miso": the name is the cat's, not the user's.
        frames = {f"{' '.join(sorted(attr[0]))} {k}": v for k, v in frames.items()}
        if possessive.group("name"):
            subject, subject_terms = possessive.group("name").lower(), frozenset()
    diet = {name for name, pattern in lx.DIET.items() if _positive(kept, pattern)}
    eats = {"meat"} if _positive(kept, lx.EATS_MEAT) else set()
    eats |= {"fish"} if _positive(kept, lx.EATS_FISH) or "pescatarian" in diet else set()
    abstains = {c for c, p in lx.ABSTAIN.items() if p.search(kept) and negated}
    consumes = {c for c, p in lx.ABSTAIN.items() if p.search(kept) and not negated}
    words = {w.lower() for w in re.findall(r"[^\W\d_]+", kept)}
    alternatives: dict[int, set[str]] = {}
    for word in words:
        if word in lx.ALTERNATIVE_GROUP:
            alternatives.setdefault(lx.ALTERNATIVE_GROUP[word], set()).add(word)
    terms = content(kept) - subject_terms
    return Statement(
        text=raw,
        body=body,
        cue=cue,
        subject=subject,
        subject_terms=subject_terms,
        terms=terms,
        negated=negated,
        heads=_heads(kept, subject_terms),
        sentiment=sentiment,
        object_terms=object_terms,
        frames=frames,
        attr=attr,
        diet=frozenset(diet),
        eats=frozenset(eats),
        abstains=frozenset(abstains),
        consumes=frozenset(consumes),
        marital=frozenset(n for n, p in lx.MARITAL.items() if p.search(kept)),
        dates=frozenset(dates),
        weekdays=frozenset(weekdays),
        times=frozenset(times),
        counts={unit: frozenset(n) for unit, n in _counts(kept).items()},
        denied=frozenset(denied),
        values=_digits(kept),
        alternatives={g: frozenset(w) for g, w in alternatives.items()},
        single_valued=bool(_SINGLE_VALUED.search(kept)),
        stative=bool(_STATIVE.search(kept)),
        idents=frozenset(m.lower() for m in _IDENT.findall(kept)),
    )


def _digits(text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in re.findall(r"[\w:.-]*\d[\w:.-]*", text))


def _positive(text: str, pattern: re.Pattern[str]) -> bool:
    return any(not _negated_span(text, m) for m in pattern.finditer(text))


def _value_key(value: str) -> frozenset[str]:
    dates, _, times = _values_in(value)
    if dates or times:
        return frozenset(dates | times)
    return content(value) or frozenset({value.strip().lower()})
