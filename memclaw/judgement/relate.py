"""The one judgement: what a new statement does to a remembered one.

* **same**: it says what the old one says (in other words, or with less);
* **richer**: it says that and more: one line of both stays;
* **update**: a new value of the old one's single-valued attribute, for the same
  subject: the newer value wins and what else the old one said stays;
* **distinct**: another fact: another subject (the user's sister, server beta,
  invoice 4412), another attribute (manager and mentor, staging and production),
  another member of a many-valued one (a dog and a cat, Japan and Peru), or a
  passing constraint on a lasting fact. Both stay.

The values that tell things apart (names, numbers, ids, versions, dates) are never
folded away: a statement that differs from another only in such a value is another
fact, unless that value is the one a single-valued attribute of the same subject
holds (a new date for one named event, a new version of one service in production,
a new room for one person). A verdict that rests only on word overlap is ``sure``
False: with a model configured, it is the model that judges it.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from enum import StrEnum
from functools import cache
from itertools import takewhile

import memclaw.judgement.lexicon as lx
from memclaw.judgement.claims import (
    ARTICLES,
    Claim,
    announcing,
    names_a_time,
    negation,
    pieces,
    read,
)
from memclaw.judgement.frames import COPULAS, USER, Frame, naming
from memclaw.judgement.roles import handed_on
from memclaw.judgement.words import Word, fold, is_user, keys, words
from memclaw.text.language import language_of


class Relation(StrEnum):
    SAME = "same"
    RICHER = "richer"
    UPDATE = "update"
    DISTINCT = "distinct"


@dataclass(frozen=True)
class Judgement:
    relation: Relation
    reason: str
    sure: bool = True

    @property
    def disagrees(self) -> bool:
        """Both cannot hold at once: the new statement gives another value."""
        return self.relation is Relation.UPDATE

    @property
    def replaces(self) -> bool:
        """The new statement takes the old one's place (its line is rewritten, not added).

        Not when it only seems richer: words of the old one gave way ("black" to "with oat
        milk"), and without a model to ask, both lines stay rather than one be lost."""
        richer = self.relation is Relation.RICHER and self.sure
        return richer or self.relation is Relation.UPDATE


def judge(old: str, new: str) -> Judgement:
    """How ``new`` relates to the remembered ``old`` (see the module)."""
    verdict = _judge(old, new)
    if verdict.relation in (Relation.SAME, Relation.RICHER):
        # A wish or a plan is not yet what is: "wants to learn Japanese", then "is learning
        # Japanese" is the plan come true (it had been kept as the same, and the news
        # lost); the other way round, a wish beside what is.
        wished = [bool(lx.INTENT.search(text)) for text in (old, new)]
        if wished == [True, False]:
            return Judgement(Relation.UPDATE, "what was wished or planned is so now")
        if wished == [False, True]:
            return Judgement(Relation.DISTINCT, "a wish or a plan beside what is")
    if verdict.relation is Relation.SAME and _how_much(new) - _how_much(old):
        # "All servers run Ubuntu", then "Some servers ..."; "eats fish", then "only eats
        # fish": how much or how many is said anew (it had been the same, and the news lost).
        return Judgement(Relation.UPDATE, "says anew how much or how many")
    return verdict


def _how_much(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"\w+", text)} & _QUANTIFIERS


_QUANTIFIERS = frozenset(
    """all every some most only none few many both alla några bara endast flesta alle
    einige nur meisten todos todas algunos algunas solo sólo solamente mayoría""".split()  # noqa: SIM905
)


@cache
def _judge(old: str, new: str) -> Judgement:
    language = language_of(f"{old}\n{new}")  # one language: the words of both fold alike
    a, b = read(old, language), read(new, language)
    if a.body.casefold() == b.body.casefold():
        return Judgement(Relation.SAME, "the same statement")
    split_old, split_new, joins = apart(old, new)
    if joins:
        return _judge(split_old, split_new)
    if _another_one(a, b) or _another_one(b, a) or _old_and_new(a, b):
        return Judgement(Relation.DISTINCT, "about another one of them")
    common = [f.attribute for f in b.frames if a.frame(f.attribute) is not None]
    if common:
        # Of two attributes both set ("works as a nurse at Karolinska"), a new value of
        # either is the news.
        verdicts = [_same_attribute(a, b, key) for key in common]
        return next((v for v in verdicts if v.relation is Relation.UPDATE), verdicts[0])
    if given_up(a, b):
        # Of a list ("uses VS Code and PyCharm"), a switch may leave one: a model or a
        # person says which.
        sure = not (_SWITCHED_TO.search(b.body) and _LISTED.search(a.body))
        return Judgement(Relation.UPDATE, "what it named is replaced by another", sure)
    if _new_version(a, b):
        return Judgement(Relation.UPDATE, "a new version of what runs there")
    if stopped(a, b):
        # Of a list ("plays tennis and chess") only one may have stopped: a model or a
        # person says what still holds.
        listed = _LISTED.search(a.body)
        return Judgement(Relation.UPDATE, "stopped what it says", sure=not listed)
    if b.cue and (kind := _announced_value(a, b)):
        return Judgement(Relation.UPDATE, f"a new {kind}, the change announced")
    if b.cue and _announced_name(a, b):
        return Judgement(Relation.UPDATE, "another name in one place, the change announced")
    if handed_on(a, b):
        return Judgement(Relation.UPDATE, "another holder of the one role")
    # "The rent went up to $1,600" speaks of "the rent for the flat on Elm Street" by its
    # head alone: the same thing.
    other = _other_subject(a, b)
    if other and _new_sum(a, b):
        # "En Casa Pepe el menú del día ya cuesta 14 euros": the one price, said otherwise.
        return Judgement(Relation.UPDATE, "a new sum for the one price")
    if other and not _announced_of(a, b) and not _details_subject(b, a):
        if _names_more(a, b) or _details_subject(a, b):
            # "User's daughter started university", "User's daughter Freya started studying
            # biology": the one spoken of, now named, unless what is said of them differs.
            more = _compare(a, b)
            if more.relation is Relation.RICHER and more.sure:
                return more
        # Another person, or a thing named apart, is surely another fact; another word for
        # the subject where most else is the same ("User's car is a grey Skoda", "User
        # drives a grey Skoda") may say the same otherwise: a model, if any, is asked.
        sure = _shared(a, b) < 2 / 3 or _named_apart(a, b, implied_user=True)
        return _unless_said_again(
            a, b, Judgement(Relation.DISTINCT, "about someone or something else", sure)
        )
    return _unless_said_again(a, b, _compare(a, b))


def may_say_it_otherwise(old: str, new: str) -> bool:
    """Whether, as far as the words tell, ``new`` may say what ``old`` says in other words.

    Not when one says nothing the other does not ("User's former manager is Karin" and
    "User's manager is Karin": what one adds changes it), nor when one word stands for
    another in the same places ("server gamma", "server delta": a near twin), nor when
    they differ in negation, a change announced, tense, a passing constraint, a wish, how
    much or how many ("all", "some", "only"), a number, a day or a month.
    An embedding model blurs exactly these, so it is asked only about the other pairs."""
    language = language_of(f"{old}\n{new}")
    a, b = read(old, language), read(new, language)
    said = [[w.text.casefold() for w in c.words] for c in (a, b)]
    if len(said[0]) == len(said[1]) and sum(x != y for x, y in zip(*said, strict=True)) == 1:
        return False
    if a.keys <= b.keys or b.keys <= a.keys:
        return False
    if _how_said(a) != _how_said(b):
        return False
    marks = [{w.key for w in c.words if w.value or names_a_time(w)} for c in (a, b)]
    return marks[0] == marks[1]


def _how_said(claim: Claim) -> tuple[object, ...]:
    """Denied, a change announced, of the past, passing, wished, how much or how many."""
    body = claim.body
    wished = bool(lx.INTENT.search(body))
    return negation(body), claim.cue, _past(claim), claim.temporary, wished, _how_much(body)


def _another_one(a: Claim, b: Claim) -> bool:
    """Whether ``b`` speaks of another one of what ``a`` speaks of: "the other team" of
    "the team", "Das andere Team" of "Das Team" (one more of them, not the same one)."""
    said = [w.text.casefold() for w in b.words]
    for i, after in enumerate(b.words[1:], start=1):
        # ("every other Friday" is every second one)
        if said[i - 1] in _OTHER and after.key in a.keys and said[i - 2 : i - 1] != ["every"]:
            return not any(w.text.casefold() in _OTHER for w in a.words)
    return False


def _old_and_new(a: Claim, b: Claim) -> bool:
    """Whether one speaks of the old one of a thing and the other of the new one ("the old
    laptop", "the new laptop"; "el coche viejo", "el coche nuevo")."""
    ages = [
        {
            (w.key, _AGE[c.words[j].text.casefold()])
            for i, w in enumerate(c.words)
            for j in (i - 1, i + 1)
            if 0 <= j < len(c.words) and c.words[j].text.casefold() in _AGE
        }
        for c in (a, b)
    ]
    return any(key == k and age != g for key, age in ages[0] for k, g in ages[1])


_OLD = frozenset(
    """old older former gamla gammal gammalt alte alten alter altes alt viejo vieja viejos
    viejas antiguo antigua""".split()  # noqa: SIM905
)
_NEW = frozenset(
    "new newer nya ny nytt neue neuen neuer neues neu nuevo nueva nuevos nuevas".split()  # noqa: SIM905
)
_AGE = {**dict.fromkeys(_OLD, "old"), **dict.fromkeys(_NEW, "new")}
# "other" before what it is said of: another one of those things.
_OTHER = frozenset(
    """other another andra annan annat anderen andere anderer anderes anderem otro otra
    otros otras""".split()  # noqa: SIM905
)


# The verbs of a switch in the four languages ("switched", "bytt", "gewechselt", "me pasé").
_SWITCH_VERBS = (
    r"switched(?:\s+over)?|changed\s+over|moved\s+over|bytt|bytte|gått\s+över|gick\s+över|"
    r"övergått|umgestiegen|gewechselt|wechselte|me\s+pasé|se\s+pasó|nos\s+pasamos|"
    r"me\s+cambié|se\s+cambió|nos\s+cambiamos"
)
# A switch, however said: "har bytt till", "ist zu BMW gewechselt", "cambió el coche por".
_SWITCHING = re.compile(rf"\b(?:{_SWITCH_VERBS}|cambió|cambié)\b", re.IGNORECASE)


# German says the switch last: "ist auf Logseq umgestiegen", "hat zu BMW gewechselt".
_SWITCHED_LAST = re.compile(
    r"\b(?:auf|zu|zum|zur)\s+[A-ZÄÖÜ]\w*(?:\s+\w+)?\s+(?:umgestiegen|gewechselt)\b"
)


def switched_to(body: str) -> bool:
    """Whether ``body`` switches to a named thing, and to it alone ("switched to Neovim",
    not "har bytt jobb till Scania", which says what it switched)."""
    return bool(_SWITCHED_TO.search(body) or _SWITCHED_LAST.search(body))


def _in_its_place(a: Claim, b: Claim) -> bool:
    """Whether ``b`` puts another name where ``a`` has one, after the same word: "works at
    Accenture", "is at Stripe now"; "is in Lisbon", "is in Porto now"."""
    return bool(_named_after(a) & _named_after(b, besides=a.keys))


def _named_after(claim: Claim, besides: frozenset[str] = frozenset()) -> set[str]:
    """The words right before a name inside ``claim`` (not the name it opens with), but an
    article: German writes every noun with a capital ("mit der Katze", "einen Hund")."""
    found = claim.words
    leads = set()
    for i in range(2, len(found)):
        if not found[i].text[:1].isupper() or found[i].key in besides:
            continue
        # (past an article: "bei der Telekom" is "bei" Telekom, as "bei SAP" is)
        j = i - 2 if found[i - 1].text.casefold() in ARTICLES and i > 2 else i - 1
        lead = found[j].text.casefold()
        if found[j].function and lead not in ARTICLES:
            leads.add(lead)
    return leads


def _tied(x: str, y: str) -> bool:
    """Two words of one stem, by a long enough start ("fumador", "fuma"; "dricker",
    "dricka")."""
    x, y = x.casefold(), y.casefold()
    shared = _shared_start(x, y)
    return _one_stem(x, y) or (shared >= 4 and shared >= min(len(x), len(y)))


def _the_thing(claim: Claim) -> bool:
    """Whether ``claim`` is about a thing named by its kind ("The company offsite", "Der
    Server"), not someone's ("User's manager", "Our car") nor a name ("Projektet Atlas")."""
    if claim.verb is None or claim.verb < 2:
        return False
    subject = claim.words[: claim.verb]
    possessive = any(w.user or w.kin or w.text.casefold().endswith(("'s", "’s")) for w in subject)
    return subject[0].text.casefold() in _DEFINITE and not possessive


_DEFINITE = frozenset("the den det der die das el la los las".split())  # noqa: SIM905


def _a_person(claim: Claim) -> bool:
    """Whether ``claim`` is about a person, by name alone ("Lisa", "Jonas", "I"): not a thing
    ("The company offsite", "Projektet Norrsken", "Das Backend") nor an attribute ("User's
    manager"). A person has many attributes, a thing one that changes."""
    if claim.verb is None or claim.verb == 0:
        return False
    subject = claim.words[: claim.verb]
    return all(w.user or (w.text[:1].isupper() and not w.function) for w in subject)


def _someone(claim: Claim) -> bool:
    """Whether ``claim``'s subject is someone: by name or by their tie ("Andrés", "Mi
    hermano"), or named as one of the person's ("Mi compañero Andrés"); not a role ("User's
    manager") nor a thing by its name ("Projektet Norrsken", "Daily standup")."""
    if not claim.verb:
        return False
    said = [w for w in claim.words[: claim.verb] if not w.function or w.user]
    if not said or not (said[-1].kin or shape(said[-1], claim.language) == "name"):
        return False
    return any(w.user for w in said) or all(w.kin or w is said[-1] for w in said)


def _said(claim: Claim, who: frozenset[str]) -> list[Word]:
    """The words that say something of the person or thing, not who they are."""
    return [w for w in claim.words if not (w.function or w.user or w.key in who)]


def _another_attribute(a: Claim, b: Claim) -> bool:
    """Whether ``b`` sets an attribute of its own, and ``a`` another ("Sam lives in Lisbon",
    "Sam works at Spotify now"): a change announced of the one is no change of the other."""
    # (by the attribute's head: "monthly rent" is a rent)
    ours, theirs = ({f.attribute.split()[-1] for f in c.frames} for c in (a, b))
    if ours == {"place"} and not theirs:
        # Where one lives changes only by where one is said to be: "Sam is in Porto now",
        # never "Sam uses Linear now".
        return not any(w.text.casefold() in _WHERE for w in b.words)
    # (Being "at" or "in" a place may be at work: "Siobhan is at Stripe now".)
    return bool(ours and theirs - {"place"}) and not ours & theirs


_WHERE = frozenset("in at to i på till nach im bei en a".split())  # noqa: SIM905


def _unless_said_again(a: Claim, b: Claim, verdict: Judgement) -> Judgement:
    """``verdict``, unless it is an unsure "another fact" of two statements that say the
    same things in another order or form (see :func:`said_again`): then the same, for a
    model (if any) to confirm."""
    if verdict.relation is Relation.DISTINCT and not verdict.sure and said_again(a, b):
        return Judgement(Relation.SAME, "the same, said another way", sure=False)
    return verdict


def said_again(a: Claim, b: Claim) -> bool:
    """Whether ``b`` says what ``a`` says in another order or form: every word that
    carries meaning in either is in the other, as itself, as a word derived from the same
    stem ("allergic", "allergy"; "Deployment", "deployen"; "geleitet", "leitet"), while
    the rest are verbs of little meaning of their own ("give", "have", "haben") or
    words of how often ("every", "cada"): "Das Projekt wird von Lena geleitet", "Lena
    leitet das Projekt"; "Soy alérgico a los frutos secos", "Los frutos secos me dan
    alergia". Both deny or neither, neither announces a change, both speak in one tense
    ("had a cat" is not "has a cat"), and the names keep their roles."""
    if a.negated != b.negated or b.cue or a.temporary != b.temporary or _past(a) != _past(b):
        return False
    if _swapped(a, b):
        return False
    mine, theirs = _meaningful(a), _meaningful(b)
    if len(mine) < 2 or len(theirs) < 2:
        return False
    return all(_derived(w, theirs, a) for w in mine) and all(_derived(w, mine, b) for w in theirs)


def _meaningful(claim: Claim) -> list[Word]:
    return [
        w
        for w in claim.words
        if not w.function and not is_user(w) and w.text.casefold() not in lx.LIGHT
    ]


def _derived(word: Word, others: list[Word], claim: Claim) -> bool:
    """Whether ``word`` is among ``others``, or shares its stem with one of them (not a
    name or a number: "Stockholm" is not "Stockholmsvägen", 12 is not 120)."""
    if any(o.key == word.key for o in others):
        return True
    named = claim.language != "german" and word.text[:1].isupper() and word is not claim.words[0]
    if word.value or named:
        return False
    return any(_one_stem(word.text, o.text) for o in others if not o.value)


def _one_stem(x: str, y: str) -> bool:
    x, y = (_GE.sub("", w.casefold()) for w in (x, y))
    return _shared_start(x, y) >= 5 and abs(len(x) - len(y)) <= 4


def _shared_start(x: str, y: str) -> int:
    return sum(1 for _ in takewhile(lambda pair: pair[0] == pair[1], zip(x, y, strict=False)))


# German's participle "ge-" ("geleitet" is "leitet" done).
_GE = re.compile(r"^ge(?=\w{5})")


def _past(claim: Claim) -> bool:
    """Whether ``claim`` speaks of the past in a past form of be or have ("had a cat").
    (Not by "-ed": "moved to April" says what holds now.)"""
    said = [w.text.casefold() for w in claim.words]
    # ("used" only as "used to": "is used for the deploy pipeline" is now)
    return any(
        w in lx.PAST and (w != "used" or said[i + 1 : i + 2] == ["to"]) for i, w in enumerate(said)
    )


def _formerly(claim: Claim) -> bool:
    """Whether ``claim`` says what held before and no longer: "used to", "früher"."""
    return bool(_formerly_at(claim))


def _formerly_at(claim: Claim) -> list[int]:
    """Where ``claim`` says that what follows held before: "used to", "früher"."""
    said = [w.text.casefold() for w in claim.words]
    return [i for i, w in enumerate(said) if w in _FORMERLY or said[i : i + 2] == ["used", "to"]]


def said_of_before(claim: Claim) -> frozenset[str]:
    """Keys of the pieces of ``claim`` that say what held before ("Tom used to work at
    Spotify; he's at IKEA now": Spotify is said, and said to be gone)."""
    past = _formerly_at(claim)
    ends = [0, *(m.end() for m in _CLAUSE.finditer(claim.body)), len(claim.body) + 1]
    spans = [
        (start, end)
        for start, end in itertools.pairwise(ends)
        if any(start <= claim.words[i].start < end for i in past)
    ]
    return keys(w for w in claim.words if any(s <= w.start < e for s, e in spans))


_FORMERLY = frozenset(
    """formerly previously früher ehemals tidigare förut förr brukade solía solías solíamos
    solían antes""".split()  # noqa: SIM905
)
# Where one lived or worked, said in the past: maybe no longer ("Grandma lived in Lund"),
# maybe only once ("bodde i Malmö som barn").
_LIVED = frozenset(
    "lived worked bodde jobbade arbetade wohnte arbeitete vivía trabajaba".split()  # noqa: SIM905
)


def _lived(claim: Claim) -> bool:
    return any(w.text.casefold() in _LIVED for w in claim.words)


# Who does it, said after: "managed by Maya", "leds av Sara", "von Lena geleitet".
_BY = frozenset("by av von vom por".split())  # noqa: SIM905


def _swapped(a: Claim, b: Claim) -> bool:
    """Whether the people or things both statements name stand in another order around a
    verb, with no "by" that turns it round: "Anna manages Erik" is not "Erik manages
    Anna". (Not in German, which capitalises every noun.)"""
    if a.language == "german" or any(w.text.casefold() in _BY for c in (a, b) for w in c.words):
        return False
    if any(c.verb is None or c.words[c.verb].text.casefold() in COPULAS for c in (a, b)):
        return False  # "A is B" says "B is A"
    named = (
        {
            w.key
            for c in (a, b)
            for i, w in enumerate(c.words)
            if i and w.text[:1].isupper() and not w.value and not is_user(w) and not names_a_time(w)
        }
        & a.keys
        & b.keys
    )
    order = [list(dict.fromkeys(w.key for w in c.words if w.key in named)) for c in (a, b)]
    return len(order[0]) > 1 and len(order[1]) > 1 and order[0] != order[1]


Joins = tuple[tuple[str, str], ...]  # (written apart, as written)


@cache
def apart(old: str, new: str) -> tuple[str, str, Joins]:
    """``old`` and ``new`` with each word made of two that the other says apart written
    apart, and what was taken apart (so that a line built from them can be put back).
    A Swedish or German compound ("Styrelsemötet" is "mötet med styrelsen",
    "Kundenmeeting" "das Meeting mit dem Kunden"), and a verb done again ("reassigned" is
    "assigned again", and so still announces a change)."""
    language = language_of(f"{old}\n{new}")
    a, b = read(old, language), read(new, language)
    old_apart, old_joins = _taken_apart(a, b)
    new_apart, new_joins = _taken_apart(b, a)
    return old_apart, new_apart, old_joins + new_joins


def _taken_apart(claim: Claim, other: Claim) -> tuple[str, Joins]:
    text, joins = claim.text, []
    for word in claim.words:
        if word.function or word.value or len(word.text) < 6 or word.key in other.keys:
            continue
        written = _as_two_words(word, claim, other)
        if written is not None:
            text = re.sub(rf"\b{re.escape(word.text)}\b", written, text, count=1)
            joins.append((written, word.text))
    return text, tuple(joins)


def _same_use(claim: Claim, found: Word, other: Claim, verb: str) -> bool:
    """Whether ``other`` says ``verb`` followed by the function word that follows ``found``
    in ``claim`` ("assigned to", "reassigned to")."""
    key = fold(verb, other.language)

    def after(words: tuple[Word, ...], index: int) -> str:
        nxt = words[index + 1] if index + 1 < len(words) else None
        return nxt.text.casefold() if nxt is not None and nxt.function else ""

    lead = after(claim.words, claim.words.index(found))
    uses = (after(other.words, i) for i, w in enumerate(other.words) if w.key == key)
    return bool(lead) and lead in uses


def _as_two_words(found: Word, claim: Claim, other: Claim) -> str | None:
    """``found`` written as the two words ``other`` says apart (see :func:`apart`), or as
    the bare word ``other`` says, or None."""
    word, lower, language = found.text, found.text.casefold(), other.language
    if language in ("english", "spanish") and lower.startswith("re"):
        # Only a verb done again to the same end: "reassigned to", "assigned to".
        again = "again" if language == "english" else "otra vez"
        return f"{word[2:]} {again}" if _same_use(claim, found, other, lower[2:]) else None
    if language == "swedish" and word[:1].isupper():
        # The article a Swedish name, or a noun opening the sentence, ends in ("Volvon",
        # "Gymkortet"): the word the other says bare ("Volvo", "gymkort"), which the
        # stemmer does not always reach. (Not "i veckan", which is "a week".)
        for ending in ("en", "et", "n", "t"):
            bare = lower.removesuffix(ending)
            if bare != lower and len(bare) >= 4 and fold(bare, language) in other.keys:
                return word[: len(bare)]
    if language not in ("swedish", "german") or len(lower) < 7:
        return None
    for cut in range(3, len(lower) - 2):
        if fold(lower[:cut], language) in other.keys and fold(lower[cut:], language) in other.keys:
            return f"{word[:cut]} {word[cut:]}"
    return None


# "replaced the Civic with a Mazda", "kör inte längre Volvo utan en Kia", "hat kein Pixel
# mehr, sondern ein iPhone", "cambió el Seat por un Toyota": one thing given up for another.
_REPLACED = re.compile(
    r"\b(?:replaced|swapped|traded)\s+(?P<a>.{1,40}?)\s+(?:with|for)\b"
    r"|\bswitched\s+from\s+(?P<b>.{1,40}?)\s+to\b"
    r"|\binte\s+längre\s+(?:\w+\s+)?(?P<c>.{1,40}?)\s+utan\b"
    r"|\b(?:bytt|bytte)\s+(?:ut\s+)?(?P<d>.{1,40}?)\s+mot\b"
    r"|\b(?:kein(?:e|en)?|nicht\s+mehr)\s+(?P<e>.{1,40}?)\s*(?:mehr\s*)?,?\s+sondern\b"
    r"|\b(?P<f>\S.{0,40}?)\s+durch\s+.{1,40}?\s+ersetzt\b"
    r"|\b(?:cambió|sustituyó|reemplazó)\s+(?P<g>.{1,40}?)\s+por\b"
    r"|\bya\s+no\s+(?:\w+\s+)?(?P<h>.{1,40}?)\s+sino\b",
    re.IGNORECASE,
)


_OF = re.compile(r"\s(?:of|von|vom|av|de|del|från)\s", re.IGNORECASE)


# A switch to another named thing, the old one unnamed: "Tom switched to a Pixel 8", "Lisa
# har bytt till en iPhone 15", "Me pasé a iPhone", "Vi har gått över till Linear".
_SWITCHED_TO = re.compile(
    rf"\b(?:{_SWITCH_VERBS})\s+(?:back\s+)?(?:to|till|auf|zu|zum|zur|a|al)\s+"
    r"(?:(?:an?|the|en|ett|einen?|eine|un|una|el|la)\s+)?(?-i:[A-ZÅÄÖÜÉ\d]|i(?=[A-Z]))",
    re.IGNORECASE,
)


# What one switches from is what one uses or drives ("uses an iPhone 12"), or the device
# a thing is ("Lisas telefon är en Samsung"): never where one lives, what rent is paid,
# who one is, or what one has ("has a cat named Miso" is no phone plan).
_USING = frozenset(
    """
    use uses using drive drives banks runs använder kör nutze nutzt benutze benutzt fahre fährt
    uso usa usamos conduzco
    """.split()  # noqa: SIM905
)
_DEVICES = frozenset({"phone", "computer", "car"})


def _uses(claim: Claim) -> bool:
    """Whether ``claim``'s verb says what is used, driven or run, however it is said."""
    if claim.verb is None:
        return False
    verb = claim.words[claim.verb]
    return verb.text.casefold() in _USING or verb.key == "use"  # ("verwendet", "utiliza")


def _switched_from(a: Claim, b: Claim) -> frozenset[str]:
    """The keys of the names and numbers of ``a``'s device, or of what it says is used."""
    device = next((f for f in a.frames if f.attribute.split()[-1] in _DEVICES), None)
    if device is not None:
        start, end = device.span()
    elif a.verb is not None and _uses(a):
        start, end = a.words[a.verb].end, len(a.body)
    else:
        return frozenset()
    return frozenset(
        w.key
        for w in a.words
        if start <= w.start < end
        and not w.function
        and (w.value or w.text[:1].isupper())
        and w.key not in b.keys | a.subject
    )


def given_up(a: Claim, b: Claim) -> frozenset[str]:
    """The keys of the names and numbers ``a`` says (beyond its subject) that ``b`` gives
    up for another ("replaced the Civic with ..."; "switched to a Pixel 8" gives up what
    the older line says its subject uses or drives, or the device it is): none when the
    owners differ, or when what is given up is a part of the thing ("the tyres of the
    Volvo")."""
    if _SWITCHED_TO.search(b.body) and b.subject and b.subject <= a.subject:
        # Said of the one the older line is about, or of part of them ("Lisa", "Lisas
        # telefon"): what it names as used, or as the device, is what was switched from.
        return _switched_from(a, b)
    if not a.subject & b.keys:
        return frozenset()
    found: set[str] = set()
    for match in _REPLACED.finditer(b.body):
        start, end = next(match.span(g) for g in "abcdefgh" if match.group(g))
        part = _OF.search(b.body, start, end)
        end = part.start() if part else end
        found |= {
            w.key
            for w in b.words
            if start <= w.start < end and not w.function and (w.value or w.text[:1].isupper())
        }
    return frozenset(w.key for w in a.words if w.key in found and w.key not in a.subject)


def _names_more(a: Claim, b: Claim) -> bool:
    """Whether ``b``'s subject is ``a``'s with a name or a date added, and nothing else."""
    added = b.subject - a.subject
    if not added or not a.subject <= b.subject or b.language == "german":
        return False
    found = b.words
    # A name, a date, or the number of a name ("flight BA 117").
    named = [
        w
        for i, w in enumerate(found)
        if w.key in added
        and i > 0
        and (
            w.text[:1].isupper()
            or _near(found, i, lx.MONTHS)
            or (w.value and found[i - 1].key in added and found[i - 1].text[:1].isupper())
        )
    ]
    return keys(named) == added


def _details_subject(a: Claim, b: Claim) -> bool:
    """Whether ``b``'s subject is ``a``'s with details after it, set apart by a comma, a
    bracket or a preposition ("Faktura 2025-044 på 12 500 kr från Byggab", "Invoice
    INV-5120 (€2,340, from Nordic Print AB)"): the same thing, more said of it."""
    added = b.subject - a.subject
    if not added or not a.subject <= b.subject or b.verb is None:
        return False
    head = b.words[: b.verb]
    owned = [w.key in a.subject or (is_user(w) and "user" in a.subject) for w in head]
    last = max((i for i, said in enumerate(owned) if said), default=len(head))
    if last + 1 >= len(head) or any(w.key in added for w in head[: last + 1]):
        return False
    if any(w.kin or is_user(w) for w in head[last + 1 :]):
        return False  # "the sister of the user's neighbour": someone else
    gap = b.body[head[last].end : head[last + 1].start]
    return "," in gap or "(" in gap or head[last + 1].function


def _announced_of(a: Claim, b: Claim) -> bool:
    """Whether ``b`` announces a change of what ``a`` is about, named in other plain words
    ("The auth service runs Keycloak 21", "Production auth has been upgraded to Keycloak
    24"): the subjects share a word and differ in nothing that names someone apart."""
    if not b.cue or a.cue or not a.subject & b.subject - {"user"}:
        return False
    if b.subject < a.subject and _whose_only(a, a.subject - b.subject) and not _names_anyone(b):
        return True  # "Swim lessons switched to Sunday", of "The kids' swim lessons ..."
    return not _named_apart(a, b, implied_user=True) and not _member_named(a, b)


def _whose_only(claim: Claim, extra: frozenset[str]) -> bool:
    """Whether the words of ``extra`` only say whose ``claim``'s subject is (kin, the user)."""
    return all(w.kin or is_user(w) for w in claim.words if w.key in extra)


def _names_anyone(claim: Claim) -> bool:
    """Whether ``claim`` names a person or a thing by name, or the user (not a day or a
    month: "switched to Sunday mornings")."""
    return any(
        w.kin
        or is_user(w)
        or (i > 0 and w.text[:1].isupper() and claim.language != "german" and not names_a_time(w))
        for i, w in enumerate(claim.words)
    )


def _member_named(a: Claim, b: Claim) -> bool:
    """Whether the subjects differ in one word beside the same word ("server alpha",
    "server beta"; "the staging server", "the production server"; "the project budget",
    "the marketing budget"): one of many, another thing."""
    old, new = ([w.key for w in c.words[: c.verb] if not w.function] for c in (a, b))
    ops = SequenceMatcher(None, old, new, autojunk=False)
    changed = [op for op in ops.get_opcodes() if op[0] != "equal"]
    if len(changed) != 1 or changed[0][0] != "replace":
        return False
    _tag, i1, i2, j1, j2 = changed[0]
    return i2 - i1 == j2 - j1 == 1 and len(old) > 1


def _shared(a: Claim, b: Claim) -> float:
    """How much of the shorter statement the other one says, in content words."""
    return len(a.keys & b.keys) / max(1, min(len(a.keys), len(b.keys)))


def _named_apart(a: Claim, b: Claim, *, implied_user: bool = False) -> bool:
    """Whether the subjects differ in a person or a name: kin, the user, a name, an id
    (not the user, with ``implied_user``, where the other statement names no one)."""
    differ = a.subject ^ b.subject
    for claim, other in ((a, b), (b, a)):
        for index, word in enumerate(claim.words):
            if word.key not in differ and not (is_user(word) and "user" in differ):
                continue
            if implied_user and is_user(word) and "user" not in other.keys:
                continue
            if word.key in other.keys:
                continue  # named by both, elsewhere: "Fenix is led by Maria", "Maria leads Fenix"
            named = word.text[:1].isupper() and index > 0 and claim.language != "german"
            if named or word.value or is_user(word) or word.kin:
                return True
    return False


def _compare(a: Claim, b: Claim, *, one_thing: bool = False) -> Judgement:
    """Two statements about one subject, word by word; ``one_thing`` when both say one
    single-valued attribute (one move, one employer), so a date is that one's date."""
    # The words that announce a change say nothing of their own: "The deadline moved to
    # 2026-04-15" says what "The deadline is 2026-04-15" says.
    only_a, only_b = a.keys - b.keys, b.keys - a.keys - announcing(b)
    if a.sentiment and _feeling(a) == _feeling(b):
        return Judgement(Relation.SAME, "the same feeling about the same thing")
    if _swapped(a, b):
        return Judgement(Relation.DISTINCT, "the same names in other roles", sure=False)
    if a.negated == b.negated and not only_b and _past(a) == _past(b):
        return Judgement(Relation.SAME, "nothing the remembered statement does not say")
    if a.negated == b.negated and not only_a and _same_verb(a, b):
        if _possessed(a, b):
            # "loves Anna" and "loves Anna's dog": the dog is another thing than Anna, and
            # taking it for more of the same would lose that the user loves Anna.
            return Judgement(Relation.DISTINCT, "about something of what it names", sure=False)
        return Judgement(Relation.RICHER, "the same, with more detail")
    if b.temporary and not a.temporary:
        return Judgement(Relation.DISTINCT, "a passing constraint; the lasting fact stays")
    if a.negated == b.negated and _made_specific(a, b):
        return Judgement(Relation.RICHER, "says which one")
    shared = _shared(a, b)
    if a.negated != b.negated and not only_a and not only_b:
        return Judgement(Relation.UPDATE, "takes back what the remembered statement says")
    if a.negated != b.negated and not only_b and _same_verb(a, b):
        # "Knut is not a Finnish Lapphund" against a line saying that and more: it takes
        # back a part, which only a person (or a model) can cut out of it.
        return Judgement(Relation.UPDATE, "takes back part of what it says", sure=False)
    if a.sentiment * b.sentiment < 0 and shared >= 0.5:
        return Judgement(Relation.UPDATE, "likes what was disliked, or the other way round")
    if _does_what_was_avoided(a, b) or _does_what_was_avoided(b, a):
        return Judgement(Relation.UPDATE, "does what it was said to avoid, or the other way round")
    return _substitution(a, b, shared, one_thing=one_thing)


def _made_specific(a: Claim, b: Claim) -> bool:
    """Whether ``a`` says only that its subject does something with one of a kind ("is
    learning a language", "spelar ett instrument") and ``b``, with the same verb, says
    which: the specific statement holds the general one. Only of a word for a kind: "has a
    dog", then "has a cat", are two pets."""
    if a.verb is None or b.verb is None or b.cue or not a.subject <= b.subject:
        return False
    if a.words[a.verb].key != b.words[b.verb].key or not b.keys - a.keys:
        return False
    said = [w for w in a.words[a.verb + 1 :] if not w.function]
    before = a.words[a.words.index(said[0]) - 1].text.casefold() if len(said) == 1 else ""
    return before in _INDEFINITE and said[0].text.casefold() in _KINDS_OF


_INDEFINITE = frozenset("a an en ett ein eine einen un una some".split())  # noqa: SIM905
# Words for a kind of thing, which a name or a word of one of them says more of.
_KINDS_OF = frozenset(
    """
    language instrument sport pet hobby job degree course car språk husdjur jobb kurs bil
    examen sprache haustier auto abschluss idioma instrumento deporte mascota trabajo curso
    coche carrera
    """.split()  # noqa: SIM905
)


def _possessed(a: Claim, b: Claim) -> bool:
    """Whether ``b`` makes a word ``a`` ends on the owner of something new ("Anna's dog")."""
    last = next((w for w in reversed(a.words) if not w.function), None)
    if last is None:
        return False
    found = b.words
    for index, word in enumerate(found[:-1]):
        owner = word.text.casefold().endswith(("'s", "’s"))
        if owner and word.key == last.key and found[index + 1].key not in a.keys:
            return not found[index + 1].function
    return False


def _feeling(claim: Claim) -> tuple[int, frozenset[str]]:
    """Whether ``claim`` likes or dislikes, and what, in the words outside the ones that
    say how much ("hates cilantro" and "can't stand cilantro" feel one way about one thing)."""
    said = lx.DISLIKE if claim.sentiment < 0 else lx.LIKE
    spans = [m.span() for m in said.finditer(claim.body)]
    rest = (w for w in claim.words if not any(s <= w.start < e for s, e in spans))
    return claim.sentiment, keys(rest)


def _does_what_was_avoided(a: Claim, b: Claim) -> bool:
    """Whether ``a`` abstains from what ``b`` does, of one thing: "doesn't drink alcohol"
    (read as abstaining) and "drinks alcohol"; "es intolerante a la lactosa", "tolera"."""
    if a.negated or b.negated:
        return False
    for idea, row in lx.NOT_DOING.items():
        avoided = fold(idea, a.language)
        doing = {fold(word, a.language) for word in row.split()}
        if avoided in a.keys and b.keys & doing and a.keys - {avoided} == b.keys - doing:
            return True
    return False


def _same_verb(a: Claim, b: Claim) -> bool:
    """Whether the newer statement says what the older one does: "has a dog" is not said
    by "walks the dog daily", though every word of it is there."""
    if a.verb is None or _copular(a) or _copular(b):
        return True
    verb = a.words[a.verb]
    if _status([verb]) and any(_status([w]) for w in b.words):
        return True  # "is planning a trip", "booked the trip": the same, further on
    return any(w.key == verb.key or w.text.casefold() == verb.text.casefold() for w in b.words)


def _same_attribute(a: Claim, b: Claim, key: str) -> Judgement:
    fa, fb = a.frame(key), b.frame(key)
    assert fa is not None and fb is not None
    attribute = fb.named
    mine, theirs = (f.owner or _whose(c, f) for f, c in ((fa, a), (fb, b)))
    # "My manager's manager": the attribute of the one the attribute names, not the same.
    chained = naming(a.words, key) & mine != naming(b.words, key) & theirs
    if chained or not _one_owner(a, b, mine, theirs):
        return Judgement(Relation.DISTINCT, f"the {attribute} of someone or something else")
    old, new = _value_keys(a, fa), _value_keys(b, fb)
    if old and new and not (old <= new or new <= old):
        if b.temporary and not a.temporary:
            return Judgement(Relation.DISTINCT, "a passing constraint; the lasting fact stays")
        return Judgement(Relation.UPDATE, f"a new {attribute}")
    if _denied(a, fa) != _denied(b, fb):
        # "Elena is no longer vegetarian": the same value, taken back (it was kept as "the
        # same diet", and the change lost).
        return Judgement(Relation.UPDATE, f"takes back the {attribute}")
    if _formerly(a) != _formerly(b) or _lived(a) != _lived(b):
        # "I live in Berlin", then "I used to live in Berlin": no longer ("Grandma lived in
        # Lund": maybe; a model or a person says). The other way round the past and the
        # present are both true (it had been kept as "the same place", and the present
        # lost); a model or a person may say more.
        if _formerly(b) or _lived(b):
            return Judgement(Relation.UPDATE, f"the {attribute} is past", _formerly(b))
        return Judgement(Relation.DISTINCT, f"the {attribute} then and now", sure=False)
    # The words that set the attribute may differ ("works at", "is employed by"); a value
    # that says more ("Hospital La Paz como enfermero") is more, not the same.
    setting = keys(
        w
        for w in b.words
        if fb.said[0] <= w.start < fb.said[1] and not fb.start <= w.start < fb.end
    ) | naming(b.words, key)
    if b.keys - setting <= a.keys | mine:
        return Judgement(Relation.SAME, f"the same {attribute}")
    # The same value; what else they say decides ("moved to Lisbon on 2026-12-06" and
    # "... on 2026-12-04" differ in a date), and it is never another fact of its own.
    rest = _compare(a, b, one_thing=True)
    if rest.relation is Relation.DISTINCT or rest.relation is Relation.SAME:
        return Judgement(Relation.RICHER, f"the same {attribute}, with more detail")
    return rest


def _whose(claim: Claim, frame: Frame) -> frozenset[str]:
    """Whose an attribute is that names no owner. A frame read from the verb on ("Arbeitet
    der Nutzer bei Bosch") belongs to the subject; one that opens the sentence, its own
    verb first ("Vivo en Madrid", "Tengo 34 años", "Ya cumplí 35"), is the speaker's."""
    before = [w for w in claim.words if w.start < frame.said[0]]
    opens = all(w.function for w in before)
    if claim.verb is None or (opens and claim.words[claim.verb].start >= frame.said[0]):
        return USER
    return claim.subject


# Where a clause ends: a comma, a semicolon, or "and" between two things said.
_CLAUSE = re.compile(r"[,;]|\s(?:and|but|och|men|und|aber|y|pero)\s", re.I)


def _denied(claim: Claim, frame: Frame) -> bool:
    """Whether the clause that sets ``frame`` denies it ("Sam doesn't live in Porto any
    more", "Elena is no longer vegetarian"; not "lives in Oslo and doesn't own a car")."""
    start = max((m.end() for m in _CLAUSE.finditer(claim.body, 0, frame.start)), default=0)
    return negation(claim.body[start : frame.end])


def _one_owner(a: Claim, b: Claim, mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Whether two attributes belong to one person or thing: the same words (maybe in
    another order), or one name and the same name in full ("Maya", "Maya Lindqvist"); a
    person named by a tie and a name is the one the name names ("My brother Erik", "Erik")."""
    if _other_kin(a, b, mine, theirs):
        return False
    if _tie_named(a, b, mine, theirs) or _tie_named(b, a, theirs, mine):
        return True  # "My sister Lena", "My sister": the one sister, named once
    mine, theirs = _by_name(a, mine), _by_name(b, theirs)
    if mine == theirs or (mine <= b.keys and theirs <= a.keys):
        return True
    small, big, wider = (mine, theirs, b) if len(mine) < len(theirs) else (theirs, mine, a)
    if not small or not small < big:
        return False
    # The rest of a name, never a tie to someone ("Die Eltern von Lukas", "Lukas
    # Schwester": German capitalises every noun).
    names = {w.key for w in wider.words if w.text[:1].isupper() and not w.function and not w.kin}
    return bool(small & names) and big - small <= names


def _other_kin(a: Claim, b: Claim, mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Whether each names its one by another tie: "my sister Klara" and "my cousin Klara"
    are two people of one name."""
    kin_a, kin_b = (
        {w.key for w in c.words if w.kin and w.key in o} for c, o in ((a, mine), (b, theirs))
    )
    return bool(kin_a and kin_b and not kin_a & kin_b)


def _tie_named(named: Claim, other: Claim, mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Whether ``mine`` is ``theirs`` with the name that follows its tie ("my sister Lena")."""
    if not theirs < mine:
        return False
    tie = _by_name(named, mine)
    return tie != mine and mine - theirs == tie and any(k in theirs for k in mine - tie)


def _by_name(claim: Claim, owner: frozenset[str]) -> frozenset[str]:
    """``owner`` as the name that follows a tie in it ("my brother Erik", "Sam's sister
    Ana", "Meine Kollegin Petra") or a plain word for what it is ("the dog Poppy"): the
    word and whose it is only describe the one the name names."""
    found = claim.words
    for index, word in enumerate(found[:-1]):
        # (German writes every noun with a capital: only a tie is told from a name there.)
        plain = word.text.islower() and not word.function and claim.language != "german"
        plain = plain and index > 0 and found[index - 1].function  # "the dog", "our server"
        if not (word.kin or plain) or word.key not in owner:
            continue
        name = list(
            takewhile(lambda w: w.text[:1].isupper() and not w.function, found[index + 1 :])
        )
        dated = any(names_a_time(w) for w in name)  # "the release Friday" names no one
        if name and not dated and not any(w.kin for w in name) and keys(name) <= owner:
            return keys(name)
    return owner


def _value_keys(claim: Claim, frame: Frame) -> frozenset[str]:
    if frame.attribute in ("diet", "relationship"):
        return frozenset({frame.value})
    return keys(words(frame.value, claim.language))


def _other_subject(a: Claim, b: Claim) -> bool:
    """Whether the two are about different people or things.

    A difference of word order only ("Every weekday at 09:00 the team has its standup")
    leaves each side's extra subject words elsewhere in the other statement."""
    if a.verb is None and b.verb is None:
        return False
    if _other_kin(a, b, a.subject, b.subject):
        return True
    named = _by_name(a, a.subject), _by_name(b, b.subject)
    if named != (a.subject, b.subject) and named[0] == named[1]:
        return False  # "The dog Poppy", "Poppy": the one the name names
    if a.verb is None or b.verb is None:
        # A note without a verb ("Name: Maya", "Cutover: 2026-12-12") is about what it
        # names: another statement whose subject it does not name is about something else
        # ("Maya's dog is called Knut").
        said, note = (a, b) if b.verb is None else (b, a)
        return bool(said.subject - note.keys - {"user"})
    extra_a, extra_b = a.subject - b.subject, b.subject - a.subject
    # The person memclaw serves is implied where a statement names no one else.
    extra_a, extra_b = (
        x - {"user"} if "user" not in y.keys else x for x, y in ((extra_a, b), (extra_b, a))
    )
    if not extra_a and not extra_b:
        return False
    if _same_id(a, b, extra_a | extra_b):
        return False
    # "User's editor of choice is VS Code", "User switched to Neovim as their main editor":
    # what the owner has, said by both, is one attribute of the owner, not someone else.
    fine_a = extra_a <= b.keys or _owned_said(a, b, extra_a)
    return not (fine_a and (extra_b <= a.keys or _owned_said(b, a, extra_b)))


def _same_id(a: Claim, b: Claim, extra: frozenset[str]) -> bool:
    """Whether both subjects name one thing by its id, and differ only in a plain word for
    what it is ("Der Server srv-db-01", "srv-db-01"; "Ticket SUP-4410", "SUP-4410")."""
    if not any(_an_id(key) for key in a.subject & b.subject):
        return False
    differ = [w for c in (a, b) for w in c.words if w.key in extra]
    return not any(w.value or w.kin or is_user(w) for w in differ)


def _an_id(key: str) -> bool:
    """Whether ``key`` can name one thing: letters with digits (srv-db-01, SUP-4410), or a
    number of three digits or more (invoice 4411); not a version or a count ("Postgres 16")."""
    digits = sum(c.isdigit() for c in key)
    return digits > 0 and (digits < len(key) or digits >= 3)


def _owned_said(claim: Claim, other: Claim, extra: frozenset[str]) -> bool:
    """Whether ``claim``'s subject is an owner's thing that ``other`` also names, of the
    same owner, with nothing else that tells a someone apart (a kin word, a name, an id),
    and ``claim`` says what that thing *is* (its value): a thing that does something
    ("User's dog sleeps in the hall") is a someone of its own."""
    if not _copular(claim):
        return False
    found = claim.words
    owner = next((i for i, w in enumerate(found) if w.text.casefold().endswith(("'s", "’s"))), None)
    if owner is None or claim.verb is None or owner >= claim.verb - 1:
        return False
    if found[owner].key not in other.keys and not (is_user(found[owner]) and "user" in other.keys):
        return False
    # The other says the phrase's first word and its head (its last before "of" or the
    # verb): which kind, and what thing ("preferred airline seat", "editor of choice"); a
    # "birthday party" is not the birthday, nor a "skip-level manager" the manager.
    phrase: list[Word] = []
    for word in found[owner + 1 : claim.verb]:
        if word.function and phrase:
            break
        if not word.function:
            phrase.append(word)
    if not phrase or phrase[0].key not in other.keys or phrase[-1].key not in other.keys:
        return False
    rest = [w for w in found[owner + 1 : claim.verb] if w.key in extra and w.key not in other.keys]
    return not any(w.value or w.text[:1].isupper() or w.kin for w in [*phrase, *rest])


def _substitution(a: Claim, b: Claim, shared: float, *, one_thing: bool = False) -> Judgement:
    """Each says something the other does not: another value, or another fact.

    The words are aligned in order: a *slot* is a run of the old statement in the place
    of a run of the new: one word for one ("alpha" for "beta", "Japan" for "Chile"), or
    names for names ("Eclipse" for "IntelliJ IDEA"). What fills it decides: a date, time,
    weekday, version or count of the same thing is a new value; what the subject *is*
    ("Teamleiter", "jefe de ventas") is a new value; a name, an id or another member is
    another fact. Runs that only add to what both share make one richer statement."""
    ops = [(x, y) for tag, x, y in aligned_runs(a, b) if tag == "replace"]
    # A plan that became a booking, a month that became its days: the same thing, further on.
    ops = [(x, y) for x, y in ops if not (_status(x) and _status(y))]
    ops = [(x, y) for x, y in ops if not refines(x, y)]
    slots = [(x, y) for x, y in ops if _slot(x, y, a.language)]
    typed = [kind for x, y in ops if (kind := _typed_slot(a, b, x, y)) is not None]
    # A change the new one announces (in words the old one did not: "the new gateway" in
    # both is no news, "was postponed to" then "was moved to" is) needs less of the
    # shorter one said by the other.
    announced = b.cue and (not a.cue or announcing(a) != announcing(b))
    enough = shared >= 0.5 or (announced and shared >= 1 / 3)
    if typed and len(typed) == len(ops) and (enough or (announced and _only_news(a, b, ops))):
        user = a.subject == b.subject == {"user"}
        if typed == [{"date"}] and user and not (announced or one_thing):
            # "Has a flight to Madrid on 3 May", "... on 10 May": two trips, unless told.
            return Judgement(Relation.DISTINCT, "another date, another occasion")
        return Judgement(Relation.UPDATE, f"a new {' and '.join(sorted(typed[0]))}")
    ids = [
        (x, y) for x, y in slots if all(w.value for w in x + y) and _typed_slot(a, b, x, y) is None
    ]
    if ids and len(ops) > len(ids):
        if renumbered(a, b):
            return Judgement(Relation.UPDATE, "a new number")  # "now uses port 5434"
        # "Service q0 ... with Grafana", "service q25 ... with Sentry": another one, named
        # by another id, of which other things are said.
        return Judgement(Relation.DISTINCT, "another one, by its id")
    # Announced of what the older one is about, or of more than the newer one's subject:
    # "Correction: Maya lives in Bergen" does not say that "Name: Maya" changed.
    about = a.subject <= b.keys or bool((a.keys & b.keys) - b.subject) or _described(a, b)
    told = announced and enough and about and not _another_attribute(a, b)
    who = a.subject if _a_person(a) and a.subject == b.subject else USER
    if b.subject and b.subject <= a.subject and _someone(a) and _someone(b):
        who = b.subject  # whom both name: "Mi compañero Andrés", "Andrés"; "Mi hermano"
    if told and not (a.keys & b.keys) - who - USER:
        # A change said of nothing but who it is about, in words of no shared stem, is no
        # change of what the older line says: "I moved to Bergen" had replaced "I have a
        # cat called Miso", "Sam now works at Klarna" "Sam plays chess on Sundays"
        # ("dricker", "dricka vin igen" is one).
        told = any(_tied(x.text, y.text) for x in _said(a, who) for y in _said(b, who))
        # A switch gives up what was used ("nutzt Obsidian", "ist auf Logseq umgestiegen").
        used = _uses(a)
        told = told or (used and switched_to(b.body)) or _in_its_place(a, b)
        if not told and _SWITCHING.search(b.body):
            # "Der Nutzer hat zu BMW gewechselt" after "arbeitet bei Siemens": a switch to
            # another name, of what the words do not say (a job? a phone?); a model says.
            return Judgement(Relation.DISTINCT, "a switch, of what the words do not say", False)
    elif told and _the_thing(a) and a.subject == b.subject and not announcing(b):
        # A thing has more than one attribute too: only "now", "new" or "again" said of it,
        # and nothing the older line says ("The company offsite has a new agenda") changes
        # nothing of it ("is in Lisbon"); a value in its place does ("is now db-prod-2").
        values = [{w.key for w in c.words if w.value} for c in (a, b)]
        if not (a.keys & b.keys) - a.subject and not (values[0] and values[1]):
            told = _in_its_place(a, b)
    changed = not _passing_turned_main(a, b) and not _other_purpose(a, b)
    if told and changed and not _of_a_part(a, b):
        return Judgement(Relation.UPDATE, "said to have changed")
    # One liking does not end another ("likes tea", "likes coffee"); a choice does
    # ("prefers tea", "uses vim").
    fond = a.sentiment > 0 and b.sentiment > 0
    chosen = any(_alternatives(x, y) for x, y in slots)
    if shared >= 0.5 and not fond and chosen and not _other_purpose(a, b):
        return Judgement(Relation.UPDATE, "one choice replaced by another")
    # (Not of an attribute whose values are known words, that the older one sets and the
    # newer one does not: "is vegetarian" is a diet, "is allergic to peanuts" none.)
    unset = any(f.attribute in _KNOWN_VALUES and b.frame(f.attribute) is None for f in a.frames)
    copular = _copular(a) and _copular(b) and not unset
    first = ops[0] if ops else None
    if (
        enough
        and copular
        and first
        and _right_after_verb(a, first[0])
        and _right_after_verb(b, first[1])
        and {shape(w, a.language) for w in first[0]} == {shape(w, b.language) for w in first[1]}
        and not any(_CONDITION.search(w.text) for w in first[0] + first[1])
    ):
        return Judgement(Relation.UPDATE, "the subject is something else now")
    # Richer when what only the newer one says is more than what only the older one said:
    # "learning the guitar from his uncle" and "learning classical guitar, every evening".
    more = _weight(b.keys - a.keys) >= max(2, _weight(a.keys - b.keys - {"user"}))
    if not slots and more and _told(a, b) >= 0.5 and _anchored(a, b) and _same_verb(a, b):
        # Sure when it only adds, or moves words, or leaves out details of the older one
        # that the line of both keeps ("organised by Priyanka", "bei Dr. Wagner"); when
        # words of what the older one says of its subject gave way ("black" to "with oat
        # milk") a model, if there is one, says whether that is more or other.
        said = _said_by(a, b) | {"user"}
        core = pieces(a.body)[0][1]
        lost = [w for x, _ in ops for w in x if w.key not in said and w.start < core]
        return Judgement(Relation.RICHER, "more about the same thing", sure=not lost)
    # One verb for another ("commutes by bike", "cycles to work") may say the same in other
    # words: only a value in the place of a value tells surely of another fact.
    valued = [(x, y) for x, y in slots if not (_verb_of(a, x) and _verb_of(b, y))]
    sure = shared < 0.5 or bool(valued)
    return Judgement(Relation.DISTINCT, "another fact" if sure else "another fact, it seems", sure)


# One has many conditions at once: "allergisk mot pollen" is no longer so after
# "glutenintolerant" only when a person says so.
_CONDITION = re.compile(r"allerg|intoleran|celíac|celiak|zöliak|diabet|asthm|astm", re.I)
_LISTED = re.compile(r"\b(?:and|or|och|eller|und|oder|y|o)\b|,", re.IGNORECASE)


# What one has, which a thing called off ends ("Jag har ett gymkort").
_HAVING = frozenset("have has har habe hat tengo tiene tenemos".split())  # noqa: SIM905


@cache  # asked by the judge and again by the combining of the pair it settled
def stopped(a: Claim, b: Claim) -> frozenset[str]:
    """The keys of what ``b`` says its subject stopped doing, when that is what ``a`` says
    it does ("Anna smokes a pack a day", "Anna quit smoking"; "Tom works at Spotify", "Tom
    quit Spotify"; "The weekly sync is every Monday", "The weekly sync was cancelled");
    none otherwise. The doing is the first word after the stop (before it, when the
    sentence ends on it: "hat bei Siemens aufgehört"), or what a called-off thing is."""
    ended = list(lx.STOPPING.finditer(b.body))
    if not ended or lx.STOPPING.search(a.body) or a.negated:
        return frozenset()
    if any(w.kin and w.key not in a.keys for w in b.words):
        return frozenset()  # "Tom's sister quit Spotify": someone else stopped
    stop = ended[0]
    content = [
        w
        for w in b.words
        if not w.function
        and not w.user  # who stopped, not what
        and not stop.start() <= w.start < stop.end()
        and not names_a_time(w)
        and not any(c.isdigit() for c in w.key)
    ]
    after = [w for w in content if w.start >= stop.end()]
    before = [w for w in content if w.start < stop.start() and w.key not in a.subject & b.subject]
    doing = after[0] if after else (before[-1] if before else None)
    said = keys(content) & a.keys
    # (the doing in another form: "fotografiert gern", "mit dem Fotografieren aufgehört")
    done = doing is not None and any(_tied(doing.text, w.text) for w in a.words if not w.function)
    if doing is not None and (doing.key in a.keys or done) and not _other_subject(a, b):
        return said
    # A thing called off, of those the older line is about ("We have a Netflix
    # subscription", "Netflix was cancelled").
    # (Or of those the person says they have: "Jag har ett gymkort", "Gymkortet är
    # uppsagt"; not "User's sister has a Netflix subscription".)
    # (Said of the thing, as one that underwent it: "was cancelled", "är uppsagt", "wurde
    # gekündigt"; "Sam stopped playing chess" calls off nothing of "Sam lives in Lisbon".)
    verb = b.verb if b.verb is not None else len(b.words)
    # (the verb, or the word after it: "has been cancelled")
    undergone = any(w.text.casefold() in _UNDERGOING for w in b.words[verb : verb + 2])
    thing = b.subject - {"user"} if undergone else frozenset()
    had = a.verb is not None and a.words[a.verb].text.casefold() in _HAVING
    had = had and a.subject <= USER
    of_it = thing and thing <= a.keys and (thing <= a.subject or had)
    return said | thing if of_it else frozenset()


_UNDERGOING = COPULAS | {"wurde", "wurden", "blev", "blevo", "fueron", "been"}


# Where a version runs: one at a time in each ("in production", "produktiv", "live").
_WHERE_IT_RUNS = re.compile(r"\b(?:prod|production|produktion|produktiv|producción|live)\b", re.I)


def _new_version(a: Claim, b: Claim) -> bool:
    """Whether ``b`` gives another version of the one thing ``a`` gives a version of, said
    to run where one runs at a time or announced as a change: "payments-api in prod is on
    2.4.0" for "The payments-api service in production runs version 2.3.1", however each is
    worded. Not another one named apart (server alpha, server beta), nor a release of
    which something else is said ("Version 5.1 of the app passed review")."""
    old, new = ([w for w in c.words if _VERSION.fullmatch(w.key) and "." in w.key] for c in (a, b))
    if len(old) != 1 or len(new) != 1 or old[0].key == new[0].key:
        return False
    if not (b.cue or (_WHERE_IT_RUNS.search(a.body) and _WHERE_IT_RUNS.search(b.body))):
        return False
    versions = {old[0].key, new[0].key}
    for claim, other in ((a, b), (b, a)):
        for index, word in enumerate(claim.words):
            capital = index > 0 and word.text[:1].isupper() and claim.language != "german"
            named = word.value or capital
            if named and word.key not in versions and word.key not in other.keys:
                return False  # "Ubuntu 22.04" and "Debian 12.5"; "Release 4.2 ... by QA"
    what = a.keys & b.keys - {"user"}
    return bool(what) and not _member_named(a, b)


def _new_sum(a: Claim, b: Claim) -> bool:
    """Whether ``b`` gives another sum for the one price ``a`` gives, however each is
    worded: "En Casa Pepe el menú del día ya cuesta 14 euros" for "El precio del menú del
    día en Casa Pepe es 12 euros"; "Der Abschlag bei E.ON wurde auf 112 Euro erhöht". A
    thing has one price at a time, so the same named thing priced again, with nothing
    else said of it, is priced anew. Not another thing of the same name ("the Allianz
    home insurance", "Casa Pepe's paella"), nor a fee beside the sum ("a late fee of 40
    €"): a word of its own, not a price's, makes it something else."""
    old, new = _sums(a), _sums(b)
    if len(old) != 1 or len(new) != 1 or old[0].key == new[0].key:
        return False
    # What is priced, said by both: a name, or a word of a thing ("El gimnasio me cobra").
    named = [
        w
        for w in b.words
        if w is not new[0]
        and not (w.function or is_user(w) or _priced(w) or _when(w))
        and _said_in(w.key, a)
    ]
    said = {w.key for w in b.words if _priced(w) or _when(w)} | {new[0].key}
    rest = [key for key in b.keys - announcing(b) - said if not _said_in(key, a)]
    return bool(named) and not rest and not _member_named(a, b)


def _said_in(key: str, claim: Claim) -> bool:
    """Whether ``claim`` says ``key``, or each part of it ("O2-Vertrag" in "Mein
    Handyvertrag bei O2": "O2", and the "Vertrag" a compound of it ends in)."""
    if key in claim.keys:
        return True
    parts = key.split("-")
    return len(parts) > 1 and all(
        part in claim.keys or (len(part) >= 4 and any(k.endswith(part) for k in claim.keys))
        for part in parts
    )


def _sums(claim: Claim) -> list[Word]:
    """The sums of money ``claim`` gives: "£1,350", "1.080 €", "29,99 Euro", "68k"."""
    return [
        w for w in claim.words if w.value and (_in_money(claim, w) or _THOUSANDS.fullmatch(w.key))
    ]


def _in_money(claim: Claim, word: Word) -> bool:
    """Whether a currency stands right after ``word`` or right before it ("1.350 €", "€2,340")."""
    body = claim.body
    return bool(_CURRENCY.match(body, word.end) or _CURRENCY_BEFORE.search(body, 0, word.start))


def _priced(word: Word) -> bool:
    return word.text.casefold() in _PRICE_WORDS or bool(_CURRENCY.fullmatch(word.text))


def _when(word: Word) -> bool:
    text = word.text.casefold()
    return text in lx.MONTHS or _weekday(text) or text in _PERIODS


_THOUSANDS = re.compile(r"\d+k")  # "on 68k"
# What a price is called and how it recurs: words that say a sum is a price, not what of.
_PRICE_WORDS = frozenset(
    """price prices cost costs premium premiums fee fees charge charges pris priset kostar
    kostade kostnad kostnaden avgift avgiften preis kostet kosten kostete beitrag beträgt
    betrag precio cuesta cuestan costó coste costo tarifa cuota importe cobra cobran
    cobró""".split()  # noqa: SIM905
)
_PERIODS = frozenset(
    """month monthly months year yearly annually week weekly starting månad månaden
    månadsvis år året årligen vecka monat monatlich jahr jährlich woche mes mensual
    mensuales año anual semana""".split()  # noqa: SIM905
)


def _only_news(a: Claim, b: Claim, ops: list[tuple[list[Word], list[Word]]]) -> bool:
    """Whether all ``b`` says besides its announcing words and new values the older one
    says too: "The rent went up to $1,600" is all of "User's rent is $1,450 per month for
    the flat" it could say, however much more the older one held."""
    new_values = keys(w for _, y in ops for w in y if _kind(b, w))
    rest = b.keys - announcing(b) - new_values
    return bool(rest) and rest <= a.keys


def renumbered(a: Claim, b: Claim) -> list[tuple[list[Word], list[Word]]]:
    """The numbers ``b`` announces in the place of ``a``'s, each after the same word in
    what both say of one subject ("Server beta runs Postgres 15 on port 5433", "Server
    beta now uses port 5434"): none unless every id that differs is such a number."""
    if not b.cue or a.cue or a.subject != b.subject:
        return []
    ops = [(x, y) for tag, x, y in aligned_runs(a, b) if tag == "replace"]
    ids = [(x, y) for x, y in ops if all(w.value for w in x + y) and x and y]
    if not ids or not all(_numbered(a, b, x, y) for x, y in ids):
        return []
    # Nothing else given another value: "flyttat till fredag klockan 9" changes the day too.
    others = [
        (x, y) for x, y in ops if (x, y) not in ids and not (_verb_of(a, x) and _verb_of(b, y))
    ]
    return [] if others else ids


def _numbered(a: Claim, b: Claim, old: list[Word], new: list[Word]) -> bool:
    """Whether one number takes another's place after the same word, in what both say of
    their subject ("... on port 5433", "now uses port 5434"): that thing's new number."""
    if len(old) != 1 or len(new) != 1:
        return False
    i, j = a.words.index(old[0]), b.words.index(new[0])
    said = (a.verb is not None and i > a.verb) and (b.verb is not None and j > b.verb)
    return said and i > 0 and j > 0 and a.words[i - 1].key == b.words[j - 1].key


def _other_purpose(a: Claim, b: Claim) -> bool:
    """Whether what each says of its subject differs, and so does a detail both have,
    led by the same word ("uses Jira for planning", "uses GitHub Actions for CI"), in
    plain words the other does not say: a tool for one purpose is not replaced by a tool
    for another. (A value that is itself such a detail, "works at Accenture", is one.)"""
    core = pieces(a.body)[0][1]
    said = [w for w in a.words if w.start < core and not w.function and not _verb_of(a, [w])]
    if all(w.key in b.keys or w.key in a.subject or is_user(w) for w in said):
        return False
    found = [_lead_details(c) for c in (a, b)]
    return any(
        lead in found[1] and not ks & b.keys and not found[1][lead] & a.keys
        for lead, ks in found[0].items()
    )


def _lead_details(claim: Claim) -> dict[str, frozenset[str]]:
    """The details after the first piece, by the word that leads each, in plain words
    only (no date, time or number: a new day beside a new time is one change of when)."""
    found: dict[str, frozenset[str]] = {}
    for start, end in pieces(claim.body)[1:]:
        inside = [w for w in claim.words if start <= w.start < end]
        if not inside or not inside[0].function:
            continue
        content = [w for w in inside[1:] if not w.function]
        if content and not any(_kind(claim, w) for w in content):
            found.setdefault(inside[0].text.casefold(), keys(content))
    return found


# "the tyres of the Volvo", "däcken på bilen", "die Reifen am Auto": a part of a whole.
_PART_OF = re.compile(
    r"\s+(?:of|on|in|på|i|av|von|vom|des|am|im|de|del)\s+(?:(?:the|a|an|his|her|their|its|"
    r"den|det|der|die|das|dem|el|la|los|las|su|sus)\s+)?(?P<whole>\w+)",
    re.IGNORECASE,
)


def _of_a_part(a: Claim, b: Claim) -> bool:
    """Whether what ``b`` says changed is a part of a thing ``a`` names ("User replaced the
    tyres of the Volvo" against "User drives a Volvo"): the thing itself stays."""
    said = a.keys | announcing(b)
    new = (w for w in b.words if not w.function and w.key not in said and not is_user(w))
    changed = next(new, None)  # what the change is of; the words after it are its details
    part = _PART_OF.match(b.body, changed.end) if changed is not None else None
    whole = fold(part.group("whole"), b.language) if part is not None else ""
    at = next((i for i, w in enumerate(a.words) if w.key == whole), None)
    if at is None:
        return False
    # Nothing the remembered one says is given another value: only its verb, and the
    # rest of the whole's name ("a Volvo XC60", "the Volvo"), go unsaid.
    name = takewhile(lambda w: not w.function, a.words[at + 1 :])
    unsaid = {a.words[a.verb].key if a.verb is not None else "", *(w.key for w in name)}
    return a.keys - b.keys <= unsaid


def _described(a: Claim, b: Claim) -> bool:
    """Whether ``a``'s subject is one ``b`` names with a word that only describes it more
    ("Daily standup is at 9:15", "Standup moved to 9:45"): a plain word, not a name, an id,
    a tie or the user (a note without a verb, "Name: Maya", is about its label)."""
    extra = a.subject - b.keys
    if a.verb is None or not extra or not a.subject & b.subject - {"user"}:
        return False
    plain = (
        not (w.value or w.kin or is_user(w)) and (w.text.islower() or i == 0)
        for i, w in enumerate(a.words)
        if w.key in extra
    )
    return all(plain)


def _passing_turned_main(a: Claim, b: Claim) -> bool:
    """Whether all ``b`` says of ``a`` beyond its subject is what ``a`` mentions in passing
    (a detail) and ``b`` says as its point: "User sleeps badly since the move" is not
    about the move that "User moved to Porto" announces. A month or a weekday both name
    is part of a value ("am 12. Mai", "auf den 19. Mai"), not what either is about."""
    shared = [
        w
        for w in a.words
        if w.key in b.keys and w.key not in a.subject and _kind(a, w) not in ("date", "day")
    ]
    cut_a, cut_b = pieces(a.body)[0][1], pieces(b.body)[0][1]
    main_b = {w.key for w in b.words if w.start < cut_b}
    return bool(shared) and all(w.start >= cut_a and w.key in main_b for w in shared)


def _announced_value(a: Claim, b: Claim) -> str:
    """The kind of value ``b`` announces anew for what both name, wherever each says it:
    "Landlord raised the rent, it's 1,520 dollars a month" for "My rent is 1,450 dollars a
    month", "Es a las 12:30 cuando tenemos ahora la reunión semanal" for "La reunión
    semanal del equipo es a las 11:00"; "" if none.

    What both name is a word of a thing, not a person's name: "Sam's swimming moved to
    Mondays" is no news of "Sam's football on Wednesdays"."""
    if _told_apart(a, b) or not _one_thing(a, b):
        return ""
    said = [{(k, w.key) for w in c.words if (k := _kind(c, w)) in _ANNOUNCED} for c in (a, b)]
    values = [{key for _, key in found} for found in said]
    for kind in _ANNOUNCED:
        old, new = ({key for k, key in found if k == kind} for found in said)
        if old - new and new - old:
            return kind if _mostly_said(a, b, *values) else ""
    return ""


def _mostly_said(a: Claim, b: Claim, old: set[str], new: set[str]) -> bool:
    """Whether, besides the values, ``b`` says half of what ``a`` says and ``a`` a third of
    what ``b`` says (it may add why and since when): a new value in the one place of one
    short statement, not a word that two long ones share."""
    same = {*(a.keys & b.keys), *_alike_keys(b.keys, a.keys)}
    rest_a = a.keys - old
    rest_b = b.keys - new
    return 2 * len(rest_a & same) >= len(rest_a) and 3 * len(rest_b & same) >= len(rest_b)


# Kinds of value a thing has one of at a time; a version or a count may be one of several.
_ANNOUNCED = ("time", "day", "date", "amount")


def _announced_name(a: Claim, b: Claim) -> bool:
    """Whether ``b`` announces another name in the one place ``a`` has one, of a thing both
    name: "Det är faktiskt Mattias som sköter lönerna nu" for "Ansvarig för lönerna är
    Karin"; "Numera är det Anders Berg som är min chef" for "Min chef heter Karin Lund".

    Not when a thing stands for another beside it ("a cat named Miso", "now a dog named
    Rex": another member), nor when names change in two places ("Farah now leads Hermes"
    for "Kenji leads Atlas": another project), nor for names of the subject of both ("The
    London office", "The New York office")."""
    # What both subjects name is the thing whose name changes only where one says what it
    # *is* ("Min chef heter Karin Lund"): of "User's team uses Jira", the team is the owner.
    owner = frozenset() if _copular(a) or _copular(b) else a.subject & b.subject
    if not _one_thing(a, b, besides=owner):
        return False
    gone, come = _names(a, b.keys), _names(b, a.keys)
    if not (_one_place(a, gone) and _one_place(b, come)):
        return False
    if _in_subject(a, gone) and _in_subject(b, come):
        return False
    runs = [(xs, ys) for tag, xs, ys in aligned_runs(a, b) if tag == "replace"]
    if any(len(_things(a, xs)) == len(_things(b, ys)) == 1 for xs, ys in runs):
        return False
    return _mostly_said(a, b, {w.key for w in gone}, {w.key for w in come})


def _names(claim: Claim, besides: frozenset[str]) -> list[Word]:
    """The names ``claim`` says that are not ``besides`` (not a first word before a
    preposition, which only opens the sentence: "Ansvarig för lönerna")."""
    found = claim.words
    opening = len(found) > 1 and found[1].function and not found[1].user
    return [
        w
        for i, w in enumerate(found)
        if shape(w, claim.language) == "name"
        and not (w.function or is_user(w) or w.key in besides or (i == 0 and opening))
    ]


def _one_place(claim: Claim, found: list[Word]) -> bool:
    """Whether ``found`` is one run of words of ``claim`` (its function words aside)."""
    if not found:
        return False
    places = [i for i, w in enumerate(claim.words) if not w.function]
    at = [places.index(claim.words.index(w)) for w in found]
    return max(at) - min(at) == len(at) - 1


def _in_subject(claim: Claim, found: list[Word]) -> bool:
    return claim.verb is not None and all(claim.words.index(w) < claim.verb for w in found)


def _things(
    claim: Claim, run: list[Word] | tuple[Word, ...], other: Claim | None = None
) -> list[str]:
    """The keys of words of things in ``run``: not a name, a kin word or the person; a
    capital that opens the sentence is a thing's where ``other`` says it in lower case
    ("Lägenheten kostar ...", "Hyran för lägenheten ...")."""
    lower = set(_things(other, other.words)) if other is not None else set()
    return [
        w.key
        for w in run
        if not (w.function or w.kin or is_user(w))
        and (shape(w, claim.language) == "word" or (w is claim.words[0] and w.key in lower))
    ]


def _told_apart(a: Claim, b: Claim) -> bool:
    """Whether each subject has a word the other statement does not say: "The project
    budget", "The marketing budget"; "server beta", "server alpha". (Of a note without a
    verb, all of it is its subject: it tells nothing apart.)"""
    if a.verb is None or b.verb is None:
        return False
    return bool(a.subject - b.keys - {"user"}) and bool(b.subject - a.keys - {"user"})


def _one_thing(a: Claim, b: Claim, besides: frozenset[str] = frozenset()) -> bool:
    """Whether both name one thing by a word of a thing (one stem, or one compound's head:
    "Bilen", "Bilservicen"), not by a name, a kin word, the person or a verb both share
    ("went to Iceland", "went to Morocco"), nor by a word ``besides``."""
    things = [set(_things(x, x.words, y)) - besides for x, y in ((a, b), (b, a))]
    verbs = [{c.words[c.verb].key} if c.verb is not None else set() for c in (a, b)]
    return any(
        (x == y and x not in verbs[0] & verbs[1])
        or (min(len(x), len(y)) >= 6 and _shared_start(x, y) >= 6)
        for x in things[0]
        for y in things[1]
    )


def _verb_of(claim: Claim, run: list[Word]) -> bool:
    return claim.verb is not None and claim.words[claim.verb] in run


def _slot(xs: list[Word], ys: list[Word], language: str) -> bool:
    """One word in the place of one, or names in the place of names (where a capital marks
    a name: German gives one to every noun)."""
    if len(xs) == len(ys) == 1:
        return True
    names = all(w.text[:1].isupper() and not w.value for w in xs + ys)
    return names and language != "german"


def typed_pairs(a: Claim, b: Claim) -> list[tuple[list[Word], list[Word]]]:
    """Each run of typed words of ``a`` that a run of ``b`` of the same kind replaced:
    (["09:15"], ["09:45"]), (["14", "February"] ... ["21", "February"]) trimmed to the
    words that differ."""
    found = []
    for tag, xs, ys in aligned_runs(a, b):
        kinds = _typed_slot(a, b, xs, ys) if tag == "replace" else None
        if kinds is None:
            continue
        old = [w for w in xs if _kind(a, w) in kinds]
        new = [w for w in ys if _kind(b, w) in kinds]
        found.append((old, new))
    return found


def _typed_slot(a: Claim, b: Claim, xs: list[Word], ys: list[Word]) -> frozenset[str] | None:
    """The kind of value a replaced run changes (one date for another), if it changes one:
    either run may say more ("Wednesday and is owned by the platform team"), not both."""
    kinds_x = {k for w in xs if (k := _kind(a, w))}
    kinds_y = {k for w in ys if (k := _kind(b, w))}
    if not kinds_y or not kinds_y <= kinds_x:
        return None
    # Other words in the place of other words besides the value: "padel on Saturdays"
    # for "football on Wednesdays" is another game, not a new day.
    # ("moved to 2026-12-21" for "starts on 2026-12-14" says how the date changed.)
    old_rest = [w for w in xs if not _kind(a, w) and w.key not in b.keys]
    new_rest = [w for w in ys if not _kind(b, w) and w.key not in a.keys]
    return None if old_rest and new_rest and not b.cue else frozenset(kinds_y)


@cache
def tells_apart(old: str, new: str) -> bool:
    """Whether ``new`` is ``old`` with another thing in the place of one, and nothing else
    changed: a number or an id for another (invoice 4411, invoice 4412), or one word for
    one (server alpha, server beta), not a verb for a verb: a near twin, another fact."""
    language = language_of(f"{old}\n{new}")
    a, b = read(old, language), read(new, language)
    changed = [(xs, ys) for tag, xs, ys in aligned_runs(a, b) if tag != "equal"]
    if not changed or any(not xs or not ys for xs, ys in changed):
        return False
    if all(all(w.value for w in xs + ys) for xs, ys in changed):
        return True
    if len(changed) != 1:
        return False
    ((xs, ys),) = changed
    return len(xs) == len(ys) == 1 and not (_verb_of(a, xs) or _verb_of(b, ys))


def aligned_runs(a: Claim, b: Claim) -> list[tuple[str, list[Word], list[Word]]]:
    """The content words of both, aligned in order (difflib's opcodes)."""
    from difflib import SequenceMatcher

    xs = [w for w in a.words if not w.function]
    ys = [w for w in b.words if not w.function]
    same = _alike_keys(a.keys, b.keys)
    matcher = SequenceMatcher(
        None, [w.key for w in xs], [same.get(w.key, w.key) for w in ys], autojunk=False
    )
    return [(tag, xs[i1:i2], ys[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes()]


def _alike_keys(olds: frozenset[str], news: frozenset[str]) -> dict[str, str]:
    """New keys that are another stem of an old one ("allergi" for "allerg")."""
    found = {}
    for new in news - olds:
        if len(new) < 5 or any(c.isdigit() for c in new):
            continue
        for old in olds - news:
            short, long_ = sorted((old, new), key=len)
            if len(short) >= 5 and long_.startswith(short) and len(long_) - len(short) <= 2:
                found[new] = old
    return found


def _weight(found: frozenset[str]) -> int:
    """How much a set of words says: a value (a time, a date, an id) says as much as two."""
    return sum(2 if any(c.isdigit() for c in k) or _weekday(k) else 1 for k in found)


def _told(a: Claim, b: Claim) -> float:
    """How much of the older statement the newer one says (the person implied in both; a
    month said by a date in it, a plan by what became of it)."""
    mine = a.keys if "user" in b.keys else a.keys - {"user"}
    return len(mine & _said_by(a, b)) / max(1, len(mine))


def _said_by(a: Claim, b: Claim) -> set[str]:
    """The keys of ``a`` that ``b`` says, in its words or by saying more: a month by a date
    in it, a plan by what became of it, a thing by a compound naming a kind of it (a
    "Garten" by a "Schrebergarten")."""
    months = {w.key for w in a.words if refines([w], list(b.words))}
    plans = (
        {w.key for w in a.words if _status([w])} if any(_status([w]) for w in b.words) else set()
    )
    kinds = {k for k in a.keys if len(k) >= 4 and any(o.endswith(k) for o in b.keys - a.keys)}
    return set(b.keys) | months | plans | kinds


# Where a plan stands: "is planning" a trip, then "booked" it.
_STATUS = frozenset(
    """
    plan planning planned book booked booking schedule scheduled consider considering
    think thinking hope hoping want intend intending confirm confirmed arrange arranged
    """.split()  # noqa: SIM905
)


def _status(run: list[Word]) -> bool:
    return bool(run) and all(w.text.casefold() in _STATUS for w in run)


_WEEK = frozenset({"week", "vecka", "veckan", "woche", "semana"})
# How often, said loosely: a schedule ("every Thursday evening") says it exactly.
_OFTEN = frozenset(
    """
    regularly often frequently sometimes weekly regelbundet ofta ibland regelmäßig oft
    manchmal regularmente frecuentemente
    """.split()  # noqa: SIM905
)


def refines(xs: list[Word], ys: list[Word]) -> bool:
    """Whether ``ys`` names days of a month ``xs`` names without a day ("September",
    "2026-09-12"), or a day of a week it names ("next week", "next Wednesday"), or how
    often exactly ("regularly", "every Thursday"): more detail about one time, not another."""
    days = [any(_weekday(w.text.casefold()) for w in run) for run in (xs, ys)]
    if any(w.text.casefold() in _WEEK for w in xs) and days == [False, True]:
        return True
    if xs and all(w.text.casefold() in _OFTEN for w in xs) and days[1]:
        return True
    months = [w for w in xs if w.text.casefold() in lx.MONTHS]
    if not months or any(w.key.isdigit() and len(w.key) <= 2 for w in xs):
        return False
    wanted = {f"-{lx.MONTHS[w.text.casefold()]:02d}-" for w in months}
    return all(any(_ISO.fullmatch(y.key) and m in y.key for y in ys) for m in wanted)


def _anchored(a: Claim, b: Claim) -> bool:
    """Whether both say something of one thing beyond who it is about and how they relate
    to it: "learning the guitar" and "learning classical guitar" share the guitar, while
    "allergic to wasp stings" and "allergic to kiwi" share only the relation."""
    relation = {k for c in (a, b) for k in _relation_words(c)}
    if a.verb is None and b.verb is None:  # two notes: all they say is what they are about
        return bool((a.keys & b.keys) - relation)
    return bool((a.keys & b.keys) - (a.subject & b.subject) - relation)


def _relation_words(claim: Claim) -> set[str]:
    """The verb, and a word that with a preposition makes the relation ("is allergic to")."""
    if claim.verb is None:
        return set()
    found = {claim.words[claim.verb].key}
    if not _copular(claim):
        return found
    after = claim.words[claim.verb + 1 : claim.verb + 3]
    if len(after) == 2 and not after[0].function and after[1].function:
        found.add(after[0].key)  # right after the copula, before a preposition
    return found


def shape(word: Word, language: str) -> str:
    """A value, a name (a capital, where that marks one: German gives every noun one), a word."""
    if word.value:
        return "value"
    return "name" if word.text[:1].isupper() and language != "german" else "word"


_KNOWN_VALUES = frozenset({"diet", "relationship"})  # (the lexicon's diets, marital states)


def _copular(claim: Claim) -> bool:
    return claim.verb is not None and claim.words[claim.verb].text.casefold() in COPULAS


def _right_after_verb(claim: Claim, run: list[Word]) -> bool:
    """Whether ``run`` is what the subject *is*: the first content after the copula, with
    no preposition before it ("ist Teamleiter", not "war in Kanada")."""
    assert claim.verb is not None
    if not run or claim.words.index(run[0]) <= claim.verb:
        return False
    between = claim.words[claim.verb + 1 : claim.words.index(run[0])]
    return all(w.text.casefold() in _ARTICLES_AND_ADVERBS for w in between)


_ARTICLES_AND_ADVERBS = frozenset(
    """
    a an the now currently actually ein eine einer jetzt nun en ett nu numera un una
    ahora la el
    """.split()  # noqa: SIM905
)


def _alternatives(xs: list[Word], ys: list[Word]) -> bool:
    """Whether the runs name two of one kind of choice (two editors, two package managers)."""
    groups = {lx.ALTERNATIVE_GROUP.get(w.text.casefold()) for w in xs} - {None}
    return bool(groups & {lx.ALTERNATIVE_GROUP.get(w.text.casefold()) for w in ys})


_VERSION = re.compile(r"v?\d+(?:\.\d+)+")
_CURRENCY = re.compile(r"\s?(?:[€$£¥]|(?:kr|sek|eur|usd|gbp|euros?|dollars?|kronor)\b)", re.I)
_CURRENCY_BEFORE = re.compile(r"[€$£¥]\s?$")
_CLOCK = re.compile(r"\d{2}:\d{2}")
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")


def _kind(claim: Claim, word: Word) -> str:
    """What kind of value ``word`` is in ``claim``'s predicate: a date, a time, a weekday,
    a version, a number of a named thing, a count; "" for any other word, or one in the
    subject (what it names)."""
    found = claim.words
    index = found.index(word)
    if claim.verb is not None and index < claim.verb:
        return ""  # in the subject: it names what the statement is about
    text = word.text.casefold()
    if _ISO.fullmatch(word.key) or text in lx.MONTHS or _near(found, index, lx.MONTHS):
        return "date"
    # "9 Uhr", "kl 9", "a las 10"
    said = " ".join(w.text.casefold() for w in found[max(0, index - 2) : index])
    if _CLOCK.fullmatch(word.key) or _near(found, index, _CLOCK_WORDS) or said in ("a la", "a las"):
        return "time"
    if _weekday(text):
        return "day"
    if word.key.isdigit() and len(word.key) <= 2 and index and _weekday(found[index - 1].text):
        return "date"  # "el lunes 8", "Tuesday 14": the day of the month it falls on
    before = found[index - 1] if index else None
    # "Java 17", "Postgres 16": a number after the name of what it numbers, in the predicate
    # (a capital: in German a noun's, "Raum 204", which is as much the value of the place).
    named = before is not None and before.text[:1].isupper() and not before.value
    if _in_money(claim, word):
        return "amount"  # "1.350 €", "€2,340", "12 500 kr": not a version
    if _VERSION.fullmatch(word.key):
        return "version"
    if word.key.isdigit() and named:
        # "Factura 0931 de Endesa: 87,40 €": the number a note opens with names what it is
        # about (the invoice), as a subject does; "Phone: 555-0142" gives a value.
        opens = claim.verb is None and index == 1 and _an_id(word.key)
        return "" if opens and not claim.body[found[0].end : word.start].strip() else "number"
    # "5 engineers", and "pays 45 euros" (an amount right after what the subject does).
    if word.key.isdigit() and (_counts(found, index) or _amount(claim, index)):
        return "count"
    return ""


def _amount(claim: Claim, index: int) -> bool:
    after = claim.words[index + 1] if index + 1 < len(claim.words) else None
    right_after_verb = claim.verb is not None and index - 1 == claim.verb
    return right_after_verb and after is not None and not after.function and not after.value


def _counts(found: tuple[Word, ...], index: int) -> bool:
    """A number that counts what follows it ("5 engineers", "64 GB"), not one that names
    what precedes it ("port 5432", "room 204"): the latter is an id."""
    after = found[index + 1] if index + 1 < len(found) else None
    before = found[index - 1] if index else None
    return (
        after is not None
        and not after.function
        and not after.value
        and (before is None or before.function or before.key in _COUNT_VERBS)
    )


_COUNT_VERBS = frozenset({"has", "have", "har", "hat", "tien", "tiene"})
_CLOCK_WORDS = frozenset({"uhr", "kl", "klockan", "o'clock", "h", "am", "pm"})
_HOUR = re.compile(r"\d+|\d{1,2}\.\d{2}")  # "9", and "08.15" as Swedes and Germans write it


def _near(found: tuple[Word, ...], index: int, names: object) -> bool:
    """A number next to a month name ("14 February") or a clock word ("9 Uhr", "kl. 08.15")."""
    if not _HOUR.fullmatch(found[index].key):
        return False
    around = found[max(0, index - 2) : index] + found[index + 1 : index + 3]
    return any(w.text.casefold().rstrip(".") in names for w in around)  # type: ignore[operator]


@cache
def _weekday(text: str) -> bool:
    """A weekday, also as a plural or adverb ("Tuesdays", "onsdagar", "montags")."""
    return any(text.startswith(name[:5]) for name in lx.WEEKDAYS if len(name) >= 5) or (
        text in lx.WEEKDAYS
    )


__all__ = [
    "Judgement",
    "Relation",
    "aligned_runs",
    "fold",
    "judge",
    "refines",
    "shape",
    "stopped",
    "switched_to",
    "tells_apart",
    "typed_pairs",
]
