"""Which language a block of text is written in, cheaply and offline.

The index stems every block with the Snowball stemmer of its language, so the
guess only has to be good enough to pick a stemmer (and a set of offline
extraction rules): function words (the ones every sentence has, like "och",
"und", "les", "het"), everyday words a short message about oneself holds
("bor", "wohne", "vivo") and letters only some languages use (ß, ñ, ø, ã)
vote, and the language with most votes wins. A tie, or no vote at all, is the
language the person mostly speaks (English unless told). Cyrillic words are always stemmed as
Russian, whatever the block (see ``tokenize``), so only Latin-script
languages are told apart here. The lists skip words that are common in
English too ("die", "also", "war" stay German-only votes only where an
English sentence would outvote them with its own function words).
"""

from __future__ import annotations

import re

from memclaw.text.stem import ENGLISH

# Order matters on ties: the first language with the most votes wins, English first.
LANGUAGES = (
    ENGLISH,
    "swedish",
    "german",
    "spanish",
    "french",
    "portuguese",
    "italian",
    "dutch",
    "danish",
    "norwegian",
    "finnish",
)
_FUNCTION_WORDS = {
    ENGLISH: """the a an and of to is are was were be been have has had it this that with
        for on at by from not but or you he she they we i my your his her their what which
        who when where how there will would can could should about into than then them
        in me our us these those all some just do does did so if as its him any after""",
    "swedish": """och att det som är på för med av den till inte jag om men var har ett en
        han hon vi ni de kan ska skulle också från eller när efter hos här där vad sin sitt
        mycket bara nu hade blev vara detta dessa vid sig mig dig honom henne dem
        min mitt mina vår vårt heter bor jobbar arbetar använder föredrar gillar aldrig
        alltid sedan tack bra hej oss valde bytte dricker äter""",
    "german": """und der die das ist nicht ein eine einen dem den des zu mit von auf für
        sich auch es ich sie wir ihr er im am ist sind war hat haben wird werden nach bei
        aus wie noch oder aber nur wenn dass schon vom zum zur über mein dein sein
        meine unser unsere habe heiße wohne arbeite benutze verwende bevorzuge immer nie
        niemals bitte du mir mich kannst keinen keine kein trinke bin danke heißt jetzt""",
    "spanish": """el la los las de del y que en un una es por con para no se lo su al
        como más pero sus le ya o fue este ha muy también porque cuando hay donde está
        son tiene yo ella nosotros desde entre a me mi te nos hoy ayer estoy soy fui voy
        tengo mis nuestro nuestra trabajo vivo llamo prefiero usamos uso siempre nunca
        elegimos jefa jefe llama cuál cual gracias hola respuestas ahora bebo tomo fumo""",
    "french": """le la les de des du et un une est que qui dans pour pas sur au aux avec
        ce cette il elle nous vous ils sont mais ou où je tu son sa ses leur été être
        avoir fait chez très aussi comme plus""",
    "portuguese": """o a os as de do da dos das e que em um uma é para com não por se na
        no nas nos ao mais mas foi ele ela eles você também está são tem muito quando
        onde isso pelo pela já""",
    "italian": """il lo la i gli le di del della dei e che è un una per non con si da
        in al alla sono ma come anche più questo questa ho ha hanno era sua suo loro
        molto quando dove perché già nel nella""",
    "dutch": """de het een en van in is dat op te zijn met voor niet aan er die maar om
        ook als bij nog wel naar heeft hij zij ik je we was werd worden wordt kan uit
        door over dan geen deze dit""",
    "danish": """og at det er en et den til på med for af ikke jeg har som de var vi han
        hun kan skal fra eller når efter hos her der hvad sig mig dig ham hende dem meget
        også være været blev""",
    "norwegian": """og at det er en et den til på med for av ikke jeg har som de var vi
        han hun kan skal fra eller når etter hos her der hva seg meg deg ham henne dem
        mye også være vært ble ikkje eg""",
    "finnish": """ja on ei se että oli ovat mutta kun niin jos hän me te he mitä tämä
        tai vain myös kanssa olen olla minä sinä mikä missä joka ole nyt sitten""",
}
# Letters only a few of the languages use; each distinct one present is one vote.
_LETTERS = {
    "å": ("swedish", "danish", "norwegian"),
    "ä": ("swedish", "german", "finnish"),
    "ö": ("swedish", "german", "finnish"),
    "ü": ("german",),
    "ß": ("german",),
    "ø": ("danish", "norwegian"),
    "æ": ("danish", "norwegian"),
    "ñ": ("spanish",),
    # Acute vowels: Spanish and Portuguese write them in everyday verbs ("mudé", "está").
    "á": ("spanish", "portuguese"),
    "é": ("spanish", "portuguese", "french"),
    "í": ("spanish", "portuguese"),
    "ó": ("spanish", "portuguese"),
    "ú": ("spanish", "portuguese"),
    "¿": ("spanish",),
    "¡": ("spanish",),
    "ã": ("portuguese",),
    "õ": ("portuguese",),
    "ç": ("french", "portuguese"),
    "œ": ("french",),
    "è": ("french", "italian"),
    "ê": ("french", "portuguese"),
    "ù": ("french", "italian"),
    "ò": ("italian",),
    "ì": ("italian",),
}


def _index(table: dict[str, tuple[str, ...]]) -> dict[str, tuple[int, ...]]:
    return {key: tuple(LANGUAGES.index(lang) for lang in langs) for key, langs in table.items()}


def _word_votes() -> dict[str, tuple[int, ...]]:
    votes: dict[str, list[str]] = {}
    for lang, text in _FUNCTION_WORDS.items():
        for word in text.split():
            # As written at the start of a sentence and in capitals too: lower-casing every
            # word of every block would cost more than the rest of the guess.
            for form in dict.fromkeys((word, word.capitalize(), word.upper())):
                votes.setdefault(form, []).append(lang)
    return _index({word: tuple(langs) for word, langs in votes.items()})


def _letter_votes() -> dict[str, tuple[int, ...]]:
    both = {**_LETTERS, **{k.upper(): v for k, v in _LETTERS.items() if len(k.upper()) == 1}}
    return _index(both)


_WORD_VOTES = _word_votes()
_WORD_KEYS = frozenset(_WORD_VOTES)
_LETTER_VOTES = _letter_votes()
_LETTER_KEYS = frozenset(_LETTER_VOTES)
_WORDS = re.compile(r"[^\W\d_]+")


def language_of(text: str, usual: str = ENGLISH) -> str:
    """The Snowball name of the language ``text`` is most likely in; ``usual`` (the one
    a person mostly speaks, English unless told) wins a tie or a text without votes."""
    return language_of_words(_WORDS.findall(text), text, usual)


def language_of_words(words: list[str], text: str, usual: str = ENGLISH) -> str:
    """``language_of(text)`` for a caller that has already split ``text`` into ``words``."""
    votes = [0] * len(LANGUAGES)
    for word in _WORD_KEYS.intersection(words):
        for i in _WORD_VOTES[word]:
            votes[i] += 1
    if not text.isascii():
        for letter in _LETTER_KEYS.intersection(text):
            for i in _LETTER_VOTES[letter]:
                votes[i] += 1
    first = LANGUAGES.index(usual)
    best = max(range(len(LANGUAGES)), key=lambda i: (votes[i], i == first, -i))
    return LANGUAGES[best]
