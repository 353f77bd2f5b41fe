"""A pet told about in pieces: "I have a dog. Her name is Poppy. I walk her every day."

People rarely say everything about a pet in one sentence, and the pieces lean on
each other: "her" is the dog the user said they have. Each piece becomes a short
fact about the pet in the same category (a pet lives with the people in
MEMORY.md), worded so that :func:`memclaw.text.combine.join` can make one
sentence of them: "User has a dog named Poppy and walks the dog every day."

``pet`` is the kind of animal the latest fact spoke of ("dog"), or None; a
pronoun ("her", "lo") is read as that pet only when there is one. English and
Spanish are read; other languages are left to their own rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memclaw.extract.offline.people import NAME, NOT_A_NAME, Fact
from memclaw.extract.offline.text import HOW_OFTEN, finish, third_person

I_ = re.IGNORECASE
_PETS_EN = (
    r"dog|cat|puppy|kitten|horse|pony|parrot|budgie|rabbit|bunny|hamster|guinea pig|ferret|"
    r"tortoise|turtle|snake|lizard|gecko|goldfish|labrador|retriever|terrier|poodle|spaniel"
)
_PETS_ES = r"perro|perra|gato|gata|cachorro|caballo|loro|conejo|hámster|tortuga"
_PET_WORD = re.compile(rf"\b({_PETS_EN}|{_PETS_ES})\b", I_)

# --- English ----------------------------------------------------------------------------------

_HAVE = re.compile(
    # "I have a dog", and the household's: "Also we got a rabbit"
    rf"^(?:(?:also|and|so|oh)[,\s]+)?(?:I|we)\s+(?:also\s+|just\s+)?"
    rf"(?:have|'ve got|have got|own|got|adopted|bought)\s+(an?)\s+"
    rf"((?:[a-z]+\s+)?(?:{_PETS_EN}))(?:\s+at home)?"
    # "I got a second cat, Luna", "... called Luna", "..., her name is Snöboll": named
    # as it is told of
    rf"(?:,?\s+(?:called\s+|named\s+|(?:her|his|its)\s+name\s+is\s+)?(?P<name>{NAME}))?"
    rf"\s*[.!]?$",
    I_,
)
_NAME_IS = re.compile(
    rf"^(?:(?:the|my|our)\s+({_PETS_EN})(?:'s|’s)\s+name\s+is|(?:the|our|my)\s+"
    rf"(?:[a-z]+\s+)?({_PETS_EN})\s+is\s+"
    rf"(?:called|named)|(?:her|his|its|their)\s+name\s+is|(?:she|he|it)(?:'s|\s+is)\s+"
    rf"(?:called|named))\s+({NAME})\s*[.!]?$",
    I_,
)
# A routine needs a how-often ("I walk the dog" alone could be one afternoon), said as
# loosely as people do: "every single morning", "twice".
_OFTEN = rf"\b(?:{HOW_OFTEN}|every|each|once|twice)\b"
_ROUTINE = re.compile(
    r"^I\s+((?:usually|always|also|still)\s+)?(walk|feed|brush|groom|train|bathe|ride|"
    rf"play with)\s+(?:(?:my|the|our)\s+({_PETS_EN})|(her|him|it))\b(.*{_OFTEN}.*)$",
    I_,
)

# --- Spanish ----------------------------------------------------------------------------------

_HAVE_ES = re.compile(
    rf"^(?:yo\s+)?(?:también\s+)?(?:tengo|tenemos)\s+(un|una)\s+({_PETS_ES})(?:\s+en casa)?"
    # "Tengo un gato que se llama Nube": named as it is told of
    rf"(?:,?\s+(?:que\s+se\s+llama|llamad[oa])\s+(?P<name>{NAME}))?\s*[.!]?$",
    I_,
)
_NAME_ES = re.compile(
    rf"^(?:(?:el|la|mi)\s+({_PETS_ES})\s+)?se\s+llama\s+({NAME})\s*[.!]?$|"
    rf"^su\s+nombre\s+es\s+({NAME})\s*[.!]?$",
    I_,
)
_OFTEN_ES = (
    r"\b(?:todos los días|todas las (?:mañanas|noches|tardes)|cada (?:día|mañana|noche|tarde)|"
    r"a diario|\w+ veces al día|los fines de semana|por las (?:mañanas|noches|tardes))\b"
)
# First person to third: "paseo" -> "pasea".
_VERBS_ES = {
    "paseo": "pasea",
    "saco a pasear": "saca a pasear",
    "saco": "saca",
    "alimento": "alimenta",
    "cepillo": "cepilla",
    "baño": "baña",
    "llevo": "lleva",
}
_VERB_ES = "|".join(sorted(_VERBS_ES, key=len, reverse=True))
_ROUTINE_ES = re.compile(
    rf"^(?:yo\s+)?(?:(?:a|al|a la)\s+({_PETS_ES})\s+)?(?:(lo|la)\s+)?({_VERB_ES})\s+"
    rf"(?:(al|a la|a mi)\s+({_PETS_ES})\s+)?(.*{_OFTEN_ES}.*)$",
    I_,
)


def _person(name: str) -> bool:
    return name.split()[0] not in NOT_A_NAME


def pet_of(facts: Sequence[Fact]) -> str | None:
    """The pet the latest of ``facts`` speaks of ("dog"), if it speaks of one."""
    last = facts[-1] if facts else None
    found = last and last.category == "relationship" and _PET_WORD.search(last.text)
    return found.group(1).lower() if found else None


def pet_fact(sentence: str, lang: str, pet: str | None, before: str | None = None) -> Fact | None:
    """A piece of what the user says about their pet, or None.

    A pronoun means ``pet`` only while the talk is about it: at the start of a message
    (the message before ended on it) or right after another sentence about it. "I bake
    bread too. I feed it every day." is about the bread's starter, not the dog.
    """
    if before is not None and pet_fact(before, lang, pet) is None:
        pet = None
    text = sentence.strip()
    if lang == "es":
        return _spanish(text, pet)
    if lang != "en":
        return None
    if have := _HAVE.match(text):
        kind = have.group(2).lower()
        if (name := have.group("name")) and _person(name):
            return Fact("relationship", f"{name} is the user's {kind}.", name)
        return Fact("relationship", f"User has {have.group(1).lower()} {kind}.", kind)
    if (named := _NAME_IS.match(text)) and _person(named.group(3)):
        kind = (named.group(1) or named.group(2) or pet or "").lower()
        if kind:  # "her name is Poppy" names a pet only after one was mentioned
            return Fact("relationship", f"{named.group(3)} is the user's {kind}.", named.group(3))
    routine = _ROUTINE.match(text)
    kind = routine and (routine.group(3) or (pet if routine.group(4) else None))
    if routine and kind:
        said = f"I {routine.group(1) or ''}{routine.group(2)} the {kind.lower()}{routine.group(5)}"
        return Fact("relationship", finish(third_person(said)), kind.lower())
    return None


def _spanish(text: str, pet: str | None) -> Fact | None:
    if have := _HAVE_ES.match(text):
        kind = have.group(2).lower()
        if (name := have.group("name")) and _person(name):
            article = "la" if kind.endswith("a") else "el"
            sentence = f"{article.capitalize()} {kind} del usuario se llama {name}."
            return Fact("relationship", sentence, name)
        return Fact("relationship", f"El usuario tiene {have.group(1).lower()} {kind}.", kind)
    if named := _NAME_ES.match(text):
        kind, name = (named.group(1) or pet or ""), named.group(2) or named.group(3)
        if kind and _person(name):
            article = "la" if kind.lower().endswith("a") else "el"
            sentence = f"{article.capitalize()} {kind.lower()} del usuario se llama {name}."
            return Fact("relationship", sentence, name)
    routine = _ROUTINE_ES.match(text)
    if routine:
        kind = routine.group(1) or routine.group(5) or (pet if routine.group(2) else None)
        if kind:
            to = "a la" if kind.lower().endswith("a") else "al"
            verb = _VERBS_ES[routine.group(3).lower()]
            said = f"El usuario {verb} {to} {kind.lower()} {routine.group(6).strip()}"
            return Fact("relationship", finish(said), kind.lower())
    return None
