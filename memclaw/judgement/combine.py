"""One line of two: what a remembered statement becomes when a newer one replaces it.

* A **new value** (``update``) goes where the old value was, when the newer statement
  says nothing else: "Sam lives in Lisbon with his cat Miso" and "Sam moved to Porto"
  become "Sam lives in Porto with his cat Miso". When it says more ("moved to Porto
  in March"), the newer statement leads and keeps what only the older one said,
  except the old value: "Sam moved to Porto in March, with his cat Miso".
* A **richer** statement keeps what only the older one said the same way: "The
  quarterly report due on 30 June must include the churn numbers, and will be
  reviewed by Oskar".

Nothing is joined past :data:`MAX_WORDS` (a fact is one sentence): then the newer
statement stands alone and :func:`merged` says what was left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import memclaw.judgement.lexicon as lx
from memclaw.judgement.claims import ARTICLES, Claim, announcing, pieces, read
from memclaw.judgement.relate import (
    Judgement,
    Relation,
    apart,
    given_up,
    judge,
    refines,
    renumbered,
    said_of_before,
    shape,
    stopped,
    switched_to,
    typed_pairs,
)
from memclaw.judgement.words import Word, keys, words
from memclaw.text.language import language_of
from memclaw.text.stem import ENGLISH

MAX_WORDS = 50  # a fact is one sentence of roughly 15-50 words

# Words that carry a change besides those that announce one (``announcing``: "moved",
# "now", "actually"): "to", "was", "has been". Not a detail the newer statement adds.
_CHANGE_WORDS = re.compile(
    r"\b(?:moved|has moved|have moved|postponed|pushed|delayed|brought forward|to|till|auf|"
    r"nach|al|a|has been|have been|was|were|is|are|got|gone|become|correctly|korrekt|"
    r"flyttade|har|hat|ist|wurde|verschoben|umgezogen|se mudó|se ha mudado|se ha aplazado|"
    r"realmente)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Merged:
    text: str  # the one line that stays
    dropped: tuple[str, ...] = ()  # details of the older statement that did not fit


# A number as written: "920", "1,450", "8 900".
_NUMBER = re.compile(r"\d(?:[\d,.]|\s(?=\d{3}\b))*\d|\d")


def merged(old: str, new: str, verdict: Judgement | None = None) -> Merged:
    """The line that replaces ``old`` once ``new`` is known (see the module).

    It keeps the newer statement's "As of" date; the older one's only when the value it
    dated still holds (a richer statement), never on a value that changed since."""
    verdict = verdict or judge(old, new)
    old_apart, new_apart, joins = apart(old, new)
    if joins:
        # Built from the words the judge read ("Styrelse mötet"), then written as said.
        line = merged(old_apart, new_apart, verdict)
        text = line.text
        for written, said in joins:
            text = text.replace(written, said)
        return Merged(text, line.dropped)
    language = language_of(f"{old}\n{new}")
    a, b = read(old, language), read(new, language)
    stamp = b.stamp or (a.stamp if verdict.relation is not Relation.UPDATE else "")
    line = _merged(a, b, verdict)
    # The sentence ends as the statement it is built on ended ("... 2026-12-21.").
    base = a if line.text.startswith(a.body[:12]) and verdict.relation is Relation.UPDATE else b
    stop = (
        "." if base.text.rstrip().endswith(".") and not line.text.endswith((".", "!", "?")) else ""
    )
    return Merged(stamp + line.text + stop, line.dropped)


def _merged(a: Claim, b: Claim, verdict: Judgement) -> Merged:
    if verdict.relation is Relation.SAME:
        return Merged(a.body)
    if verdict.relation is Relation.RICHER:
        return _joined(a, b, gone=frozenset())
    if verdict.relation is not Relation.UPDATE:
        return Merged(b.body)
    common = next((f for f in b.frames if _changed(a, b, f.attribute)), None)
    if common is not None:
        old_frame = a.frame(common.attribute)
        assert old_frame is not None
        # (the old value is gone though the newer one names it as what held before)
        gone = keys(_words_in(a, old_frame.start, old_frame.end)) - (b.keys - said_of_before(b))
        extra = b.keys - a.keys - keys(_words_in(b, common.start, common.end)) - _change(b)
        extra -= _light(b) | keys(_words_in(b, *common.said))
        value = b.body[common.start : common.end]
        start, end = old_frame.span()
        number = _NUMBER.search(a.body, start, end)
        if _NUMBER.fullmatch(value) and number is not None:
            start, end = number.span()  # "raised to 920": the number, in its old unit
        # (a place's name drops the article of a dwelling it replaces: "a flat", "Leipzig")
        dwelling = common.attribute == "place" and a.body[start:end][:1].islower()
        before = _article(a.body[:start], value, a.language, place=dwelling)
        placed = before + value + a.body[end:]
        whole = common.attribute in ("diet", "relationship")  # said whole, never in place
        if not extra and not whole:
            return _checked(a, b, placed, gone)
        joined = _joined(a, b, gone=gone)
        if whole or _kept(a, joined.text, gone) or not _kept(a, placed, gone):
            return joined
        # "Started at Spotify on Monday" would lose "as a backend developer": the new value
        # goes in place, and what else the newer one says follows it.
        return _joined(b, read(placed, a.language), gone=frozenset())
    ended = stopped(a, b)
    if ended:
        # "Anna quit smoking": what she stopped goes with all that said how she did it
        # ("på balkongen varje kväll"); of a list, the pieces that name what stopped.
        if verdict.sure:
            return Merged(b.body)
        return _joined(a, b, gone=_holding(a, ended) | _grammar(a))
    numbers = renumbered(a, b)
    if numbers:
        # "now uses port 5434": that number changes where the old line says it, and
        # nothing else the old line says goes ("runs Postgres 15").
        text = a.body
        for xs, ys in sorted(numbers, key=lambda p: -p[0][0].start):
            text = text[: xs[0].start] + b.body[ys[0].start : ys[-1].end] + text[xs[-1].end :]
        return Merged(text)
    pairs = typed_pairs(a, b)
    if pairs:
        gone = frozenset(x.key for xs, _ in pairs for x in xs) | _codes_replaced(a, b)
        changed = {y.key for _, ys in pairs for y in ys}
        extra = b.keys - a.keys - changed - _change(b) - _light(b)
        text = a.body
        for xs, ys in sorted(pairs, key=lambda p: -p[0][0].start):  # right to left: spans hold
            value = b.body[ys[0].start : ys[-1].end]
            text = text[: xs[0].start] + value + text[xs[-1].end :]
        if extra:
            joined = _joined(a, b, gone=gone)
            # Not when it would lose a value of the older line that was not changed: "moved
            # to 10 oktober, samma klockslag" keeps "klockan 14.00".
            said = keys(words(joined.text, a.language)) | gone
            values = [w for w in a.words if not w.function and shape(w, a.language) == "value"]
            if all(w.key in said for w in values):
                return joined
        return _checked(a, b, text, gone)
    gone = _replaced(a, b) | _holding(a, given_up(a, b)) | _codes_replaced(a, b)
    gone |= _holding(a, _left_for(a, b))
    news = [w for w in b.words if not w.function and w.key not in a.keys | _grammar(b)]
    moved = b.verb is not None and b.words[b.verb].key in _change(b)
    if moved and news and all(w.value for w in news):
        # "Nos subieron el alquiler a 920": only a number is said to have moved; it goes
        # where the old one was, and all the older line said of it stays ("del piso", "al
        # mes"). (A statement of its own, "the migration happens on ...", replaces it.)
        in_place = _in_place(a, b, gone)
        if in_place is not None:
            return in_place
    joined = _joined(a, b, gone=gone)
    said = keys(words(joined.text, a.language)) | gone
    lost = [
        w
        for i, w in enumerate(a.words)
        if i and not w.function and w.key not in said and shape(w, a.language) != "word"
    ]
    if lost:
        # A name or a number the older statement gives would be lost ("runs Postgres 16"
        # when "now runs on port 5434" is all the newer one says): the new value goes
        # where the old one was instead.
        return _in_place(a, b, gone) or joined
    return joined


_A_OR_AN = re.compile(r"\b(a|an|A|An)\s+$")
_ARTICLE = "|".join(sorted(ARTICLES, key=len, reverse=True))  # (and "my", "our": whose)
_ARTICLE_BEFORE = re.compile(rf"\b(?:{_ARTICLE})\s+$", re.IGNORECASE)
_ARTICLE_AFTER = re.compile(rf"(?:{_ARTICLE})\s", re.IGNORECASE)


def _article(before: str, value: str, language: str, *, place: bool = False) -> str:
    """``before`` ending in the English article ``value`` takes ("a Pixel", "an iPhone");
    without its article when ``value`` brings its own ("bor i en trea" to "ett radhus"),
    or names the place a ``place`` of a common word was ("lives in a flat" to "Leipzig")."""
    own = _ARTICLE_AFTER.match(value) or (place and value[:1].isupper())
    if own and (found := _ARTICLE_BEFORE.search(before)):
        return before[: found.start()]
    found = _A_OR_AN.search(before)
    if language != ENGLISH or found is None or not value[:1].isalpha() or value[0] in "uU":
        return before  # ("a user", "an umbrella": a "u" is said either way)
    article = "an" if value[0].casefold() in "aeio" else "a"
    if found.group(1)[0].isupper():
        article = article.capitalize()
    return before[: found.start()] + article + before[found.end(1) :]


def _holding(claim: Claim, given: frozenset[str]) -> frozenset[str]:
    """The keys of every piece of ``claim`` that holds a word of ``given``: the old value
    ("en Volvo V70") goes whole with the name it was given up by."""
    if not given:
        return frozenset()
    spans = [
        (s, e)
        for s, e in pieces(claim.body)
        if any(s <= w.start < e for w in claim.words if w.key in given)
    ]
    return keys(w for w in claim.words if any(s <= w.start < e for s, e in spans))


def _in_place(a: Claim, b: Claim, gone: frozenset[str]) -> Merged | None:
    """``a`` with its one run of ``gone`` words replaced by ``b``'s one run of new words."""
    old = [i for i, w in enumerate(a.words) if w.key in gone]
    skip = a.keys | _change(b) | _light(b)
    new = [i for i, w in enumerate(b.words) if not w.function and w.key not in skip]
    if not old or not new or old != list(range(old[0], old[-1] + 1)):
        return None
    if new != list(range(new[0], new[-1] + 1)):
        return None
    value = b.body[b.words[new[0]].start : b.words[new[-1]].end]
    text = a.body[: a.words[old[0]].start] + value + a.body[a.words[old[-1]].end :]
    kept = keys(words(text, a.language))
    return Merged(text) if (a.keys - gone) <= kept else None


def _changed(a: Claim, b: Claim, attribute: str) -> bool:
    """Whether both set ``attribute`` and the value is not the same."""
    old, new = a.frame(attribute), b.frame(attribute)
    if old is None or new is None:
        return False
    return old.value.casefold() != new.value.casefold()


def _checked(a: Claim, b: Claim, text: str, gone: frozenset[str]) -> Merged:
    """``text``, unless it lost a word of ``a`` besides the old value: then ``b`` with
    ``a``'s other pieces, so nothing but the replaced value is ever dropped."""
    kept = keys(words(text, a.language))
    if (a.keys - gone) <= kept | b.keys:
        return Merged(text)
    return _joined(a, b, gone=gone)


def _kept(a: Claim, text: str, gone: frozenset[str]) -> bool:
    """Whether ``text`` still says every word of ``a`` but its verbs and the ``gone`` ones."""
    said = keys(words(text, a.language))
    return all(w.key in said for w in a.words if _telling(w) and w.key not in gone)


def _telling(word: Word) -> bool:
    return not word.function and not word.user and word.text.casefold() not in lx.VERBS


def _grammar(claim: Claim) -> frozenset[str]:
    """Keys that announce a change or carry the sentence ("moved to", "now", the verb)."""
    verb = {claim.words[claim.verb].key} if claim.verb is not None else set()
    return _change(claim) | verb


def _light(claim: Claim) -> frozenset[str]:
    """The verb, when it says little more than "is" ("the sync *starts* at 11:00"): a value
    put in the older line's place leaves it out without loss; "booked" is no such verb."""
    if claim.verb is None or claim.words[claim.verb].text.casefold() not in _LIGHT_VERBS:
        return frozenset()
    return frozenset({claim.words[claim.verb].key})


_LIGHT_VERBS = frozenset(
    """
    is are was were starts start begins begin happens runs takes lies sits stands ist sind
    beginnt startet findet liegt är börjar startar ligger es son empieza comienza está
    """.split()  # noqa: SIM905
)


def _left_for(a: Claim, b: Claim) -> frozenset[str]:
    """Whom the older statement names as where or with whom it was, when the newer one
    switches to another name ("Strompreis: 32 Cent bei Vattenfall", "Wir haben zu EnBW
    gewechselt, 28 Cent"): the one left."""
    if not switched_to(b.body):
        return frozenset()
    found = a.words
    return frozenset(
        w.key
        for i, w in enumerate(found)
        if i > 1
        and found[i - 1].text.casefold() in _WITH_WHOM
        and w.text[:1].isupper()
        and w.key not in b.keys
    )


# Words before the one something is had at or from: "bei Vattenfall", "hos Telia".
_WITH_WHOM = frozenset("at with from bei von hos från med con de".split())  # noqa: SIM905


def _codes_replaced(a: Claim, b: Claim) -> frozenset[str]:
    """The older statement's codes of letters and digits that the newer one gives another
    of, written alike ("Iberia IB6841" to "AR1133": a flight's number, a booking's code):
    what changed keeps one code, not both."""
    new = {_code_shape(w.text) for w in b.words if _code(w) and w.key not in a.keys}
    return frozenset(
        w.key for w in a.words if _code(w) and w.key not in b.keys and _code_shape(w.text) in new
    )


def _code(word: Word) -> bool:
    return word.value and any(c.isalpha() for c in word.text)


def _code_shape(text: str) -> str:
    return re.sub(r"\d", "9", re.sub(r"[^\W\d_]", "A", text))


def _replaced(a: Claim, b: Claim) -> frozenset[str]:
    """What a newer statement's new words took the place of, when no frame or typed value
    says it: the older statement's words of the same kind (a number for a number, a name
    for a name) that the newer one lacks; for plain words, the run right after the verb."""
    if b.negated and not a.negated:
        # "Elena is no longer vegetarian": what is taken back is what the newer one denies
        # of the older one's words, not the word after the verb ("allergic to peanuts").
        verbs = lx.verbs(b.language)
        denied = {
            w.key
            for w in b.words
            if not w.function and w.key in a.keys and w.text.casefold() not in verbs
        }
        denied -= a.subject | _grammar(a) | _grammar(b)
        if denied:
            return frozenset(denied)
    novel = [w for w in b.words if not w.function and w.key not in a.keys | _grammar(b)]
    start = a.verb + 1 if a.verb is not None else 0
    now = b.keys - said_of_before(b)  # ("used to work at Spotify; he's at IKEA now")
    lacking = [w for w in a.words[start:] if not w.function and w.key not in now]
    kinds = {shape(w, b.language) for w in novel}
    same = [w for w in lacking if shape(w, a.language) in kinds - {"word"}]
    if len(same) > 1:
        # Several of that kind: the one after the same word as the new value ("for €1,200"
        # to "for €1,450", not the 30 of "due on 30 June"), else the first.
        before = {_before(b, w) for w in novel}
        same = [w for w in same if _before(a, w) in before] or same[:1]
    if same or "word" not in kinds:
        return keys(same)
    run: list[str] = []
    for word in a.words[start:]:
        if word.function and run:
            break
        if not word.function and word.key not in b.keys:
            run.append(word.key)
    return frozenset(run)


def _before(claim: Claim, word: Word) -> str:
    """The word right before ``word`` in ``claim`` ("for" in "for €1,200")."""
    index = claim.words.index(word)
    return claim.words[index - 1].key if index else ""


def _change(claim: Claim) -> frozenset[str]:
    """Keys of the words that announce a change rather than state a value."""
    spans = [m.span() for m in _CHANGE_WORDS.finditer(claim.body)]
    return announcing(claim) | keys(
        w for w in claim.words if any(s <= w.start < e for s, e in spans)
    )


def _words_in(claim: Claim, start: int, end: int) -> list[Word]:
    return [w for w in claim.words if start <= w.start and w.end <= end]


def _joined(a: Claim, b: Claim, gone: frozenset[str]) -> Merged:
    """``b`` followed by the pieces of ``a`` it does not say (and that hold no ``gone``);
    neighbouring pieces stay one run of ``a``'s own words."""
    # What b says, a month included when b names its days ("September": 2026-09-12).
    have = set(b.keys) | {w.key for w in a.words if refines([w], list(b.words))}
    runs: list[tuple[int, int]] = []
    verbal: tuple[int, int] | None = None  # a piece of verbs only ("and will be reviewed")
    for start, end in pieces(a.body)[1:]:  # the first piece is what b restates
        inside = _words_in(a, start, end)
        found = keys(w for w in inside if w.text.casefold() not in lx.VERBS)
        if not found - have or found & gone:
            verbal = (start, end) if not found and keys(inside) else None
            continue
        have |= found
        if verbal is not None and not a.body[verbal[1] : start].strip():
            start = verbal[0]  # the verb that says what the detail is: "reviewed by Oskar"
        verbal = None
        if runs and not a.body[runs[-1][1] : start].strip(" ,;"):
            runs[-1] = (runs[-1][0], end)  # right after the previous one: one run
        else:
            runs.append((start, end))
    text, dropped = _named_fully(a, b), []
    for start, end in runs:
        piece = a.body[start:end].strip(" ,;")
        longer = f"{text}, {piece}"
        if len(longer.split()) > MAX_WORDS:
            dropped.append(piece)
            continue
        text = longer
    return Merged(text, tuple(dropped))


def _named_fully(a: Claim, b: Claim) -> str:
    """``b``, its subject named as fully as ``a`` names it: "Julia ist nach Hamburg
    gezogen" after "Meine Schwester Julia wohnt in Köln" keeps that Julia is the sister."""
    if a.verb is None or not b.verb or not b.subject < a.subject:
        return b.body
    said = {w.key for w in b.words[: b.verb] if not w.function}
    if not said or not said <= a.subject:
        return b.body
    return a.body[: a.words[a.verb].start] + b.body[b.words[b.verb].start :]
