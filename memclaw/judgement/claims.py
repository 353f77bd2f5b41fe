"""What one statement claims: about whom or what (the subject), which attribute, which value.

A statement is read offline, in English, Swedish, German or Spanish:

* the **subject** is what comes before its main verb ("Sam's sister Ana", "The nightly
  backup of the orders database", "Der Nutzer"), with every way of naming the person
  memclaw serves folded to ``user``;
* a **frame** is a single-valued attribute the statement sets, with the span of its
  value: where someone lives, whom they work for, their role, manager, age, diet,
  birthday, the language they want answers in; or any "X's A is V" (a person's
  manager, a service's version, an event's date);
* its **cue** says whether it announces a change ("actually", "moved", "no longer",
  "postponed", "now"), its **temporary** flag whether it is a passing constraint
  ("can't run for a month"), and **negated** whether it denies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache

import memclaw.judgement.lexicon as lx
from memclaw.judgement.frames import Frame, find_frames
from memclaw.judgement.words import MY, SPEAKER, Word, fold, is_user, keys, words
from memclaw.text.language import language_of

I_ = re.IGNORECASE

_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
_STAMP = re.compile(
    r"^\s*(?:\(?(?:as of|per|stand|sedan|a fecha de)\s+\d{4}-\d{2}-\d{2}\)?,?"
    r"|\d{4}-\d{2}-\d{2}\s+[—–-]|\[[a-z]+\])\s*",
    I_,
)
_TAIL_STAMP = re.compile(r"\s*\(as of \d{4}-\d{2}-\d{2}\)\s*$", I_)
# "Correction:", "Actually,", "Update -": announces a change, and is not part of the fact.
CUE_LEAD = re.compile(
    r"^\s*(?:(?:correction|update|actually|in fact|to be clear|rättelse|korrektur|berichtigung|"
    r"corrección|en realidad|de hecho)\s*[,:;—–-]?\s+"
    # A Swedish or German adverb leads a verb-second sentence: taken off with its comma
    # only ("Eigentlich arbeitet der Nutzer ..." keeps its word order, and its subject).
    r"|(?:faktiskt|egentligen|eigentlich|tatsächlich)\s*[,:;—–-]\s*)",
    I_,
)
# Words that announce that something changed, beyond the correction words of the lexicon.
_CHANGE = re.compile(
    rf"\b(?:{'|'.join(lx.NOW)}|nowadays|these days|from now on|ab sofort|från och med nu|"
    r"a partir de ahora|any ?more|switched|changed|upgraded|downgraded|"
    r"relocated|has gone|went(?: up| down)?|became|got married|divorced|new|replaced|instead|again|"
    r"reassigned|rescheduled|renamed|taken over|handed over|migrated|migrerade?s?|migriert|"
    r"postponed|delayed|rebooked|ombokad|ombokat|umgebucht|"
    r"migrad[oa]|migró|"
    # An amount said to have moved: "rose to", "ökade till", "stieg auf", "subió a".
    r"rose|risen|raised|lowered|increased|decreased|dropped|doubled|ökade|ökat|minskade|"
    r"minskat|steg|sjönk|höjts|sänkts|höjdes|sänktes|stieg|sank|gestiegen|gesunken|erhöht|gesenkt|subió|"
    r"bajó|aumentó|disminuyó|subieron|bajaron|aumentaron|subido|bajado|aumentado|"
    r"bytt|bytte|ändrats|ny|nya|nytt|skjutits upp|igen|uppgraderat|uppgraderats|"
    r"uppgraderades|flyttats|flyttades|flyttad|flyttat|uppskjuten|uppskjutet|sköts upp|"
    r"gewechselt|umgestiegen|verlegt|neu|neue[rsn]?|wieder|"
    r"aufgerüstet|aktualisiert|"
    r"cambió|se ha pasado|se cambió|nuev[oa]s?|aplazad[oa]|pospuest[oa]|"
    r"otra vez|de nuevo|nuevamente|actualizad[oa]|actualizó)\b",
    I_,
)


# A value from a month on is a new one: "starting in July", "Since January", "Ab Januar",
# "från mars", "a partir de enero".
_FROM_THEN = re.compile(
    r"\b(?:starting(?:\s+in)?|from|since|as of|ab|seit|från(?:\s+och\s+med)?|sedan|desde|"
    r"a\s+partir\s+de)\s+"
    rf"(?:{'|'.join(sorted(lx.MONTHS, key=len, reverse=True))})\b",
    I_,
)


def announcing(claim: Claim) -> frozenset[str]:
    """Keys of the words of ``claim`` that announce a change ("replaced", "now", "actually")."""
    spans = [m.span() for m in (*_CHANGE.finditer(claim.body), *lx.CORRECTION.finditer(claim.body))]
    return keys(w for w in claim.words if any(s <= w.start < e for s, e in spans))


# A passing constraint leaves the lasting fact alone ("hurt my knee, can't run for a month").
_TEMPORARY = re.compile(
    r"\b(?:for (?:a|about a|the next|\w+) (?:days?|weeks?|months?|while)|this week|"
    r"until (?:further notice|the|\w+ \d+|\d+)|temporarily|for now|for the time being|"
    r"på \w+ (?:dagar|veckor|månader)|i \w+ (?:dagar|veckor|månader)|tillfälligt|"
    r"den här veckan|denna vecka|\w+ (?:tage|wochen|monate) lang|vorübergehend|"
    r"diese woche|vorerst|durante (?:un|una|\w+) (?:días?|semanas?|mes|meses)|"
    r"esta semana|temporalmente|por ahora|is skipping|skips|paused|pausiert|pausa)\b",
    I_,
)
# How long a thing is kept or holds is no passing constraint ("logs are kept for 30
# days", "the token is valid for 7 days", "sparas i 90 dagar").
_KEPT = re.compile(
    r"\b(?:kept|stored|retained|saved|archived|cached|valid|sparas|sparade|lagras|giltig|"
    r"gespeichert|aufbewahrt|gültig|guardan|guardados?|conservan|válid[oa])\s*$",
    I_,
)


def _passing(body: str) -> bool:
    return any(not _KEPT.search(body[: m.start()]) for m in _TEMPORARY.finditer(body))


_NEGATION = re.compile(
    r"\b(?:not|no|never|don't|doesn't|didn't|isn't|aren't|can't|cannot|won't|"
    r"inte|aldrig|ej|nicht|nie|kein|keine|keinen|nunca|jamás)\b",
    I_,
)


def negation(text: str) -> bool:
    """Whether ``text`` denies ("not", "no longer", "inte", "nicht", "nunca")."""
    return bool(_NEGATION.search(text))


@dataclass(frozen=True)
class Claim:
    text: str
    body: str  # the statement without list marker, date stamp or correction lead
    words: tuple[Word, ...]  # of ``body``
    verb: int | None  # index of the main verb in ``words``: the subject ends there
    subject: frozenset[str]  # content keys of the subject; the person memclaw serves is "user"
    frames: tuple[Frame, ...]  # the single-valued attributes it sets
    cue: bool  # announces a change or a correction
    temporary: bool
    negated: bool
    sentiment: int  # 1 likes, -1 dislikes, 0 neither
    language: str
    stamp: str = ""  # the "As of 2026-03-30, " it was dated with, if any

    def frame(self, attribute: str) -> Frame | None:
        return next((f for f in self.frames if f.attribute == attribute), None)

    @property
    def keys(self) -> frozenset[str]:
        """Content keys of the whole statement (the user folded as in the subject)."""
        return keys(self.words)

    @property
    def predicate(self) -> frozenset[str]:
        return keys(self.words[self.verb :] if self.verb is not None else self.words)


def without_cue(text: str) -> str:
    """``text`` without the correction word it leads with ("Correction: the cutover ...")."""
    lead = CUE_LEAD.match(text)
    if lead is None:
        return text
    rest = text[lead.end() :].strip()
    return rest[:1].upper() + rest[1:]


# An English "'s" before an article or a "now" is "is", never whose: "Phone's an iPhone 15
# these days", "Anna's now a doctor".
_IS = re.compile(
    r"(?<=\w)['’]s(?=\s+(?:a|an|the|now|still|currently|not|no longer|also|my|our)\s)", I_
)


# A cleft puts a name first to stress it: "It's Opsgenie that we use", "Det är Johan Ek
# som är min chef nu", "Es ist Bosch, die mich bezahlt", "Es Marta quien lleva el equipo".
# Read as said plainly: who or what is stressed is the one the clause is about.
_CLEFT = re.compile(
    # (after an opening, verb second: "Sedan omorganisationen är det Sara Ek som ...")
    r"^(?:(?P<lead>(?:[^\W\d]+\s+){1,3}?)(?:är det|var det|ist es|war es)|"
    r"it'?s|it is|it was|det är|det var|es ist|es war|es|fue)\s+"
    r"(?P<x>(?-i:[A-ZÅÄÖÜÉ\d])[^\s,]*(?:\s+(?-i:[A-ZÅÄÖÜÉ\d])[^\s,]*){0,3}),?\s+"
    r"(?:that|who|which|som|der|die|das|den|que|quien|quienes)\s+(?P<rest>.+)$",
    I_,
)
# A clause that opens with its own subject ("that we use for on-call"): the stressed
# name goes after its verb.
_SUBJECT_FIRST = frozenset(
    """i we you they he she jag vi du ni de han hon ich wir ihr sie er yo nosotros ellos ella
    él""".split()  # noqa: SIM905
)


# "Pork is something I never eat", "Thai food is what User likes best", "Kaffee ist etwas,
# das ich nie trinke": what is said of the thing put first, said plainly ("I never eat pork").
_PSEUDO_CLEFT = re.compile(
    r"^(?P<x>[^,;]+?)\s+(?:is|är|ist|es)(?P<not>n't|\s+not|\s+inte|\s+nicht|\s+no)?\s+"
    # (who does it named right after: "något trött", "algo tímido" are "somewhat")
    r"(?:(?:something|what|något|etwas)\b,?\s+(?:(?:that|som|das|was)\s+)?"
    r"(?=(?:i|we|he|she|they|you|jag|vi|han|hon|de|ni|ich|wir|er|sie|man|(?-i:[A-ZÅÄÖÜ]\w+))\s)"
    r"|(?:algo|lo)\s+que\s+)(?P<rest>.+)$",
    I_,
)


def _uncleft(body: str) -> str:
    pseudo = _PSEUDO_CLEFT.match(body)
    if pseudo is not None:
        denied = "not " if pseudo.group("not") else ""
        x = pseudo.group("x")
        if x.split()[0].casefold() in ARTICLES:  # "the deploy", not a name ("Kubernetes")
            x = x[:1].lower() + x[1:]
        plain = f"{denied}{pseudo.group('rest')} {x}"
        return plain[:1].upper() + plain[1:]
    cleft = _CLEFT.match(body)
    if cleft is None:
        return body
    lead, stressed, rest = cleft.group("lead") or "", cleft.group("x"), cleft.group("rest").split()
    if len(rest) > 2 and rest[0].casefold() in _SUBJECT_FIRST:
        plain = " ".join([lead, *rest[:2], stressed, *rest[2:]]).strip()
    else:
        plain = " ".join([lead, stressed, *rest]).strip()
    return plain[:1].upper() + plain[1:]


# A question and its answer state what the answer says: "Wo lebt Onkel Rudi? In Graz." is
# "lebt Onkel Rudi in Graz", "Who runs payroll? That's Hannah." is "Hannah runs payroll".
_ASKED = re.compile(
    r"^[¿\s]*(?:que\s+)?(?P<wh>where|who|what|when|which|var|vem|vad|när|vilken|vilket|wo|wer|"
    r"was|wann|welche[rsnm]?|dónde|donde|quién|quien|qué|cuándo|cuál)\s+"
    r"(?:(?:does|do|did|is|are|was|were|has|have)\s+)?(?P<q>[^?]+?)\s*\?\s*"
    r"(?:(?:that's|that is|it's|it is|det är|das ist|es ist|es)\s+)?(?P<a>[^?]+)$",
    I_,
)
_WHO = frozenset("who vem wer quién quien".split())  # noqa: SIM905
_VERB_FIRST = re.compile(
    r"^(?P<verb>(?-i:[a-zåäöüéíóú])\w+)\s+(?P<name>(?-i:[A-ZÅÄÖÜÉ])\w+(?:\s+(?-i:[A-ZÅÄÖÜÉ])\w+)*)"
)
_YES_OR_NO = re.compile(r"^(?:yes|no|yeah|nope|ja|nej|nein|sí|si)\b", I_)
# (An answer that starts with where it is: "In Graz", "En Inditex".)
_WHERE_FIRST = re.compile(r"^(?:in|at|on|i|på|hos|im|bei|en|a|de)\s", I_)


def _unasked(body: str) -> str:
    asked = _ASKED.match(body)
    if asked is None:
        return body
    answer = asked.group("a").rstrip(" .")
    if _YES_OR_NO.match(answer):
        return body  # "Was the server down? Yes, for two hours": no value to put in place
    if _WHERE_FIRST.match(answer):
        answer = answer[:1].lower() + answer[1:]
    if asked.group("wh").casefold() in _WHO:  # who it is, is whom the question is about
        return f"{answer} {asked.group('q')}"
    # The verb asked first goes after the name it asks of: "Var bor Oskar?" is "Oskar bor".
    question = _VERB_FIRST.sub(r"\g<name> \g<verb>", asked.group("q"), count=1)
    return f"{question} {answer}"


def strip(raw: str) -> tuple[str, bool]:
    """``raw`` without list marker, date stamp and correction lead; and whether it had one."""
    body = _STAMP.sub("", _MARKER.sub("", raw), count=1)
    body = _IS.sub(" is", _TAIL_STAMP.sub("", body))
    lead = CUE_LEAD.match(body)
    if lead:
        body = body[lead.end() :]
        body = body[:1].upper() + body[1:]
    return _unasked(_uncleft(" ".join(body.split()).rstrip(" ."))), lead is not None


# Where an older statement's details start: a comma, a clause, or a preposition.
_PIECES = re.compile(
    r"\s*;\s*|(?<!\d),\s*|,(?!\d{3}\b)\s*|\s+(?=(?:and|who|which|that|with|for|in|on|at|to|from|by|near|via|because|"
    r"since|until|och|som|med|hos|i|på|till|sedan|und|mit|bei|im|am|seit|y|con|en|desde|"
    r"que)\s)",
    re.IGNORECASE,
)


def pieces(body: str) -> list[tuple[int, int]]:
    """Spans of ``body`` between its commas, clauses and prepositions (see ``_PIECES``): the
    first is what the statement is about and says of it; the rest are its details."""
    spans, at = [], 0
    for cut in _PIECES.finditer(body):
        if cut.start() > at:
            spans.append((at, cut.start()))
        at = cut.end()
    if at < len(body):
        spans.append((at, len(body)))
    return spans


_AS_OF = re.compile(r"^\s*(?:[-*+]\s+)?(\(?as of \d{4}-\d{2}-\d{2}\)?,?\s*)", I_)


def _dated(raw: str) -> str:
    found = _AS_OF.match(raw)
    return found.group(1) if found else ""


@cache
def read(raw: str, language: str | None = None) -> Claim:
    """What ``raw`` (a list item, an entry, a sentence someone said) claims.

    Two statements are compared in one ``language`` (their words then fold alike);
    alone, a statement is read in the language it looks written in."""
    body, led = strip(raw)
    language = language or language_of(body)
    found, denial = _not_doing(_genitive_names(body, words(body, language), language), language)
    found = _when_first(body, found, language)
    verb = main_verb(found, language, body)
    # A time said first ("Every other Friday the team ...", "Varje måndag klockan 9 har
    # vi ...") is when, not what it is about.
    when = _of_a_time(found)
    head = found[:verb] if verb is not None else found
    subject = keys(w for i, w in enumerate(head) if i not in when)
    if verb is not None and found[verb].text.casefold() in lx.FIRST_PERSON:
        subject = frozenset({"user"})  # "Para el trabajo uso un MacBook": I do, whatever for
    elif verb == 0 and language == "english":
        subject = frozenset({"user"})  # "Prefers tea in the morning": a note about the person
    elif verb is not None and (not subject or _fronted(found, language)):
        # Verb second, its subject after it: "Eigentlich arbeitet der Nutzer bei Bosch",
        # "Für Datenanalyse bevorzugt Jonas Python", "På måndagar tränar Anna".
        subject = keys(_noun_phrase(found[verb + 1 :], language))
    cue = led or any(p.search(body) for p in (lx.CORRECTION, _CHANGE, _FROM_THEN))
    return Claim(
        text=raw,
        body=body,
        words=found,
        verb=verb,
        subject=subject,
        frames=find_frames(body, found, verb),
        cue=cue,
        temporary=_passing(body),
        negated=bool(_NEGATION.search(body[: denial[0]] + body[denial[1] :])),
        sentiment=_sentiment(body),
        stamp=_dated(raw),
        language=language,
    )


# Prepositions (and words of when) that open a German or Swedish sentence put its subject
# after the verb: "Numera kör jag en Tesla".
_FRONTING = {
    "german": frozenset(
        """
        für in im am an auf bei mit nach seit von vom zu zum zur über unter vor während wegen ab
        jetzt inzwischen mittlerweile heute gestern
        """.split()  # noqa: SIM905
    ),
    "swedish": frozenset(
        """
        på i för med efter sedan under vid till från om inför enligt
        numera nu idag igår
        """.split()  # noqa: SIM905
    ),
}


def _fronted(found: tuple[Word, ...], language: str) -> bool:
    """Whether ``found`` opens with a preposition, in a language whose verb comes second."""
    return bool(found) and found[0].text.casefold() in _FRONTING.get(language, ())


# A sentence may open with when what it says began ("Since August", "As of January I've",
# "Desde enero mi jefa", "Seit April bin ich", "Sedan omorganisationen är det"): those
# words say when, not who or what.
_SINCE = re.compile(
    r"^(?:since|as of|starting|from|after|sedan|från och med|efter|seit|ab|nach|desde|"
    r"a partir de|tras|después de)\s",
    I_,
)
# Where such an opening ends when no comma ends it: at the subject ("I", "my", "the user")
# or the verb that comes second in Swedish and German.
_SAYING_WHO = frozenset(
    "am have has bin bist habe hat har soy estoy tengo he es är ist sind".split()  # noqa: SIM905
)


def _when_first(body: str, found: tuple[Word, ...], language: str) -> tuple[Word, ...]:
    """``found`` with the words of an opening of when (see ``_SINCE``) read as grammar."""
    lead = _SINCE.match(body)
    if lead is None:
        return found
    first = next((i for i, w in enumerate(found) if w.start >= lead.end()), len(found))
    content = False
    for index in range(first, min(len(found), first + 6)):
        word, text = found[index], found[index].text.casefold()
        after_time = index > first and (names_a_time(found[index - 1]) or found[index - 1].value)
        named_after_noun = content and word.text[:1].isupper() and not found[index - 1].function
        ends = (
            "," in body[found[index - 1].end : word.start]
            or word.user
            or text in _PRONOUNS
            or text in MY
            or text in _SAYING_WHO
            or (text in lx.verbs(language) and language in ("swedish", "german"))
            or (content and text in ARTICLES)
            or (after_time and word.text[:1].isupper())
            # a name right after the phrase's noun starts the clause ("Sedan omorganisationen
            # Sara Ek ..."); German capitalises every noun, so only elsewhere
            or (named_after_noun and language != "german" and not names_a_time(word))
        )
        if ends and index > first:
            when = tuple(replace(w, function=True, kin=False) for w in found[:index])
            return when + found[index:]
        content = content or not word.function
    return found


def _genitive_names(body: str, found: list[Word], language: str) -> tuple[Word, ...]:
    """``found`` with a German genitive name keyed as the name: "Annas Bruder" is Anna's
    brother, as "der Bruder von Anna" is. (A vowel before the -s: the stemmer leaves it,
    while it takes it off "Eriks", and Swedish genitives all fold already.)"""
    if language != "german":
        return tuple(found)
    read = list(found)
    for index, word in enumerate(found[:-1]):
        text, after = word.text, found[index + 1]
        genitive = len(text) > 3 and text.endswith("s") and text[-2] in "aeiouy"
        genitive = genitive and body[word.end : word.end + 1] not in ("'", "’")  # "Jonas' Eltern"
        if genitive and text[:1].isupper() and after.text[:1].isupper() and not after.function:
            read[index] = replace(word, key=fold(text[:-1], language))
    return tuple(read)


def _not_doing(found: tuple[Word, ...], language: str) -> tuple[tuple[Word, ...], tuple[int, int]]:
    """``found`` with a denied doing read as the idea it says: "doesn't drink alcohol" as
    abstaining from it (as "avoids alcohol" does), "no tolera la lactosa" as intolerant; and
    the span of the negation that said it, which then denies nothing else."""
    for index, word in enumerate(found):
        idea = _DENIED.get(word.text.casefold())
        if idea is None:
            continue
        for place in (*range(max(0, index - 2), index), *range(index + 1, index + 3)):
            near = found[place : place + 1]
            if near and _NEGATION.fullmatch(near[0].text):
                read = list(found)
                read[index] = replace(word, key=fold(idea, language))
                read[place] = replace(near[0], function=True)
                return tuple(read), (near[0].start, near[0].end)
    return found, (0, 0)


_DENIED = {word: idea for idea, row in lx.NOT_DOING.items() for word in row.split()}


def names_a_time(word: Word) -> bool:
    text = word.text.casefold()
    return text in lx.WEEKDAYS or text in lx.MONTHS


def _of_a_time(found: tuple[Word, ...]) -> set[int]:
    """Where ``found`` names a time: a weekday or a month, "every" before one, and the
    clock ("kl. 9", "klockan 9", "um 9 Uhr", "9:30")."""
    when = set()
    for i, w in enumerate(found):
        text = w.text.casefold()
        after = found[i + 1] if i + 1 < len(found) else None
        before = found[i - 1].text.casefold() if i else ""
        if (
            names_a_time(w)
            or _how_often(found, i)
            or text in _OF_THE_CLOCK
            or (text in _EVERY and after is not None and names_a_time(after))
            or (w.value and (before in _OF_THE_CLOCK or _CLOCK_TIME.fullmatch(w.key) is not None))
        ):
            when.add(i)
    return when


def _how_often(found: tuple[Word, ...], i: int) -> bool:
    """Whether ``found[i]`` is of a "how often": "three times a week", "två gånger i
    veckan", "zweimal pro Woche", "dos veces por semana", "weekly"."""
    text = found[i].text.casefold()
    if text in _OFTEN:  # (not a noun: "Unser Daily ist um 9 Uhr")
        before = found[i - 1].text.casefold() if i else ""
        return before not in ARTICLES and before not in MY and before not in _OUR
    near = [w.text.casefold() for w in found[max(0, i - 3) : i + 4]]
    return (
        any(w in _TIMES for w in near)
        and any(w.startswith(_PERIODS) for w in near)
        and (
            text in _TIMES
            or text.startswith(_PERIODS)
            or text in _PER
            or found[i].value
            or text in lx.NUMBER_WORDS
        )
    )


_OFTEN = frozenset(
    """daily weekly monthly nightly yearly annually dagligen veckovis månatligen täglich
    wöchentlich monatlich diario diariamente semanal semanalmente mensual mensualmente
    zweimal dreimal einmal""".split()  # noqa: SIM905
)
_OUR = frozenset("our vår vårt våra unser unsere unseren nuestro nuestra".split())  # noqa: SIM905
_TIMES = frozenset("times time gånger gång mal veces vez zweimal dreimal einmal".split())  # noqa: SIM905
_PERIODS = tuple(
    "week day month year veck dag månad år woche tag monat jahr semana día dia mes año".split()  # noqa: SIM905
)
_PER = frozenset("a an per i om pro in der im por al la el".split())  # noqa: SIM905
# (Only words that say nothing else: not "am", German for "on the", nor "h".)
_OF_THE_CLOCK = frozenset("kl klockan uhr o'clock".split())  # noqa: SIM905
_EVERY = frozenset("every each varje jeden jede jeder cada".split())  # noqa: SIM905
_CLOCK_TIME = re.compile(r"\d{1,2}[:.]\d{2}")


def _sentiment(body: str) -> int:
    if lx.DISLIKE.search(body):
        return -1
    if lx.LIKE.search(body):
        return -1 if _NEGATION.search(body) else 1
    return 0


def _noun_phrase(found: tuple[Word, ...], language: str) -> list[Word]:
    """The words at the start of ``found`` up to its first preposition or verb."""
    phrase = []
    for word in found:
        text = word.text.casefold()
        article = text in ARTICLES and not (language == "spanish" and text in ("a", "en"))
        if (word.function and not article and not is_user(word)) or text in lx.verbs(language):
            break
        phrase.append(word)
        if text in _PRONOUNS:
            break  # "Numera kör jag en Tesla": the pronoun is the whole subject
    return phrase


_PRONOUNS = SPEAKER | frozenset("han hon er sie él ella vi wir we".split())  # noqa: SIM905


def main_verb(found: tuple[Word, ...], language: str = "english", body: str = "") -> int | None:
    """Where the subject ends: the first word that is a verb form of ``language`` (see
    ``lexicon.verbs``), or of any language the judge reads when it has none.

    A word right after an article is a noun ("The release train leaves"), and an English
    base form is a verb only after a plural, a pronoun or a modal ("User's parents live",
    "can run"), and not after a plural whose it is ("The kids' swim lessons", read from
    ``body``): memories speak of someone in the third person ("lives", "moved")."""
    if language == "english":
        # "I'm training for a marathon": the doing is the word after the "am".
        for index in range(1, len(found)):
            text, prior = found[index].text, found[index - 1].text.casefold()
            if prior in _BEING and text.islower() and text.endswith("ing") and text != "being":
                return index
    for known in (lx.verbs(language), lx.VERBS):
        verb = _known_verb(found, known, body)
        if verb is not None:
            return verb
    if language == "german":
        # German writes every noun with a capital: the first plain word after the subject
        # is its verb ("Der Nutzer fliegt am 3. Juli nach Wien").
        for index in range(1, len(found)):
            word = found[index]
            if word.text.islower() and not word.function and not found[index - 1].function:
                return index
    opens = len(found) > 2 and found[0].text.casefold() in ARTICLES
    if language in ("spanish", "swedish") and opens:
        # An article and a noun open the sentence: the plain word after them is its verb
        # ("El usuario paga 45 euros al mes").
        word = found[2]
        if word.text.islower() and not word.function and not found[1].function:
            return 2
    # An English verb the list lacks: the first plain word ending in -s or -ed after a
    # content word ("Build agent b7 listens on port 9090").
    for index in range(1, len(found)):
        word, before = found[index], found[index - 1]
        text = word.text
        plain = text.islower() and not word.function and not before.function
        if plain and text.endswith(("s", "ed")) and not text.endswith("ss"):
            return index
    return None


_BEING = frozenset(
    "am is are was were i'm we're they're you're he's she's it's".split()  # noqa: SIM905
)


def _known_verb(found: tuple[Word, ...], known: frozenset[str], body: str) -> int | None:
    if found and found[0].text.casefold() in known - lx.BASE_FORMS and len(found) > 1:
        return 0  # a question's or an inversion's verb first ("Arbeitet der Nutzer ...")
    for index in range(1, len(found)):
        word, before = found[index], found[index - 1]
        text, prior = word.text.casefold(), before.text.casefold()
        if prior in ARTICLES or word.text[:1].isupper():
            continue
        owner = body[before.end : before.end + 1] in ("'", "’")
        if text in known and (text not in lx.BASE_FORMS or (_plural_or_modal(prior) and not owner)):
            return index
    return None


# What opens a noun phrase: an article, a demonstrative, an owner.
ARTICLES = frozenset(
    """
    the a an this that these those my his her its their our your der die das den dem des
    ein eine einen einem einer el la los las un una unos unas en ett
    """.split()  # noqa: SIM905
)


_PRONOUNS_AND_MODALS = frozenset(
    # ("I'd like", "we'll move": a pronoun and its modal in one)
    "i we they you can could will would must i'd we'd i'll we'll i’d we’d i’ll we’ll".split()  # noqa: SIM905
)


def _plural_or_modal(word: str) -> bool:
    # (Not "to": "cycles to work" has its verb before the infinitive.)
    return (
        word in _PRONOUNS_AND_MODALS
        or (word in lx.VERBS and word not in lx.BASE_FORMS)
        or (word.endswith("s") and not word.endswith(("ss", "'s", "’s")))
    )
