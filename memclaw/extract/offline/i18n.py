"""Swedish, German and Spanish rules of the offline extractor.

Facts stay in the user's language: "Jag föredrar uv" becomes "Användaren
föredrar uv", never an English translation. Only simple, common phrasings
are recognised. A non-English sentence that no rule recognises is skipped:
without understanding the language the extractor cannot tell a durable
first-person fact from small talk, and a wrong memory costs more than a
missed one (the model path handles these).
"""

from __future__ import annotations

import re

from memclaw.extract.offline.rules import NAME, Fact
from memclaw.extract.offline.text import dated, finish

I_ = re.IGNORECASE

# (pattern, category, template, time-bound); templates use the named groups.
_Rule = tuple[re.Pattern[str], str, str, bool]


def _r(pattern: str, category: str, template: str, timed: bool = False) -> _Rule:
    return (re.compile(pattern, I_), category, template, timed)


_SV: list[_Rule] = [
    _r(rf"\bjag heter (?P<x>{NAME})", "identity", "Användaren heter {x}"),
    _r(
        r"\bjag (?:jobbar|arbetar) (?P<p>på|som|hos) (?P<x>.+)$",
        "identity",
        "Användaren arbetar {p} {x}",
    ),
    _r(
        r"\bjag bor i (?P<x>[^.,!?\n]+?)(?=\s+och\b|[.,!?\n]|$)", "identity", "Användaren bor i {x}"
    ),
    # A move keeps its day word ("till Umeå igår"), which the engine turns into a date.
    _r(
        r"\bjag (?:har )?flytta(?:de|t) till (?P<x>[^.,!?\n]+?)(?=\s+och\b|[.,!?\n]|$)",
        "identity",
        "Användaren flyttade till {x}",
    ),
    _r(
        r"^(?P<v>använd|kör|gör|skriv|skicka|radera) (?P<a>aldrig|alltid) (?P<x>.+)$",
        "rule",
        "Användarens regel: {v} {a} {x}",
    ),
    _r(r"^(?P<a>aldrig|alltid) (?P<x>.+)$", "rule", "Användarens regel: {a} {x}"),
    # Any imperative with "alltid"/"aldrig" ("Svara alltid på svenska"), not "Jag ... alltid".
    _r(
        r"^(?:snälla\s+)?(?!(?:jag|vi|du|han|hon|det|den|de|man|ni)\b)(?P<v>[a-zåäö]+) "
        r"(?P<a>aldrig|alltid) (?P<x>.+)$",
        "rule",
        "Användarens regel: {v} {a} {x}",
    ),
    _r(
        r"^(?:från och med nu|framöver|hädanefter|från och med i dag),? (?P<x>.+)$",
        "rule",
        "Användarens regel: {x}",
    ),
    _r(
        r"\b(?P<s>vi|jag) har (?P<v>bestämt|beslutat|valt) (?P<x>.+)$",
        "decision",
        "{S} har {v} {x}",
        True,
    ),
    _r(
        r"\b(?P<s>vi|jag) (?P<v>byter|bytte|går över) (?P<x>från .+)$",
        "decision",
        "{S} {v} {x}",
        True,
    ),
    _r(
        r"\b(?:till slut |till sist )?(?P<s>vi|jag) (?:har )?(?P<v>valde|valt|gick på|"
        r"landade i|bytte till|gick över till|fastnade för) (?P<x>.+)$",
        "decision",
        "{S} {v} {x}",
        True,
    ),
    _r(
        r"\bjag (?P<v>föredrar|gillar inte|gillar|älskar|hatar|tycker om|använder alltid) "
        r"(?P<x>.+)$",
        "preference",
        "Användaren {v} {x}",
    ),
    _r(
        r"\bjag (?P<v>dricker|äter|använder|kör|röker) (?:aldrig|inte) (?P<x>.+)$",
        "preference",
        "Användaren {v} inte {x}",
    ),
    _r(r"\b(?P<s>vi|jag) använder (?P<x>.+)$", "technical", "{S} använder {x}"),
    _r(r"\bvår stack är (?P<x>.+)$", "technical", "Teamets stack: {x}"),
    _r(rf"\b(?P<n>{NAME}) är (?P<w>min|vår) (?P<x>.+)$", "relationship", "{n} är {W} {x}"),
    _r(
        rf"\b(?P<w>min|mitt|vår|vårt) (?P<x>[a-zåäö-]+) (?:heter|är) (?P<n>{NAME})",
        "relationship",
        "{n} är {W} {x}",
    ),
    _r(
        r"\b(?P<s>vi|jag) (?:jobbar med|bygger|arbetar med) (?P<x>.+)$",
        "project",
        "{S} arbetar med {x}",
        True,
    ),
]
_DE: list[_Rule] = [
    _r(rf"\bich hei(?:ß|ss)e (?P<x>{NAME})", "identity", "Der Nutzer heißt {x}"),
    _r(
        r"\b(?:ich|und) arbeite (?P<p>bei|als) (?P<x>[^.,!?\n]+?)(?=\s+und\b|[.,!?\n]|$)",
        "identity",
        "Der Nutzer arbeitet {p} {x}",
    ),
    _r(
        r"\bich bin (?:ein |eine )?(?P<x>(?-i:[A-ZÄÖÜ][a-zäöüß]+(?:er|in|ent|ist|eur|or|ant)))\b",
        "identity",
        "Der Nutzer ist {x}",
    ),
    _r(
        r"\b(?:ich|und) wohne (?P<seit>(?:seit [^\s.,!?]+ )?)in "
        r"(?P<x>[^.,!?\n]+?)(?=\s+und\b|[.,!?\n]|$)",
        "identity",
        "Der Nutzer wohnt {seit} in {x}",
    ),
    _r(
        r"\bich bin (?P<t>gestern|vorgestern|heute) nach (?P<x>[^.,!?\n]+?) (?:um)?gezogen",
        "identity",
        "Der Nutzer ist {t} nach {x} gezogen",
    ),
    _r(
        r"\bich bin nach (?P<x>[^.,!?\n]+?) (?:um)?gezogen",
        "identity",
        "Der Nutzer ist nach {x} gezogen",
    ),
    _r(
        r"^(?P<v>benutze|verwende|nutze|mach|mache|lösche|schreibe) (?P<a>nie|niemals|immer) "
        r"(?P<x>.+)$",
        "rule",
        "Regel des Nutzers: {v} {a} {x}",
    ),
    _r(
        r"^(?:bitte\s+)?(?:ab sofort|ab jetzt|von nun an|ab heute|künftig|in zukunft),?\s+"
        r"(?:bitte\s+)?(?P<x>.+)$",
        "rule",
        "Regel des Nutzers: {x}",
    ),
    _r(
        r"^(?:bitte\s+)(?P<a>immer|nie|niemals|keine?)\s+(?P<x>.+)$",
        "rule",
        "Regel des Nutzers: {a} {x}",
    ),
    _r(
        r"\b(?P<s>wir|ich) (?:sind|bin|haben|habe) (?:jetzt |endlich )?(?:auf|zu) (?P<x>.+?) "
        r"(?P<v>umgestiegen|gewechselt|migriert)\b",
        "decision",
        "{S} ist zu {x} {v}",
        True,
    ),
    _r(
        r"\b(?P<s>wir|ich) (?:haben|habe) (?:uns )?(?P<v>entschieden|beschlossen),? (?P<x>.+)$",
        "decision",
        "{S} {h} {v} {x}",
        True,
    ),
    _r(
        r"\bich (?P<v>bevorzuge|mag keine?|mag|liebe|hasse|benutze immer|verwende immer) "
        r"(?P<x>.+)$",
        "preference",
        "Der Nutzer {V} {x}",
    ),
    _r(
        r"\bich (?P<v>trinke|esse|nutze|benutze|verwende|rauche) (?P<k>keinen|keine|kein|nie|"
        r"niemals|nicht) (?P<x>.+)$",
        "preference",
        "Der Nutzer {V} {k} {x}",
    ),
    _r(
        r"\b(?P<s>wir|ich) (?:nutzen|verwenden|benutzen|nutze|verwende|benutze) (?P<x>.+)$",
        "technical",
        "{S} {use} {x}",
    ),
    _r(
        rf"\b(?P<n>{NAME}) ist (?P<w>mein|meine|unser|unsere) (?P<x>.+)$",
        "relationship",
        "{n} ist {x} {W}",
    ),
    _r(
        rf"\b(?P<w>mein|meine|unser|unsere) (?P<x>[A-ZÄÖÜ][a-zäöüß-]+) (?:heißt|ist) (?P<n>{NAME})",
        "relationship",
        "{n} ist {x} {W}",
    ),
    # "Meine Schwester Jana studiert Medizin in Heidelberg": what one named by a tie does.
    _r(
        rf"^(?P<w>mein|meine|unser|unsere) (?P<x>[A-ZÄÖÜ][a-zäöüß-]+) (?P<n>{NAME}),? "
        r"(?P<rest>(?-i:[a-zäöüß]+)\b.+)$",
        "relationship",
        "{A} {x} {W}, {n}, {rest}",
    ),
    # "Wir haben einen Hund, er heißt Bello", "Ich habe eine Katze namens Mimi"
    _r(
        r"^(?P<w>ich habe|wir haben) (?:einen|eine|ein) (?P<x>Hund|Katze|Kater|Kaninchen|"
        r"Hasen|Pferd|Papagei|Hamster|Meerschweinchen)(?:,? (?:er|sie|es|der|die|das) heißt|"
        rf" namens) (?P<n>{NAME})",
        "relationship",
        "{n} ist {x} {W}",
    ),
    _r(
        r"\b(?P<s>wir|ich) (?:arbeite|arbeiten) (?:gerade )?an (?P<x>.+)$",
        "project",
        "{S} {work} an {x}",
        True,
    ),
]
_ES: list[_Rule] = [
    _r(rf"\bme llamo (?P<x>{NAME})", "identity", "El usuario se llama {x}"),
    _r(
        r"\btrabajo (?P<p>en|como|para) (?P<x>[^.,!?\n]+?)(?=\s+y\b|[.,!?\n]|$)",
        "identity",
        "El usuario trabaja {p} {x}",
    ),
    _r(r"\bvivo en (?P<x>[^.,!?\n]+?)(?=\s+y\b|[.,!?\n]|$)", "identity", "El usuario vive en {x}"),
    # "Soy profesora de matemáticas": a trade, by its ending (not "soy feliz")
    _r(
        r"\bsoy (?P<x>[a-záéíóúñ]+(?:or|ora|ero|era|ista|ante|ente|logo|loga|ico|ica|ógrafa|"
        r"ógrafo|ect[oa]|ad[oa])(?: de [^.,!?\n]+?)?)(?=\s+y\b|[.,!?\n]|$)",
        "identity",
        "El usuario es {x}",
    ),
    _r(
        r"\bme (?:he )?mud(?:é|ado) a (?P<x>[^.,!?\n]+?)(?=\s+y\b|[.,!?\n]|$)",
        "identity",
        "El usuario se mudó a {x}",
    ),
    _r(r"^(?P<a>nunca|siempre) (?P<x>.+)$", "rule", "Regla del usuario: {a} {x}"),
    _r(
        r"^(?:por favor,?\s+)?(?:a partir de ahora|de ahora en adelante|desde ahora|desde hoy),?"
        r"\s+(?:por favor,?\s+)?(?P<x>.+)$",
        "rule",
        "Regla del usuario: {x}",
    ),
    _r(
        r"^(?:por favor,?\s+)(?P<a>nunca|siempre|no)\s+(?P<x>.+)$",
        "rule",
        "Regla del usuario: {a} {x}",
    ),
    _r(
        r"\b(?P<s>hemos decidido|he decidido|decidimos|decidí) (?P<x>.+)$",
        "decision",
        "{S} {x}",
        True,
    ),
    _r(
        r"^(?:yo )?(?P<v>prefiero|me gustan?|me encantan?|odio|no me gustan?|siempre uso) "
        r"(?P<x>.+)$",
        "preference",
        "El usuario {V} {x}",
    ),
    _r(
        r"\b(?:al final |finalmente )?(?P<s>elegimos|escogimos|optamos por|nos quedamos con|"
        r"cambiamos a|migramos a|nos pasamos a|elegí|escogí|opté por|me quedé con|me pasé a) "
        r"(?P<x>.+)$",
        "decision",
        "{S} {x}",
        True,
    ),
    _r(
        r"^(?:yo )?no (?P<v>bebo|tomo|como|uso|fumo) (?P<x>.+)$",
        "preference",
        "El usuario no {V} {x}",
    ),
    _r(r"\b(?P<s>usamos|uso|utilizamos|utilizo) (?P<x>.+)$", "technical", "{S} {x}"),
    _r(
        rf"\b(?P<n>{NAME}) es (?P<w>mi|nuestro|nuestra) (?P<x>.+)$",
        "relationship",
        "{n} es {x} {W}",
    ),
    _r(
        rf"\b(?P<w>mi|nuestro|nuestra) (?P<x>[a-záéíóúñ]+) (?:se llama|es) (?P<n>{NAME})",
        "relationship",
        "{n} es {x} {W}",
    ),
    # "Mi hermano Pablo trabaja en Madrid": what one named by a tie does.
    _r(
        rf"^(?P<w>mi|nuestro|nuestra) (?P<x>[a-záéíóúñ]+) (?P<n>{NAME}),? "
        r"(?P<rest>(?-i:[a-záéíóúñ]+)\b.+)$",
        "relationship",
        "{n}, {x} {W}, {rest}",
    ),
    _r(
        r"\b(?P<s>estoy|estamos) (?:trabajando en|construyendo|preparando) (?P<x>.+)$",
        "project",
        "{S} {x}",
        True,
    ),
]

_SUBJECT = {
    "sv": {"vi": "Teamet", "jag": "Användaren"},
    "de": {"wir": "Das Team", "ich": "Der Nutzer"},
}
_DE_PREF = {
    "bevorzuge": "bevorzugt",
    "mag": "mag",
    "mag kein": "mag kein",
    "mag keine": "mag keine",
    "liebe": "liebt",
    "hasse": "hasst",
    "benutze immer": "benutzt immer",
    "verwende immer": "verwendet immer",
    "trinke": "trinkt",
    "esse": "isst",
    "nutze": "nutzt",
    "benutze": "benutzt",
    "verwende": "verwendet",
    "rauche": "raucht",
}
_ES_PREF = {
    "prefiero": "prefiere",
    "me gusta": "le gusta",
    "me gustan": "le gustan",
    "me encanta": "le encanta",
    "me encantan": "le encantan",
    "odio": "odia",
    "no me gusta": "no le gusta",
    "no me gustan": "no le gustan",
    "siempre uso": "siempre usa",
    "bebo": "bebe",
    "tomo": "toma",
    "como": "come",
    "uso": "usa",
    "fumo": "fuma",
}
_ES_SUBJECT = {
    "hemos decidido": "el equipo decidió",
    "decidimos": "el equipo decidió",
    "he decidido": "el usuario decidió",
    "decidí": "el usuario decidió",
    "usamos": "El equipo usa",
    "utilizamos": "El equipo usa",
    "uso": "El usuario usa",
    "utilizo": "El usuario usa",
    "estoy": "el usuario está trabajando en",
    "estamos": "el equipo está trabajando en",
    "elegimos": "el equipo eligió",
    "escogimos": "el equipo eligió",
    "optamos por": "el equipo optó por",
    "nos quedamos con": "el equipo se quedó con",
    "cambiamos a": "el equipo cambió a",
    "migramos a": "el equipo migró a",
    "nos pasamos a": "el equipo se pasó a",
    "elegí": "el usuario eligió",
    "escogí": "el usuario eligió",
    "opté por": "el usuario optó por",
    "me quedé con": "el usuario se quedó con",
    "me pasé a": "el usuario se pasó a",
}


# The speaker's own words for what is theirs, as said of the user ("med min hund" is "med
# sin hund" once the sentence is about "Användaren").
_THEIRS = {
    "sv": {"min": "sin", "mitt": "sitt", "mina": "sina", "mig": "sig"},
    "de": {
        "mein": "sein", "meine": "seine", "meiner": "seiner", "meinem": "seinem",
        "meinen": "seinen", "meines": "seines", "mich": "sich", "mir": "sich",
    },
    "es": {"mi": "su", "mis": "sus"},
}  # fmt: skip
_WORD = re.compile(r"\w+")


def _theirs(lang: str, text: str) -> str:
    own = _THEIRS.get(lang)
    if not own:
        return text
    return _WORD.sub(lambda m: own.get(m.group(), m.group()), text)


def _fill(lang: str, template: str, match: re.Match[str]) -> str:
    g = {k: (v or "").strip().rstrip(".!") for k, v in match.groupdict().items()}
    if "x" in g:
        g["x"] = _theirs(lang, g["x"])
    if "v" in g:
        g["v"] = g["v"].lower()  # a verb that opened the sentence is mid-sentence in the fact
    s = g.get("s", "").lower()
    values = dict(g)
    if lang in _SUBJECT:
        values["S"] = _SUBJECT[lang].get(s.split()[0] if s else "", "")
    if lang == "sv":
        values["W"] = "användarens" if g.get("w", "").lower() in {"min", "mitt"} else "teamets"
    if lang == "de":
        values["h"] = "hat"
        values["V"] = _DE_PREF.get(g.get("v", "").lower(), g.get("v", ""))
        values["use"] = "nutzt"
        values["work"] = "arbeitet"
        owner = g.get("w", "").lower()
        mine = owner.startswith("mein") or owner in ("ich habe", "wir haben")  # a household's pet
        values["W"] = "des Nutzers" if mine else "des Teams"
        values["A"] = "Die" if owner.endswith("e") else "Der"  # "meine Schwester", "mein Bruder"
    if lang == "es":
        values["S"] = _ES_SUBJECT.get(s, s)
        values["V"] = _ES_PREF.get(g.get("v", "").lower(), g.get("v", ""))
        values["W"] = "del usuario" if g.get("w", "").lower() == "mi" else "del equipo"
    return " ".join(template.format(**values).split())  # an empty optional part leaves no gap


_TABLES = {"sv": _SV, "de": _DE, "es": _ES}


_AND = {"sv": " och ", "de": " und ", "es": " y "}
_SUBJECTS = ("Användaren ", "Der Nutzer ", "El usuario ")


def identity_foreign(text: str, lang: str) -> Fact | None:
    """Everything a message says about who the user is, as one fact in ``lang``."""
    parts: list[str] = []
    for pattern, category, template, _timed in _TABLES.get(lang, []):
        if category != "identity":
            continue
        for match in pattern.finditer(text):
            part = _fill(lang, template, match)
            parts.append(part if not parts else part.removeprefix(_subject_of(part)))
            break
    if not parts:
        return None
    return Fact("identity", finish(_AND[lang].join(parts)), "user", "Identity")


def _subject_of(text: str) -> str:
    return next((s for s in _SUBJECTS if text.startswith(s)), "")


def classify_foreign(sentence: str, lang: str, day: str) -> Fact | None:
    """A fact in ``lang`` from one sentence, or None when no simple pattern fits."""
    for pattern, category, template, timed in _TABLES.get(lang, []):
        if category == "identity":
            continue  # collected over the whole message by identity_foreign
        match = pattern.search(sentence.strip())
        if match:
            text = _fill(lang, template, match)
            text = text[:1].upper() + text[1:]
            if timed:
                text = dated(
                    text[:1].lower() + text[1:] if lang in {"es", "sv"} else text, day, lang
                )
            return Fact(category, finish(text))
    return None
