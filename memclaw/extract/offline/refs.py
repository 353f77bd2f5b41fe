"""Pronouns without an antecedent: resolved from the sentence before, or the fact is dropped.

"Don't keep those anywhere" means nothing in a memory file read a month later.
When the previous sentence names one plausible thing ("the new staging DB
credentials"), the pronoun becomes that noun phrase; otherwise the fact is not
kept, since a guessed referent would be a wrong memory.
"""

from __future__ import annotations

import re
from dataclasses import replace

from memclaw.extract.offline.people import Fact
from memclaw.extract.offline.text import third_person

I_ = re.IGNORECASE
# Labels a fact may start with, before the clause that matters.
_LABEL = re.compile(
    r"^(?:As of \d{4}-\d{2}-\d{2},\s*|User (?:rule|preference)(?: \([^)]*\))?:\s*|"
    r"Användarens regel:\s*|Regel des Nutzers:\s*|Regla del usuario:\s*)*",
    I_,
)
_PLURAL = r"those|these|them|they"
_SINGULAR = r"it|this|that"
# "this", "that", "these" and "those" are pronouns only when no noun follows them.
_ALONE = (
    r"(?=\s+(?:anywhere|here|there|again|at all|in|on|to|for|anymore|any more|even|first|"
    r"now|too|either|as well|\w+ly)\b|\s*[.,;!]|$)"
)
# A pronoun as the clause's subject or as an object early in it ("don't keep those").
_DANGLING = re.compile(
    rf"^(?:({_PLURAL}|{_SINGULAR}|he|she)\b|"
    rf"(?:(?:don't|do not|never|always|please|user|the team|[a-z]+(?:'t)?)\s+){{1,5}}?"
    rf"(?:(it|them)\b|(those|these|this|that){_ALONE}))",
    I_,
)
# Noun phrases the previous sentence offers, cut before time words and prepositions.
_STOP = (
    r"(?:tonight|today|tomorrow|soon|later|now|to|for|from|in|on|at|by|with|and|or|but|this|"
    r"next|last|is|are|was|were|that|which|who|because|so|if|when)"
)
_NP = re.compile(
    rf"\b(?:the|our|my|your|these|those)\s+((?:(?!{_STOP}\b)[\w/-]+\s+){{0,4}}?"
    rf"(?!{_STOP}\b)[\w/-]+)(?=\s+{_STOP}\b|\s*[.,;:!?)]|\s*$)",
    I_,
)
_CONJUNCTION_THAT = re.compile(r"\bthat\s+(?:the|we|i|it|you|they|he|she|[a-z]+\s+(?:is|are))\b")


def _antecedent(previous: str, plural: bool) -> str | None:
    found = [m.group(0) for m in _NP.finditer(previous)]
    found = [np for np in found if np.lower().endswith("s") == plural]
    if len(found) != 1:
        return None  # none, or several: which one is meant is a guess
    np = found[0]
    if np.split()[0].lower() in {"these", "those"}:
        np = "the " + np.split(None, 1)[1]
    return third_person(np[0].lower() + np[1:])


def dangling(text: str) -> re.Match[str] | None:
    """The pronoun a fact leans on without saying what it is, if any."""
    if text.startswith('User says: "'):
        return None  # the user's own words are quoted as they are
    body = _LABEL.sub("", text)
    if _CONJUNCTION_THAT.match(body):
        return None
    return _DANGLING.match(body)


def resolve(fact: Fact, previous: str | None) -> Fact | None:
    """``fact`` with a dangling pronoun replaced by the previous sentence's noun phrase."""
    match = dangling(fact.text)
    if match is None:
        return fact
    group = next(i for i in (1, 2, 3) if match.group(i))
    pronoun = match.group(group).lower()
    found = _antecedent(previous or "", plural=pronoun in _PLURAL.split("|"))
    if found is None or pronoun in {"he", "she"}:
        return None
    label = _LABEL.match(fact.text)
    start = (label.end() if label else 0) + match.start(group)
    end = start + len(pronoun)
    text = fact.text[:start] + found + fact.text[end:]
    return replace(fact, text=text[:1].upper() + text[1:])
