"""British and American spellings of one English word folded to one form.

"colour" and "color", "organise" and "organize", "centre" and "center",
"travelled" and "traveled", "defence" and "defense", "grey" and "gray" are the
same word to a reader, and the Snowball stemmer keeps them apart. Both index
and query fold them (to the American form, for no reason but a choice) before
stemming. Only listed stems are folded: a rule like "-our is -or" would turn
"four" into "for" and "-ise is -ize" "promise" into "promize".
"""

from __future__ import annotations

from functools import lru_cache


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Stems whose British -our is American -or: colour(s/ed/ful), favourite, neighbour...
_OUR = _words("""arbour ardour armour behaviour candour clamour colour demeanour endeavour favour
    flavour glamour harbour honour humour labour neighbour odour parlour rancour rigour
    rumour saviour savour splendour tumour valour vapour vigour""")
# Stems whose British -is(e) is American -iz(e): organise, organising, organisation ...
_ISE = _words("""agonis apologis authoris capitalis categoris centralis characteris civilis
    criticis customis digitalis economis emphasis energis equalis familiaris fertilis
    finalis globalis harmonis hospitalis idealis immunis itemis legalis localis
    maximis memoris minimis mobilis modernis monetis normalis optimis organis
    personalis prioritis publicis realis recognis scrutinis socialis specialis
    stabilis standardis sterilis summaris sympathis synchronis utilis vandalis
    visualis""")
_ISE_ENDINGS = ("e", "es", "ed", "ing", "er", "ers", "ation", "ations")
_YSE = ("analys", "paralys", "catalys")  # analyse -> analyze, but not "analysis"
_YSE_ENDINGS = ("e", "es", "ed", "ing")
# Whole-word and stem pairs; an inflected form keeps its ending ("centres", "grey's").
_WORDS = {
    "aeroplane": "airplane",
    "ageing": "aging",
    "aluminium": "aluminum",
    "anaemia": "anemia",
    "analogue": "analog",
    "calibre": "caliber",
    "catalogue": "catalog",
    "centre": "center",
    "cheque": "check",
    "cosy": "cozy",
    "defence": "defense",
    "dialogue": "dialog",
    "doughnut": "donut",
    "draught": "draft",
    "enrol": "enroll",
    "fibre": "fiber",
    "fulfil": "fulfill",
    "grey": "gray",
    "jewellery": "jewelry",
    "kerb": "curb",
    "licence": "license",
    "litre": "liter",
    "manoeuvre": "maneuver",
    "meagre": "meager",
    "metre": "meter",
    "mould": "mold",
    "moustache": "mustache",
    "offence": "offense",
    "paediatric": "pediatric",
    "plough": "plow",
    "practise": "practice",
    "practising": "practicing",
    "pretence": "pretense",
    "programme": "program",
    "pyjamas": "pajamas",
    "sceptic": "skeptic",
    "sceptical": "skeptical",
    "sombre": "somber",
    "spectre": "specter",
    "storey": "story",
    "theatre": "theater",
    "tyre": "tire",
    "whilst": "while",
    "yoghurt": "yogurt",
}
_WORD_ENDINGS = ("", "s", "d", "ed", "ing", "'s", "es")
# Verbs whose British form doubles a final l before -ed, -ing, -er: travelled, cancelling.
_LL = _words("""cancel channel counsel dial duel equal fuel label level marvel model panel
    pedal quarrel signal total travel tunnel""")
_LL_ENDINGS = ("led", "ling", "ler", "lers", "lor", "lors", "lous")
# Every word is looked up once per process: the first letters of the listed stems let
# most words (none of the stems is shorter than this) skip the loops below at once.
_HEAD = min(len(stem) for stem in (*_OUR, *_ISE, *_YSE, *_LL))
_HEADS = frozenset(stem[:_HEAD] for stem in (*_OUR, *_ISE, *_YSE, *_LL))


@lru_cache(maxsize=8192)
def american(word: str) -> str:
    """``word`` (lower-case ASCII) in its American spelling, or unchanged."""
    for ending in _WORD_ENDINGS:
        stem = word[: len(word) - len(ending)] if ending else word
        if (not ending or word.endswith(ending)) and stem in _WORDS:
            return _WORDS[stem] + ending
    if word[:_HEAD] not in _HEADS:
        return word
    for stem in _OUR:
        if word.startswith(stem):
            return stem[:-2] + "r" + word[len(stem) :]
    for stem in _ISE:
        rest = word[len(stem) :]
        if word.startswith(stem) and rest in _ISE_ENDINGS:
            return stem[:-1] + "z" + rest
    for stem in _YSE:
        rest = word[len(stem) :]
        if word.startswith(stem) and rest in _YSE_ENDINGS:
            return stem[:-1] + "z" + rest
    for stem in _LL:
        rest = word[len(stem) :]
        if word.startswith(stem) and rest in _LL_ENDINGS:
            return stem + rest[1:]
    return word
