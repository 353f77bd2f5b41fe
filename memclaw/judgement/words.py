"""The words of a statement as the judge compares them: each folded, each with its place.

Forms of one word meet ("lives"/"lived", "Kinder"/"Kind", "went"/"go"), number words
become digits ("four" is "4"), and anything holding a digit is a value kept whole
(2026-12-12, 09:15, b7, 4.2.1, UTC+2), so that the one thing telling two near twins
apart is never folded away. Function words are kept, marked: they carry no content
but still hold a place in the sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

import memclaw.judgement.lexicon as lx
from memclaw.text.irregular import base_form
from memclaw.text.language import language_of
from memclaw.text.spelling import american
from memclaw.text.stem import ENGLISH, stem

# A word: letters and digits, joined by inner marks so 2026-12-12, 09:15, db-07, 4.2.1,
# UTC+2, lena@northwind.io and don't each stay one ("she/her" is two).
# A number written in groups of three (9 800, 10 400, 1,200) is one value.
# A number in groups of three ("1,450", "9 800") or with a decimal comma ("5,4 kilo",
# "29,99 Euro") is one word; so is a word with dots, dashes or an @ inside.
_WORD = re.compile(
    r"\d{1,3}(?:[ \u00a0\u202f,]\d{3})+(?!\w)|\d+,\d{1,2}(?!\w)|\w(?:[\w@.:+'’-]*\w)?"
)
_POSSESSIVE = re.compile(r"['’]s?$")

# Words that carry grammar in the four languages the offline engine reads: articles,
# pronouns, prepositions, auxiliaries and conjunctions. Content is what is left. Each
# language has its own ("son" is a verb in Spanish, a son in English; "die" an article
# in German); the others read English words too, as their speakers often write them.
_ENGLISH_FUNCTION_WORDS = frozenset(
    """
    a an the this that these those his her hers its their our my your he she it they we i
    you him them me us of to in on at by for from with into onto about over under between as than
    and or but nor so if then also too very just really still any some each every all
    is are was were be been being am has have had do does did will would can could should
    shall may might must it's he's she's that's there there's here who whom whose which what
    when where how why not no now currently actually also already recently new
    longer anymore fully completely totally entirely only just even other another
    own owns owned again
    """.split()  # noqa: SIM905
)
_FUNCTION_WORDS_OF = {
    "english": _ENGLISH_FUNCTION_WORDS,
    "swedish": frozenset(
        """
        och att det den de ett en som är var vara varit på för med av till om men i från hos mellan
        han hon hans hennes sin sitt sina vi ni dem oss mig dig sig har hade ska skulle kan
        kunde blir blev nu också mycket bara eller vid under efter före sedan numera faktiskt
        ny nya nytt kl längre helt äger igen egentligen vår vårt våra
        """.split()  # noqa: SIM905
    ),
    "german": frozenset(
        """
        und oder aber der die das dem den des ein eine einer eines einem einen ist sind war
        waren sein seine ihr ihre im am vom zum zur zu mit von auf für bei aus nach an in zwischen
        es er sie wir hat haben habe hast habt wird werden wurde auch noch schon jetzt eigentlich
        inzwischen neu neue neuen neuer neues um mehr gerade ganz völlig mittlerweile ihrem
        ihren ihrer seinem seinen seiner meinem meinen meiner unser unsere komplett vollständig
        besitzt wieder
        """.split()  # noqa: SIM905
    ),
    "spanish": frozenset(
        """
        el la los las lo un una unos unas y o pero de del al a en con por para que es son entre
        era fue ser está están estaba ha han había he has hemos se su sus mi mis tu nos le les
        muy ya también ahora actualmente realmente nuevo nueva nuevos nuevas completamente
        nuestro nuestra nuestros nuestras
        totalmente tiene tienen posee nuevamente realidad
        """.split()  # noqa: SIM905
    ),
}
FUNCTION_WORDS = frozenset().union(*_FUNCTION_WORDS_OF.values())


def function_words(language: str) -> frozenset[str]:
    """The function words of ``language`` (see above); every list's for another one."""
    if language == ENGLISH:
        return _ENGLISH_FUNCTION_WORDS
    own = _FUNCTION_WORDS_OF.get(language)
    return own | _ENGLISH_FUNCTION_WORDS if own is not None else FUNCTION_WORDS


@dataclass(frozen=True)
class Word:
    """One word of a statement: as written, folded, and where it is."""

    text: str
    key: str  # folded: stem, digits for number words, the whole value when it holds a digit
    start: int
    end: int
    function: bool  # grammar, not content
    kin: bool = False  # names a person by their tie to someone: "sister", "Eltern"
    user: bool = False  # names the person memclaw serves: "I", "mein", "Användaren"

    @property
    def value(self) -> bool:
        return any(c.isdigit() for c in self.key)


@cache
def fold(word: str, language: str = ENGLISH) -> str:
    """The key two forms of one word share (see the module)."""
    lower = _POSSESSIVE.sub("", word.casefold().replace("’", "'"))
    if any(c.isdigit() for c in lower):
        return _value(lower)
    if lower in lx.NUMBER_WORDS:
        return str(lx.NUMBER_WORDS[lower])
    key = _stem(lower, language)
    return _ideas(language).get(key, key)


def _stem(lower: str, language: str) -> str:
    if language == ENGLISH:
        lower = base_form(american(lower))
    key = stem(lower, language)
    if language == "swedish" and key == lower[:-1] and lower.endswith("s"):
        # Only a genitive "s" was taken: the word is then stemmed as itself ("Mormors"
        # is "Mormor"'s, "systers" "syster"'s), not left longer than its own key.
        return stem(key, language)
    return key


@cache
def _ideas(language: str) -> dict[str, str]:
    """The key of each word of ``lexicon.SAME_IDEA`` in ``language``, to its idea's key."""
    return {
        _stem(word, language): _stem(idea, language)
        for idea, row in lx.SAME_IDEA.items()
        for word in row.split()
    }


def _value(text: str) -> str:
    clock = re.fullmatch(r"(\d{1,2}):(\d{2})", text)
    if clock:  # 9:15 is 09:15 (9.30 stays: as often a version as a time)
        return f"{int(clock.group(1)):02d}:{clock.group(2)}"
    return "".join(text.split()).rstrip(".")


def words(text: str, language: str | None = None) -> list[Word]:
    """Every word of ``text`` in order (``language`` is guessed when not given)."""
    language = language or language_of(text)
    grammar = function_words(language)
    found = []
    for index, match in enumerate(_parts(_WORD.finditer(text))):
        raw = match.group()
        # A capital inside the sentence is a name ("Will", "May"), not the function word.
        name = index > 0 and raw[:1].isupper()
        function = raw.casefold() in grammar and not name
        key = fold(raw, language)
        kin = not function and (raw.casefold() in lx.KIN or key in _kin_keys(language))
        if kin:
            key = _gendered(key, raw.casefold(), language)
        user = raw.casefold().replace("’", "'") in _user_words(language)
        found.append(Word(raw, key, match.start(), match.end(), function, kin, user))
    return found


def _parts(found: Iterable[re.Match[str]]) -> Iterator[re.Match[str]]:
    """Each word, and a hyphenated one without a digit as its parts: "colour-blind" says
    what "colour blindness" does (db-07 and 2026-12-12 stay whole: values)."""
    for match in found:
        if "-" in match.group() and not any(c.isdigit() for c in match.group()):
            yield from _PART.finditer(match.string, match.start(), match.end())
        else:
            yield match


_PART = re.compile(r"\w(?:[\w@.:+'’]*\w)?")


# The person memclaw serves, as each language names them: speaking ("I"), owning ("my"),
# and otherwise ("me", "the user"). Swedish "i" is "in" and an English "min" a minute,
# so a word is the person only in its own language; "user" is in every language, as
# notes are often kept in English.
_PERSON_OF = {
    ENGLISH: ("i", "my mine", "me i'm i've i'd i'll we"),
    "swedish": ("jag", "min mitt mina", "mig användaren användarens vi"),
    "german": (
        "ich",
        "mein meine meinen meinem meiner",
        "mich mir nutzer nutzers nutzerin nutzerinnen wir",
    ),
    "spanish": ("yo", "mi mis", "usuario usuaria nosotros"),
}
SPEAKER = frozenset(speaking for speaking, _, _ in _PERSON_OF.values())  # "I"
MY = frozenset(" ".join(owning for _, owning, _ in _PERSON_OF.values()).split())
_USER_OF = {
    language: frozenset(" ".join(row).split()) | {"user", "user's", "users"}
    for language, row in _PERSON_OF.items()
}
_USER = frozenset().union(*_USER_OF.values())


def _user_words(language: str) -> frozenset[str]:
    return _USER_OF.get(language, _USER)


def is_user(word: Word) -> bool:
    return word.user


def _gendered(key: str, text: str, language: str) -> str:
    """A kin word's key with the gender its ending says, where the stem folds it away:
    "la abuela" is not "el abuelo", "meine Partnerin" not "mein Partner". (Not a word
    folded to its idea, which says its gender itself: "papá" is the father.)"""
    if text in lx.KIN_NAMES:
        return key
    female = (language == "spanish" and text.rstrip("s").endswith(("a", "á"))) or (
        language == "german" and text.endswith(("in", "innen")) and fold(text[:-2], language) == key
    )
    return f"{key}:f" if female else key


@cache
def _kin_keys(language: str) -> frozenset[str]:
    """The keys of the words naming a person by their tie to someone, in ``language``:
    every form of them meets ("Systern", "Föräldrarna", "Eltern", "sisters")."""
    return frozenset(fold(kin, language) for kin in lx.KIN)


def keys(found: Iterable[Word]) -> frozenset[str]:
    """Content keys, with every name of the person memclaw serves as ``user``."""
    return frozenset("user" if is_user(w) else w.key for w in found if not w.function or is_user(w))
