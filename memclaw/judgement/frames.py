"""Single-valued attributes a statement can set, and where its value is.

A person lives in one place, works for one employer, has one role, one manager,
one age, one diet, one birthday, wants answers in one language; a thing has one
date, one version in production, one owner. Such a frame is read by the words that
introduce it (``_PATTERNS``), by the lexicon (diet, relationship status), or from
"X's A is V" in any of its forms ("Användarens chef heter V", "El jefe de Sofía es V",
"Martins Vorgesetzte ist V"): the attribute A of X is single-valued.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import memclaw.judgement.lexicon as lx
from memclaw.judgement.words import MY, SPEAKER, is_user, keys

USER = frozenset({"user"})

if TYPE_CHECKING:
    from memclaw.judgement.words import Word

I_ = re.IGNORECASE

_NUMBER_WORDS = "|".join(sorted(lx.NUMBER_WORDS, key=len, reverse=True))

# Where a value ends: a comma, a clause, or a word that adds a detail ("with his cat").
_END = (
    r"(?=\s+(?:with|and|since|together|now|these days|nowadays|as|for|after|before|but|because|"
    r"who|which|last|next|förra|nästa|letzten|letzte|nächsten|nächste|"
    r"at|in|on|by|from|near|"
    r"och|med|sedan|tillsammans|nu|numera|i|på|hos|vid|"
    r"und|mit|seit|jetzt|zusammen|im|am|bei|"
    # (a comma inside a number is part of it: "$1,450", "5,4 kilo")
    r"y|con|desde|ahora|junto|en)\b|\s*(?:,(?!\d)|[;:?()]|!(?!\w))|\.(?=\s|$)|\s+—|$)"
)
# (a "!" inside a name is part of it: "Fritz!Box")
_V = r"(?P<v>(?:[^,;:!?()]|!(?=\w))+?)"
# A month or a day is when, never where one works ("Lisbon is lovely in May").
_TIME_NAME = rf"(?:{'|'.join((*lx.MONTHS, *lx.WEEKDAYS))})"
# A place goes on over commas while they name the wider places: "Majorna, Gothenburg, Sweden".
_CAPITAL = r"(?-i:[A-ZÅÄÖÜÉ])"  # a capital even where the pattern ignores case
_PLACE_V = (
    rf"(?P<v>(?:[^,;:!?()]|!(?=\w))+?(?:,\s*{_CAPITAL}[^,;:!?()\s]*(?:\s{_CAPITAL}[^,;:!?()\s]*)*)*"
    # and over the named place a home is in: "en trea på Södermalm", "a flat in Kreuzberg"
    rf"(?:\s+(?:på|i|in|on|at|im|am|en)\s+(?!{_TIME_NAME}\b){_CAPITAL}[^,;:!?()\s]*)*)"
)
# A value that names a place or a thing starts with a capital or a digit.
_NAMED = r"(?P<v>(?-i:[A-ZÅÄÖÜÉ])(?:[^,;:!?()]|!(?=\w))*?)"
# A word that says a value is the one now, between the verb and the value ("weighs
# actually 5,4 kilo", "ist mittlerweile 13").
_NOW = rf"(?:(?:{'|'.join((*lx.NOW, 'actually', 'faktiskt', 'eigentlich'))})\s+)?"


def _frame(pattern: str, value: str = _V, end: str = _END) -> re.Pattern[str]:
    return re.compile(pattern.replace("V", value) + end, I_)


# The languages an answer is asked in, as each of the four languages names them.
_LANGUAGE_NAME = (
    r"english|englisch|engelska|inglés|ingles|swedish|schwedisch|svenska|sueco|german|deutsch|"
    r"tyska|alemán|aleman|spanish|spanisch|spanska|español|espanol|french|französisch|franska|"
    r"francés|italian|italienisch|italienska|italiano|portuguese|portugiesisch|portugisiska|"
    r"portugués|dutch|niederländisch|nederländska|holandés|finnish|finnisch|finska|finés|"
    r"norwegian|norwegisch|norska|noruego|danish|dänisch|danska|danés|polish|polnisch|polska|"
    r"polaco|japanese|japanisch|japanska|japonés|chinese|chinesisch|kinesiska|chino"
)
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "place",
        _frame(
            r"\b(?:lives|lived|live|living|is based|are based|resides|has moved|have moved|"
            r"moved|relocated|home is|bor|bodde|har flyttat|flyttade|flyttat|flyttar|lever|"
            r"wohnt|wohnen|wohnte|wohne|lebt|leben|lebe|zog|zogen|"
            r"vive|viven|vivía|vivo|se mudó|se ha mudado|se mudaron|se trasladó|me mudé|"
            r"me he mudado|me mudo|me trasladé|reside|resido)"
            # with whom between ("wohnt mit ihren zwei Kindern in Köln")
            r"(?:\s+(?:with|med|mit|con)(?:\s+[^\W\d]+){1,4}?)?"
            r"\s+(?:[^\W\d]+\s+)?(?:in|to|i|till|nach|en|a|at|på)\s+V",
            _PLACE_V,
        ),
    ),
    (
        "place",
        _frame(
            r"\b(?:ist|sind|bin)\s+(?:nach|ins|in\s+die|in\s+den)\s+V(?=\s+(?:umgezogen|gezogen))",
            end="",
        ),
    ),
    (
        "place",
        _frame(
            r"\b(?:is located|is|are|ligger|liegt|befindet sich|está)\s+(?:at|på|an der|en)\s+V",
            _NAMED,
        ),
    ),
    # "is in" may be anything ("is in a meeting"); "lies in" is a place.
    ("place", _frame(r"\b(?:is located|ligger|liegt|befindet sich)\s+(?:in|i)\s+V", _NAMED)),
    (
        "employer",
        _frame(
            r"\b(?:(?:works|worked|work|working|"
            r"arbetar|arbetade|jobbar|jobbade|är anställd|arbeitet|arbeiten|arbeitete|arbeite|"
            r"trabaja|trabajan|trabajaba|trabajo|es emplead[oa]|soy emplead[oa])"
            # "arbeitet seit Oktober bei Zalando": since when, between the verb and where
            r"(?P<since>\s+(?:since|sedan|seit|desde)\s+[\w.]+)?"
            r"(?:\s+(?:now|currently|actually|still|numera|nu|faktiskt|fortfarande|jetzt|"
            r"inzwischen|mittlerweile|eigentlich|noch|ahora|actualmente|todavía))?"
            # as what, between the verb and where ("works as a nurse at Karolinska")
            r"(?:\s+(?:as|som|als|como)(?:\s+[^\W\d]+){1,4}?)?"
            r"\s+(?:at|for|på|hos|för|bei|für|en|para|de)|(?:is |are )?employed\s+(?:by|at))\s+V"
        ),
    ),
    (
        # A new job begun is the employer from then on; only a name is one ("started at
        # the gym" is not).
        "employer",
        _frame(
            r"\b(?:(?:started|starts|began|begun)(?:\s+(?:working|work))?\s+(?:at|for)|"
            r"(?:börjat|började|börjar)(?:\s+(?:jobba|arbeta))?\s+(?:på|hos)|"
            r"(?:empezó|empezado|comenzó|comenzado)\s+a\s+trabajar\s+en|"
            r"se\s+(?:ha\s+)?incorporad?o?\s+a)\s+V",
            _NAMED,
        ),
    ),
    (
        "employer",
        _frame(r"\b(?:ist|sind)\s+bei\s+V(?=\s+(?:angestellt|beschäftigt|tätig))", end=""),
    ),
    (
        "role",
        _frame(
            r"\b(?:works as|worked as|work as|arbetar som|jobbar som|arbeitet als|arbeite als|"
            r"trabaja como|trabajo como|"
            r"job title is|title is|role is|promoted to)\s+V"
        ),
    ),
    # One's role where one works: "I'm a senior data analyst at the Health Ministry",
    # "Sedan augusti är jag rektor på Rosendalsskolan", "Soy directora de arte en la misma
    # agencia" (a role said with where it is held is no passing state).
    (
        "role",
        _frame(
            r"\b(?:am|'m|is|are|är|bin|ist|sind|soy|es|eres|somos)\s+"
            r"(?:(?:jag|ich|yo|now|nu|jetzt|ahora|numera|inzwischen)\s+)*"
            r"(?:(?:an?|en|ett|ein|eine|un|una)\s+)?V",
            # (a noun: not "on call", "in Stockholm"; and a job, not a member or a guest)
            r"(?P<v>(?!(?:an?|en|ett|ein|eine|un|una|[\w-]+ed|jag|ich|yo|now|nu|jetzt|ahora|"
            r"numera|inzwischen|anställd|angestellt|employed|empleado|empleada|tätig|"
            r"beschäftigt|"
            r"on|in|at|off|out|away|back|here|there|home|not|also|still|very|"
            r"på|hemma|inte|också|nicht|auch|noch|zu|en|no|también|muy|member|medlem|"
            r"mitglied|miembro|socio|socia|customer|kund|kunde|kundin|cliente|patient|"
            r"paciente|guest|gäst|gast|invitad[oa])\b)"
            r"[^\W\d][\w-]*(?:\s+(?:de\s+)?[^\W\d][\w-]*){0,3}?)",
            end=r"(?=\s+(?:at|på|hos|vid|bei|für|en)\s+(?:(?:the|la|el|der|die|dem|den)\s+)?"
            rf"(?:same|misma|mismo|samma|selben|gleichen|(?!{_TIME_NAME}\b)(?-i:[A-ZÅÄÖÜÉ])))",
        ),
    ),
    # A role become: "has become a team lead", "har blivit avdelningschef", "ist
    # Abteilungsleiter geworden", "se ha convertido en jefa de equipo".
    (
        "role",
        _frame(
            r"\b(?:has become|became|have become|har blivit|blev|se ha convertido en|"
            r"se convirtió en)\s+(?:(?:an?|un|una|en|ett)\s+)?V",
            # (a noun of a role by its ending, never "sick" or "a parent")
            r"(?P<v>(?:[^\W\d]+\s+){0,2}?[^\W\d]*(?:chef|ledare|are|ör|ist|lead|manager|"
            r"director|directora|jefe|jefa|head|officer|engineer|ingenjör))",
            end=r"\b",
        ),
    ),
    (
        "role",
        _frame(
            r"\b(?:ist|bin)\s+(?:jetzt\s+|nun\s+)?V(?=\s+geworden)", r"(?P<v>(?-i:[A-ZÄÖÜ])\w+)", ""
        ),
    ),
    # "I report to Tom now", "Den jag rapporterar till är Johan Ek", "Ich berichte an Jana".
    (
        "manager",
        _frame(
            r"\b(?:reports?|reporting|rapporterar|berichtet|berichte|reporta|reporto)\s+"
            # (verb second, its subject after it: "Numera rapporterar jag till Johan")
            r"(?:(?:jag|ich|yo)\s+)?(?:to|till|an|a)\s+(?:(?:is|är|ist|es)\s+)?V"
        ),
    ),
    (
        "answer language",
        _frame(
            r"\b(?:answers?|replies|reply|responses|svar|antworten|respuestas)\s+"
            r"(?:to be in|in|på|auf|en)\s+V"
        ),
    ),
    ("answer language", _frame(r"\b(?:preferred\s+)?answer language is\s+V")),
    # Said as the order itself: "Antworte dem Nutzer ab sofort auf Englisch".
    (
        "answer language",
        _frame(
            r"^(?:(?:from now on|ab sofort|från och med nu|a partir de ahora|please|bitte)"
            r"[,\s]+)*(?:answer|reply|respond|antworte|svara|responde|contesta)\b"
            r"(?:\s+[^\W\d]+){0,4}?\s+(?:in|auf|på|en)\s+V",
            rf"(?P<v>{_LANGUAGE_NAME})",
            end=r"\b",
        ),
    ),
    ("birthday", _frame(r"\b(?:was born|born|föddes|wurde geboren|nació)\s+(?:on|den|am|el)\s+V")),
    ("birthday", _frame(r"\bhat\s+(?:am\s+)?V(?=\s+Geburtstag)", end="")),
    # "Mormor fyller år den 17 juni", "Mi madre cumple años el 2 de noviembre".
    (
        "birthday",
        _frame(
            r"\b(?:fyller år|cumple años|cumplo años|has (?:her |his |their |my )?birthday)\s+"
            r"(?:on\s+|den\s+|el\s+)?V"
        ),
    ),
    # The car one drives: "drives a grey Skoda Octavia", "kör en Volvo V70".
    (
        "car",
        _frame(
            r"\b(?:drives|drive|driving|kör|körde|fährt|fahre|conduce|conduzco|maneja|manejo)\s+"
            r"(?:an?|en|ett|einen|ein|un|una)\s+V",
            rf"(?P<v>(?:[^\W\d]+\s+){{0,2}}?{_CAPITAL}(?:[^,;:!?()]|!(?=\w))*?)",
        ),
    ),
    ("birthplace", _frame(r"\b(?:was born|born|föddes|wurde geboren|nació)\s+(?:in|i|en)\s+V")),
    ("seat", _frame(r"\b(?:sits|sitter|sitzt|se sienta)\s+(?:in|at|i|på|en)\s+V")),
    # Where a piece of work stands: one state at a time ("in progress", then "done").
    (
        "state",
        _frame(
            r"\b(?:is|are|was|är|ist|sind|está|están)\s+"
            r"(?:now\s+|nu\s+|jetzt\s+|ahora\s+|finally\s+|äntligen\s+|endlich\s+|back\s+)?V",
            r"(?P<v>in progress|in review|under review|in testing|in qa|approved|rejected|"
            r"in (?:active )?development|under development|in bearbeitung|in entwicklung|"
            r"under arbete|i utveckling|en desarrollo|"
            r"i granskning|in prüfung|en revisión|"
            r"done|finished|completed|closed|merged|resolved|open|blocked|"
            r"on hold|cancell?ed|shipped|live|klar|klart|avslutad|avslutat|stängd|stängt|"
            r"pausad|pausat|erledigt|fertig|abgeschlossen|in arbeit|offen|blockiert|"
            r"terminad[oa]|hech[oa]|cerrad[oa]|en curso|abiert[oa]|bloquead[oa])",
            end=r"\b",
        ),
    ),
    # "Projektet Falken har status grön", "The project has status red", "hat den Status Gelb".
    (
        "state",
        _frame(
            r"\b(?:has|har|hat|tiene)\s+(?:the\s+|den\s+|el\s+|a\s+)?(?:status|state|estado)\s+V",
            r"(?P<v>[^\W\d][\w-]*)",
            end=r"\b",
        ),
    ),
    # One weight at a time, however it is reached ("weighs 82 kg", "is down to 77 kg").
    (
        "weight",
        _frame(
            # (after a plain "is" or "was" too: the unit says it is a weight)
            r"\b(?:weighs|weighed|weigh|väger|vägde|wiegt|wog|pesa|pesaba|is|was|är|var|ist|war|"
            r"(?:is|är|ist|está)\s+(?:now\s+|nu\s+|jetzt\s+)?(?:down|up|nere|uppe)\s+(?:to|på|bei)"
            r"|(?:ha\s+)?(?:bajado|subido)\s+a|peso"
            # where the scale stands: "I'm at 77 kg", "ligger på 84 kg", "estoy en 66 kg"
            r"|(?:am|is|are|'m|ligger|är|bin|ist|liege|liegt|estoy|está)\s+"
            r"(?:now\s+|nu\s+|jetzt\s+|ahora\s+|ya\s+)?(?:at|på|bei|auf|en)"
            # said without a verb: "Down to 77 kg", "Nere på 77 kg"
            r"|^(?:down|up|nere|uppe|runter)\s+(?:to|på|auf))\s+" + _NOW + "V",
            r"(?P<v>\d+(?:[.,]\d+)?\s*(?:kg|kilos?|lbs?|pounds|stone))",
            end=r"\b",
        ),
    ),
    (
        "deadline",
        _frame(
            r"\b(?:is due(?:\s+on|\s+by)?|deadline is|(?:has to|must|needs to) be paid\s+"
            r"(?:by|before|on)|förfaller(?:\s+till betalning)?(?:\s+den)?|vence(?:\s+el)?|"
            r"ist\s+(?:am|bis)(?=\s+\S+\s+fällig))\s+V",
            end=r"(?:(?=\s+fällig\b)|" + _END + ")",
        ),
    ),
    # One time zone at a time, named ("Central European Time", "the Pacific timezone", "on
    # Central time") or abbreviated after its word ("Zeitzone MEZ", "tidszon CET").
    (
        "timezone",
        re.compile(
            r"\b(?P<v>(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+)){0,2})\s+(?:time\s*zone|timezone|"
            r"(?-i:Time)|(?-i:Standard Time))\b"
            # "on Pacific time", "on Central time": a person is on one zone's time.
            # (where the sentence or clause ends: "on Monday time sheets" names no zone)
            r"|\bon\s+(?P<v3>(?-i:[A-Z][a-z]+))\s+time"
            r"(?=\s*(?:[.,;:!?)]|$)|\s+(?:now|these|since|while|when|and|but|as|until)\b)"
            r"|\b(?:time\s*zone|timezone|tidszon(?:en)?|zeitzone|zona horaria)\s+"
            r"(?:is\s+|är\s+|ist\s+|es\s+)?(?P<v2>(?-i:[A-Z]{2,5})(?:[+-]\d{1,2})?)\b",
            I_,
        ),
    ),
    (
        "age",
        re.compile(
            r"\b(?:is|är|ist|turned|turns|fyller|wird)\s+"
            + _NOW
            + r"(?P<v>\d{1,3})(?:\s*(?:years?(?: old)?|"
            r"år(?: gammal)?|jahre(?: alt)?)\b|(?=[.,;]|$|\s+(?:and|och|und|y)\b))"
            # A birthday says the new age, whenever it was ("turned 42 last week").
            r"|\b(?:turned|fyllde|wurde|cumplió|cumplí)\s+(?:just\s+|ya\s+)?(?P<v4>\d{1,3}\b(?![%:.]\d)|"
            # (a number said in words where the sentence or the clause ends: "turned eight")
            rf"(?:{_NUMBER_WORDS})(?=\s*(?:[.,;!]|$)|\s+(?:last|this|yesterday|today|and|in|on|"
            r"i går|igår|gestern|ayer|och|und|y)\b))"
            # (whenever it was: "ist letzte Woche 68 geworden", "har nu i mars fyllt 40")
            r"|\b(?:ist|är|har)\s+(?:[^\W\d]+\s+){0,3}?(?P<v5>\d{1,3})\s+"
            r"(?:jahre\s+)?(?:geworden|blivit|fyllt)\b"
            r"|\b(?:tiene|tengo|tienes|tienen)\s+(?P<v2>\w+)\s+años|\b(?P<v3>\w+)\s+years old",
            I_,
        ),
    ),
)

COPULAS = frozenset(
    """
    is are was were ist sind war waren är var es son era fue heißt heißen heter hette
    llama
    """.split()  # noqa: SIM905
)
# Words for a part of an attribute that is the attribute ("phone number", "home address").
_PART_OF = frozenset("number nummer numret numero número".split())  # noqa: SIM905
_OF_PART = re.compile(r"\b(?:of|de|del|da|do|för|till|für|von|vom|des)\b", I_)
# Words that name an attribute of their owner ("X's manager", "Annas Lieblingsfarbe").
_ATTRIBUTES = {
    "manager": "manager boss chef chefen chefin vorgesetzte vorgesetzter jefe jefa supervisor lead "
    "responsable",
    "role": "role title job roll rolle titel cargo puesto position",
    "birthday": "birthday födelsedag geburtstag cumpleaños",
    "timezone": "timezone tidszon zeitzone zona horaria",  # "zona horaria": both words
    "phone": "phone telefon teléfono handy mobile mobil móvil",
    "place": "home address adress adresse dirección hem hogar wohnort wohnsitz hemort "
    "bostadsort residence house casa",
    "office": "office kontor büro oficina",
    # One's doctor, vet, dentist: one of each at a time.
    "doctor": "doctor gp physician läkare husläkare husläkaren arzt ärztin hausarzt hausärztin "
    "médico médica",
    "vet": "vet veterinarian veterinär veterinären tierarzt tierärztin veterinario veterinaria",
    "dentist": "dentist tandläkare tandläkaren zahnarzt zahnärztin dentista",
    "employer": "employer arbetsgivare arbetsgivaren arbeitgeber arbeitgeberin empleador "
    "empleadora empresa",
    "computer": "computer laptop dator bärbar rechner notebook ordenador portátil computadora",
    "age": "age ålder alter edad",
    "name": "name namn namnet nombre",
    "state": "status state estado",
    "deadline": "deadline förfallodag förfallodatum fälligkeitsdatum vencimiento",
    "car": "car bil auto wagen coche carro",
    "weight": "weight vikt gewicht peso",
}
ATTRIBUTE_OF = {word: name for name, line in _ATTRIBUTES.items() for word in line.split()}
_ONES_TEAM = frozenset("team teamet equipo".split())  # noqa: SIM905
_MARITAL = {
    "single": r"single|unmarried|singel|ogift|ledig|soltero|soltera|alleinstehend",
    "married": r"married|gift|verheiratet|casad[oa]|got married|se casó|heiratete",
    "engaged": r"engaged|förlovad|verlobt|comprometid[oa]",
    "divorced": r"divorced|skild|geschieden|divorciad[oa]",
    "widowed": r"widowed|änka|änkling|verwitwet|viud[oa]",
    "partnered": r"in a relationship|dating|has a (?:boyfriend|girlfriend|partner)|sambo|"
    r"i ett förhållande|in einer beziehung|en una relación|tiene (?:novio|novia|pareja)",
}
_MARITAL_WORD = {name: re.compile(rf"\b(?:{words})\b", I_) for name, words in _MARITAL.items()}


# What one eats says a diet too: "eats meat" is none of the meatless ones.
_DIETS = {**lx.DIET, "eats meat": lx.EATS_MEAT}


@dataclass(frozen=True)
class Frame:
    """A single-valued attribute and its value's span in the statement's body."""

    attribute: str
    start: int
    end: int
    value: str  # the value as written, or its canonical name (a diet, a status)
    owner: frozenset[str]  # whose attribute: the subject's keys but the attribute's words
    said: tuple[int, int] = (0, 0)  # the span of the words that set it ("is employed by Volvo")
    label: str = ""  # the attribute as written, where its name is folded ("favourite editor")

    @property
    def named(self) -> str:
        """The attribute as a person reads it."""
        return self.label or self.attribute

    def span(self) -> tuple[int, int]:
        return self.start, self.end


def find_frames(body: str, found: tuple[Word, ...], verb: int | None) -> tuple[Frame, ...]:
    """The single-valued attributes ``body`` sets (see the module), at most one each."""
    subject_end = found[verb].start if verb is not None else 0

    # "Frau Weber, Mutter von zwei Kindern, arbeitet ...": an aside after a name says who
    # she is; whose attribute it is, is still the name's.
    asides = [m.span() for m in _APPOSITION.finditer(body, 0, subject_end or len(body))]

    def before(at: int) -> frozenset[str]:
        return keys(
            w
            for w in found
            if w.end <= min(at, subject_end or at) and not any(s <= w.start < e for s, e in asides)
        )

    frames: dict[str, Frame] = {}
    for attribute, pattern in _PATTERNS:
        match = pattern.search(body)
        if match and attribute not in frames:
            group = next(g for g in ("v", "v2", "v3", "v4", "v5") if match.groupdict().get(g))
            start, end = match.start(group), match.end(group)
            if attribute == "place" and _WHEN.search(body[start : end + 3]):
                continue  # "moved to 2026-12-19" is a date, not a place
            if attribute == "state" and before(match.start()) & USER:
                continue  # a person who "is done with the course" is no ticket
            # "Användarens hem ligger i Malmö": the home is the place, its owner the user;
            # "My name is Anna and I live in Gothenburg": the speaker's, said right before.
            owner = before(match.start()) - naming(found, attribute)
            if _speaker_before(found, match.start()):
                owner = USER
            # Since when is a detail of its own, not a word that sets the attribute.
            said = (match.end("since"), match.end()) if match.groupdict().get("since") else None
            frames[attribute] = Frame(
                attribute, start, end, match.group(group), owner, said or match.span()
            )
    for attribute, named in (("diet", _DIETS), ("relationship", _MARITAL_WORD)):
        for value, pattern in named.items():
            match = pattern.search(body)
            if match is not None and attribute not in frames:
                start = match.start()
                frames[attribute] = Frame(
                    attribute, start, match.end(), value, before(start), match.span()
                )
    owned_by = (
        _possessive(body, found, verb),
        _name_of(body, found, verb),
        _clause_owned(body, found, verb),
        _labelled(body, found),
        _mine_named(body, found, verb),
        _used_as(body, found, verb),
        _amount(body, found, verb),
    )
    for owned in owned_by:
        if owned is not None and owned.attribute not in frames:
            frames[owned.attribute] = owned
    return tuple(_label_owned(body, found, f) for f in frames.values())


# An aside set off by commas right after a name ("Frau Weber, Mutter von zwei Kindern,").
_APPOSITION = re.compile(r"(?<=[A-Za-zÅÄÖÜåäöüé]),\s[^,]{1,60}?,(?=\s)")


def _label_owned(body: str, found: tuple[Word, ...], frame: Frame) -> Frame:
    """A value under a label belongs to whoever the label names as owner ("User's
    relationship status: married", "Maya's diet: vegan"), or, named by no one, to the user;
    the label's other words name the attribute, not its owner."""
    label = _LABEL.match(body)
    if label is None or frame.start < label.start("v"):
        return frame
    head = [w for w in found if w.end <= label.end("label")]
    owner = next((i for i, w in enumerate(head) if _owns(w, i, tuple(head))), None)
    owned = keys(head[: owner + 1]) if owner is not None else USER
    return replace(frame, owner=owned)


def _speaker_before(found: tuple[Word, ...], at: int) -> bool:
    """Whether the word right before ``at`` is the speaker's "I" ("... and I live in")."""
    prior = [w for w in found if w.end <= at]
    return bool(prior) and prior[-1].user and prior[-1].text.casefold() in SPEAKER


def naming(found: tuple[Word, ...], attribute: str) -> frozenset[str]:
    """The keys of the words in ``found`` that name ``attribute`` ("hem", "Wohnort")."""
    return frozenset(w.key for w in found if ATTRIBUTE_OF.get(w.text.casefold()) == attribute)


# A label that names a favourite or a main one names one attribute ("Home city:",
# "Lieblingsbuch:", "Favoritfärg:"), unless its head may be plural in one of the four
# languages ("Favourite books:", "Lieblingsbücher:"): the plural of many a Swedish or
# German noun is the noun itself ("husdjur", "Lehrer"), so no label is read as one by
# its ending alone.
_ONE_OF = re.compile(r"^(?:lieblings|favorit|favourite|favorite|preferred|main|home|huvud)", I_)
_MAY_BE_PLURAL = re.compile(r"(?:s|e|en|n|er|ar|or|na)$")


def _singular(label: list[str]) -> bool:
    return bool(_ONE_OF.match(label[0])) and not _MAY_BE_PLURAL.search(label[-1].casefold())


# Labels of entries, not attributes: each heads one of many.
_ENTRY_KINDS = frozenset(
    """
    decision idea note todo task reminder question update action fix bug issue risk goal
    lesson tip warning rule fact event meeting plan step comment source link example
    beslut idé anteckning uppgift påminnelse fråga entscheidung idee notiz aufgabe
    erinnerung frage decisión idea nota tarea recordatorio pregunta
    """.split()  # noqa: SIM905
)
# A note's label and its value: "Timezone: CET", "Tidszon: CET", "Skip-level manager: Ravi".
_LABEL = re.compile(r"^\s*(?P<label>[^\W\d][\w'’ -]{0,40}?)\s*:\s+(?P<v>\S.*?)\s*$")


def _labelled(body: str, found: tuple[Word, ...]) -> Frame | None:
    """ "A: V", where A names one attribute ("Tidszon:", "Home city:", "Lieblingsbuch:")
    and V is short; another label ("Allergies:", "Haustiere:", "Decision:") may head
    many values. A note that names no one is the person's own: its owner is the user."""
    match = _LABEL.match(body)
    if match is None or len(match.group("v").split()) > 6:
        return None
    label = [w for w in found if w.end <= match.end("label")]
    # Whose it is, said first, is the owner, not part of the attribute ("Mammas
    # födelsedag: 14 maj" is the birthday "Mamma fyller år den 17 maj" gives).
    owner = USER
    if len(label) > 1 and _owns(label[0], 0, tuple(label)):
        owner, label = keys(label[:1]), label[1:]
    if not label:
        return None
    head = label[-1].text.casefold()
    name = ATTRIBUTE_OF.get(head)
    text = [w.text for w in label]
    if name is None and (len(label) > 3 or head in _ENTRY_KINDS or not _singular(text)):
        return None
    return _attribute_frame(body, label, match.start("v"), match.end("v"), owner, (0, match.end()))


def _attribute_frame(
    body: str,
    nouns: list[Word],
    start: int,
    stop: int,
    owner: frozenset[str],
    said: tuple[int, int],
) -> Frame:
    """The frame "the A of ``owner`` is V", A named by ``nouns``: one name for it however
    it is said ("Timezone: CET", "User's timezone is CET", "Favourite film is Alien")."""
    named = next((i for i, w in enumerate(nouns) if w.text.casefold() in ATTRIBUTE_OF), None)
    last = nouns[-1].text.casefold() if nouns else ""
    if named is not None and last not in ATTRIBUTE_OF and last not in _PART_OF:
        # The last noun says what it is: "User's home Wi-Fi router" is a router, not the
        # home (it had replaced where the person lives); after "de", "of", the first does
        # ("Mi ordenador de trabajo").
        between = body[nouns[named].end : nouns[-1].start]
        named = named if _OF_PART.search(between) else None
    label = ""
    if named is None:
        attribute = " ".join(w.key for w in nouns) or "attribute"
        label = " ".join(w.text.casefold() for w in nouns)
    else:
        # A "skip-level manager" is not the manager: the words before its name count.
        name = ATTRIBUTE_OF[nouns[named].text.casefold()]
        named = max(i for i, w in enumerate(nouns) if ATTRIBUTE_OF.get(w.text.casefold()) == name)
        # (but a "team lead" is one's manager: the lead of one's own team)
        before = (
            w.key
            for w in nouns[:named]
            if ATTRIBUTE_OF.get(w.text.casefold()) != name
            and not (name == "manager" and w.key in _ONES_TEAM)
            and not w.function  # "Neuer Hausarzt" is the doctor, now another
        )
        attribute = " ".join([*before, name])
    # "La boda de Paula es en Cádiz" and "... es el 12 de septiembre": its place, its date.
    kind = "" if attribute in _ATTRIBUTES else _value_kind(body[start:stop])
    return Frame(f"{attribute} {kind}".strip(), start, stop, body[start:stop], owner, said, label)


def _possessive(body: str, found: tuple[Word, ...], verb: int | None) -> Frame | None:
    """ "X's A is V": A of X is single-valued; the value is what follows the copula."""
    if verb is None or found[verb].text.casefold() not in COPULAS or verb + 1 >= len(found):
        return None
    head = found[:verb]
    owners = [i for i, word in enumerate(head) if _owns(word, i, head)]
    # The first word that is not a "now", an article or an opening of when ("Desde enero").
    mine = next(
        (
            i
            for i, w in enumerate(head)
            if w.text.casefold() not in _BEFORE_VALUE and (w.user or not w.function)
        ),
        0,
    )
    if not owners and head and head[mine].text.casefold() in MY:
        # "Mi jefe es Ricardo Peña", "Ahora mi jefe es Andrés Ruiz": the speaker's own.
        nouns = [w for w in head[mine + 1 :] if not w.function]
        return _owned(body, found, verb, nouns, USER) if nouns else None
    if not owners:
        # "Favourite film is Blade Runner", "Phone is an iPhone 15 these days": a favourite
        # or main one, or an attribute alone, named by no one, is the person's own (as
        # "Timezone: CET" is).
        nouns = list(head)
        alone = len(nouns) == 1 and nouns[0].text.casefold() in ATTRIBUTE_OF
        if (
            nouns
            and not any(w.function for w in nouns)
            and (alone or _singular([w.text for w in nouns]))
        ):
            return _owned(body, found, verb, nouns, USER)
        return None
    # The attribute is the owned noun: before "de"/"of"/"des", after a genitive name.
    marker = owners[0]
    owned = head[:marker] if head[marker].function else head[marker + 1 :]
    nouns = [w for w in owned if not w.function]
    return _owned(body, found, verb, nouns, keys([w for w in head if w not in nouns]))


# "uses a Samsung Galaxy S21 as (my) phone", "använder en Dell som dator", "Uso un
# portátil Dell XPS 13": the thing in use as one of a kind a person uses one of.
_A = r"(?:(?:an?|en|ett|ein|eine|einen|un|una)\s+)?"
_USED = re.compile(
    r"\b(?:uses|use|använder|nutzt|benutzt|usa|uso)\s+"
    + _A
    + r"(?:(?!(?:an?|en|ett|ein\w*|un|una)\s)(?P<a>(?-i:[^\W\dA-ZÅÄÖÜÉ])\w*)\s+)?"
    r"(?P<v>(?-i:[A-Z]|i(?=[A-Z]))[\w-]*(?:\s+(?:(?-i:[A-Z])[\w-]*|\d+))*)"
    r"(?:\s+(?:as|som|als|como)\s+(?:(?:my|min|mitt|mein\w*|mi|his|her|sin|sitt)\s+)?"
    r"(?P<b>[^\W\d]+))?",
    I_,
)


def _used_as(body: str, found: tuple[Word, ...], verb: int | None) -> Frame | None:
    """ "X uses V as A", "X uses an A V": V is the value of the attribute A names."""
    match = _USED.search(body)
    if match is None:
        return None
    verb = verb if verb is not None and found[verb].start <= match.start() else 0
    kind = match.group("b") or match.group("a") or ""
    attribute = ATTRIBUTE_OF.get(kind.casefold())
    if attribute is None:
        return None
    owner = keys(w for w in found[:verb] if w.text.casefold() not in SPEAKER) or USER
    # Its span runs to the kind ("... som mobil"): a line the new value replaces it in
    # does not keep "as a phone" beside the new phone.
    return Frame(attribute, match.start("v"), match.end(), match.group("v"), owner, match.span())


# An amount: money, a dose, a share ("$1,450", "8 900 kronor", "94 Euro", "20 mg", "62k").
_AMOUNT = (
    r"(?P<v>(?:[$€£]\s?)?\d[\d,.]*(?:\s\d{3})*(?:\s*(?:k|kr|kronor|sek|euros?|eur|€|\$|dollars?|"
    r"usd|pounds?|£|mg|%|percent|procent|prozent|por ciento)\b)?)"
)
_AMOUNT_RE = re.compile(_AMOUNT)
_AMOUNT_SAID = re.compile(rf"\s*(?:(?:de|på|bei|at)\s+)?{_AMOUNT}")
_RAISED = (
    r"raised|increased|lowered|reduced|cut|bumped|upped|höjde|sänkte|höjt|sänkt|erhöhte|"
    r"senkte|subieron|subió|bajaron|bajó|aumentaron|aumentó|redujeron|redujo"
)
_WAS_RAISED = (
    r"(?:(?:was|were|has been|have been|got|har|wurde|ist|fue)\s+)?(?:raised|increased|"
    r"lowered|reduced|cut|went up|went down|rose|fell|höjdes|sänktes|höjts|sänkts|gick upp|"
    r"gick ner|steg|sjönk|stieg|sank|subió|bajó|aumentó)"
)
_THE_MY = (
    r"(?:(?:the|my|our|den|det|min|mitt|vår|vårt|die|der|das|mein\w*|unser\w*|el|la|los|las|mi|"
    r"mis|nuestr\w*)\s+)?"
)
# "The landlord raised the rent to $1,600", "Hyran höjdes till 9 350 kr", "Nos subieron el
# alquiler a 920": the amount of the thing named is the new one.
_CHANGED_TO = re.compile(
    # (the thing may be named with what of it: "bumped my lisinopril dose up to 40 mg")
    rf"\b(?:{_RAISED})\s+{_THE_MY}(?P<n>[^\W\d]+)(?:\s+[^\W\d]+)?(?:\s+(?:up|down|upp|ned|ner))?"
    rf"\s+(?:to|till|auf|a)\s+{_AMOUNT}"
    rf"|^{_THE_MY}(?P<n2>[^\W\d]+)\s+{_WAS_RAISED}\s+(?:to|till|auf|a)\s+"
    + _AMOUNT.replace("?P<v>", "?P<v2>")
    # German puts the verb last: "Ramipril auf 10 mg erhöht", "Die Miete wurde auf 900 € erhöht".
    + rf"|^{_THE_MY}(?P<n3>[^\W\d]+)\s+(?:(?:wurde|ist)\s+)?auf\s+"
    + _AMOUNT.replace("?P<v>", "?P<v3>")
    + r"\s+(?:erhöht|gesenkt|angehoben|reduziert|gestiegen|gesunken)\b",
    I_,
)
# An amount of a thing, or a named thing's: "20 mg of lisinopril", "Ramipril 5 mg".
_AMOUNT_OF = re.compile(
    rf"{_AMOUNT}\s+(?:of|av|von|de)\s+(?P<n>[^\W\d]+)"
    rf"|\b(?P<n2>(?-i:[A-ZÅÄÖÜÉ])[\w-]+)\s+" + _AMOUNT.replace("?P<v>", "?P<v2>"),
    I_,
)


_UNIT = re.compile(r"\D\s*$|[$€£]")  # a bare number may count things ("The team is 12")


def _amount_frame(
    match: re.Match[str], found: tuple[Word, ...], said: tuple[int, int]
) -> Frame | None:
    """The amount a match of ``_CHANGED_TO`` or ``_AMOUNT_OF`` gives the thing it names."""
    group = next(g for g in ("n", "n2", "n3") if match.groupdict().get(g))
    value = next(g for g in ("v", "v2", "v3") if match.groupdict().get(g))
    noun = next((w for w in found if w.start == match.start(group)), None)
    if noun is None or noun.function:
        return None
    return Frame(noun.key, match.start(value), match.end(value), match.group(value), USER,
                 said, noun.text.casefold())  # fmt: skip


def _amount(body: str, found: tuple[Word, ...], verb: int | None) -> Frame | None:
    """An amount said of one thing, which has one at a time: "The rent is $1,450 a month",
    "Hyran för lägenheten är 8 900 kronor", and the new one a change gives it ("raised the
    rent to $1,600"). The thing is the first noun; whose, the person's own."""
    changed = _CHANGED_TO.search(body)
    if changed is not None:
        return _amount_frame(changed, found, changed.span())
    said = next((m for m in _AMOUNT_OF.finditer(body) if _UNIT.search(m["v"] or m["v2"])), None)
    if said is not None:
        return _amount_frame(said, found, (said.start(), said.end()))
    if verb is None or found[verb].text.casefold() not in COPULAS:
        return None
    before = found[:verb]
    head = [w for w in before if not w.function]
    if not head or len(head) > 3 or any(_owns(w, i, before) for i, w in enumerate(before)):
        return None  # someone's amount is theirs (see _possessive)
    if any(w.text[:1].isupper() and w is not found[0] for w in head):
        return None  # a name's too
    after = _AMOUNT_SAID.match(body, found[verb].end)
    if after is None or not _UNIT.search(after.group("v")):
        return None
    return Frame(head[0].key, after.start("v"), after.end("v"), after.group("v"), USER,
                 (found[verb].start, after.end()), head[0].text.casefold())  # fmt: skip


def _mine_named(body: str, found: tuple[Word, ...], verb: int | None) -> Frame | None:
    """ "Marta Gil es mi responsable directa", "Marta ist meine Chefin", "Hannah is my
    wife": a name, then the speaker's attribute or tie it is (one a person has one of):
    that attribute's value, that one's name."""
    if verb is None or found[verb].text.casefold() not in COPULAS or verb + 2 >= len(found):
        return None
    name, rest = found[:verb], found[verb + 1 :]
    if not name or not all(w.text[:1].isupper() and not w.function for w in name):
        return None
    # Mine, or a named one's: "Johan är Annas chef", "Tom is Priya's manager".
    mine = rest[0].text.casefold() in MY
    if not mine and not (_owns(rest[0], verb + 1, found) and rest[0].text[:1].isupper()):
        return None
    nouns = [w for w in rest[1:] if not w.function]
    start, stop = name[0].start, name[-1].end
    whose = USER if mine else keys(rest[:1])
    if nouns and nouns[0].text.casefold() in lx.ONE_KIN:
        # "Hannah is my wife": the name of the speaker's wife, as "My wife's name is Hannah".
        owner = whose | keys(nouns[:1])
        return Frame("name", start, stop, body[start:stop], owner, (0, len(body)))
    if not nouns or nouns[0].text.casefold() not in ATTRIBUTE_OF:
        return None
    return _attribute_frame(body, nouns[:1], start, stop, whose, (0, len(body)))


# "User refinanced and the mortgage rate is now 3.2%": a later clause's "the A is V" (or
# "their A is V") sets an attribute of the sentence's own subject.
_AND_THE = re.compile(
    r"\b(?:and|och|und|y)\s+(?:the|their|his|her|its|den|det|hans|hennes|dess|sin|sitt|"
    r"der|die|das|sein|seine|ihr|ihre|el|la|su)\s",
    I_,
)


def _clause_owned(body: str, found: tuple[Word, ...], verb: int | None) -> Frame | None:
    clause = _AND_THE.search(body)
    if clause is None:
        return None
    head = [w for w in found if w.end <= clause.start()]
    # The sentence's subject ends at its verb; a verb the lexicon lacks ("refinanced") is
    # the first plain word after a content word.
    plain = (
        i
        for i in range(1, len(head))
        if head[i].text.islower() and not head[i].function and not head[i - 1].function
    )
    said = verb if verb is not None and verb < len(head) else next(plain, None)
    after = [i for i, w in enumerate(found) if w.start >= clause.end()]
    copula = next((i for i in after if found[i].text.casefold() in COPULAS), None)
    if not said or copula is None or copula == after[0] or copula + 1 >= len(found):
        return None
    nouns = [found[i] for i in after if i < copula and not found[i].function]
    return _owned(body, found, copula, nouns, keys(head[:said]))


_PARTICIPLE = re.compile(r"[a-z]+ed")
_AFTER_PARTICIPLE = re.compile(r"\s+(?:at|to|for|on|in|by|until)\s+")


def _value_end(body: str, start: int) -> int:
    end = re.search(_END, body[start:])
    return start + (end.start() if end else len(body) - start)


def _owned(
    body: str, found: tuple[Word, ...], copula: int, nouns: list[Word], owner: frozenset[str]
) -> Frame | None:
    """The frame "the A of ``owner`` is V", A named by ``nouns`` before the ``copula``."""
    named = any(w.text.casefold() in ATTRIBUTE_OF for w in nouns)
    if not named and _person(nouns):
        return None  # "User's sister Clara is a nurse": a person has many attributes
    naming = _naming(found, copula)
    a_person = any(ATTRIBUTE_OF.get(w.text.casefold()) in _A_PERSON for w in nouns)
    if naming is not None and not a_person:
        # "User's dog is called Rufus", "Der Hund des Nutzers heißt Rufus": the name of
        # the thing the nouns name, as "The name of User's dog is Rufus" says it.
        stop = _value_end(body, found[naming].start)
        said = (found[copula].start, stop)
        return Frame("name", found[naming].start, stop, body[found[naming].start : stop],
                     owner | keys(nouns), said)  # fmt: skip
    # "är numera en Fairphone 5", "es ahora un MacBook Air": the value after them.
    first = copula + 1
    while first + 1 < len(found) and found[first].text.casefold() in _BEFORE_VALUE:
        first += 1
    start = found[first].start
    if start and body[start - 1] in "$€£":
        start -= 1  # the currency is the amount's
    stop = _value_end(body, start)
    amount = _AMOUNT_RE.match(body, start)
    if amount is not None and amount.end() < stop and re.search(r"[^\d\s,.]", amount.group("v")):
        stop = amount.end()  # "$1,450 per month": the amount is the value, "per month" its unit
    # A participle is not the value yet: "is fixed at 3.9%", "is planned for 2027-02-06".
    then = _AFTER_PARTICIPLE.match(body, stop)
    if then is not None and _PARTICIPLE.fullmatch(body[start:stop]):
        stop = _value_end(body, then.end())
    return _attribute_frame(body, nouns, start, stop, owner, (found[copula].start, stop))


# Attributes whose value is a person: "my manager is called Karin" names the manager, as
# "my manager is Karin" and "Karin is my manager" do.
_A_PERSON = frozenset({"manager"})
_BEFORE_VALUE = frozenset((*lx.NOW, *"a an en ett ein eine un una".split()))  # noqa: SIM905
_NAMING_VERBS = frozenset({"heißt", "heißen", "heter", "hette", "llama", "llaman"})


def _naming(found: tuple[Word, ...], copula: int) -> int | None:
    """Where the name starts when the copula names ("is called", "heißt", "se llama")."""
    after = copula + 1
    if found[copula].text.casefold() in _NAMING_VERBS:
        return after if after < len(found) else None
    if found[after].text.casefold() in ("called", "named") and after + 1 < len(found):
        return after + 1
    return None


def _name_of(body: str, found: tuple[Word, ...], verb: int | None) -> Frame | None:
    """ "Rufus is the name of User's dog": the name before the copula, whose after "of"."""
    if verb is None or verb == 0 or found[verb].text.casefold() not in COPULAS:
        return None
    rest = [w for w in found[verb + 1 :] if w.text.casefold() not in ("the", "der", "el")]
    if len(rest) < 3 or rest[0].text.casefold() not in ("name", "namn", "namnet", "nombre"):
        return None
    if rest[1].text.casefold() not in ("of", "på", "von", "des", "de", "del"):
        return None
    head = found[:verb]
    owner = keys([w for w in rest[2:] if not w.function]) | keys(
        [w for w in rest[2:] if is_user(w)]
    )
    return Frame("name", head[0].start, head[-1].end, body[head[0].start : head[-1].end], owner,
                 (found[verb].start, rest[-1].end))  # fmt: skip


_PLACE = re.compile(r"^(?:in|at|en|i|på|im|in der|an der)\s+[A-ZÅÄÖÜÉ]")
_WHEN = re.compile(
    rf"\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}:\d{{2}}|\b(?:{'|'.join(lx.MONTHS)}|"
    rf"{'|'.join(lx.WEEKDAYS)})\b",
    I_,
)


def _value_kind(value: str) -> str:
    if _WHEN.search(value):
        return "when"
    return "where" if _PLACE.match(value) else ""


def _person(nouns: list[Word]) -> bool:
    """Whether the owned nouns name a person: kin ("sister", "Sohn"), or a name after a
    lower-case noun ("sister Clara"; German capitalises every noun)."""
    if any(w.kin for w in nouns):
        return True
    return bool(nouns) and nouns[0].text.islower() and any(w.text[:1].isupper() for w in nouns)


def _owns(word: Word, index: int, head: tuple[Word, ...]) -> bool:
    """Whether ``word`` marks an owner: "Kenji's", "Annas", "Användarens", "de Sofía"."""
    text = word.text
    if text.endswith(("'s", "’s")) or text.casefold() in ("användarens", "nutzers"):
        return True
    # A genitive name before a noun (Swedish and German): "Annas Lieblingsfarbe".
    nxt = head[index + 1] if index + 1 < len(head) else None
    if text[:1].isupper() and text.endswith("s") and nxt is not None and not nxt.function:
        return True
    # "El jefe de Sofía", "La hermana del usuario": not "la cena de empresa".
    named = nxt is not None and (nxt.text[:1].isupper() or is_user(nxt))
    return text.casefold() in ("of", "de", "del", "des") and index > 0 and named
