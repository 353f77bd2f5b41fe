"""Who holds a role of one thing: a new holder is a change, not a second fact.

A thing has one lead, one owner, one person responsible at a time: "Lukas ist für das
Release verantwortlich", then "Für das Release ist inzwischen Mira zuständig", is the
release handed on, not a second person beside Lukas; "The on-call rotation for the
payments service is handled by Team Kestrel", then "Team Heron handles on-call for
payments", likewise. The judge had read each as "about someone else", since their
subjects differ, and kept both in force.

It is a change only when both say a role word, the holders are names in one run of
words, and the rest is the one thing: what one says of it beyond the other is at most a
plain word or two, on one side only ("Anna leads the frontend team", "Tom leads the
backend team" are two teams). More holders ("Anna and Tom lead ...", "Tom also leads
...") are no change.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import memclaw.judgement.lexicon as lx

if TYPE_CHECKING:
    from memclaw.judgement.claims import Claim
    from memclaw.judgement.words import Word

# Saying who leads, owns, answers for or handles a thing; the second group hands it on.
_ROLE = re.compile(
    r"\b(?:leads?|led|leading|manag(?:es|ed|ing|e)|owns?|owned|owner|in charge of|"
    r"responsible for|handles?|handled|handling|running|runs|"
    r"ansvarar|ansvarig|ansvarade|sköter|skötte|leder|ledde|leds|äger|ägs|"
    r"verantwortlich|zuständig|leitet|leitete|geleitet|betreut|betreute|kümmert sich|"
    r"lleva|llevan|llevaba|dirige|dirigía|responsable|encargad[oa]|se encarga|"
    r"took over|takes over|taken over|handed (?:over )?to|passed (?:on )?to|tog över|"
    r"tagit över|tar över|übernimmt|übernommen|übernahm|asumió|se hizo cargo|pasó a)\b",
    re.IGNORECASE,
)
_MORE = re.compile(
    r"\b(?:and|och|und|y|also|too|as well|även|också|auch|ebenfalls|también|co-?leads?)\b|&",
    re.IGNORECASE,
)
_KINDS_OF_THING = frozenset(
    """project projekt projektet proyecto server servern servidor app service tjänsten
    dienst servicio system systemet sistema product produkt producto repo release""".split()  # noqa: SIM905
)
# Words of when, and plain words for the one who holds it ("The person running ...").
_NOT_HOLDERS = frozenset((*lx.NOW, *"""nun person one persona personen""".split()))  # noqa: SIM905


def names_a_role(text: str) -> bool:
    """Whether ``text`` says who leads, owns, answers for or handles something."""
    return bool(_ROLE.search(text))


def handed_on(a: Claim, b: Claim) -> bool:
    """Whether ``b`` names another holder of the role ``a`` names (see the module)."""
    if not (_ROLE.search(a.body) and _ROLE.search(b.body)) or a.negated or b.negated:
        return False
    gone, come = _only(a, b), _only(b, a)
    old, new = _holders(a, gone), _holders(b, come)
    if not old or not new or _MORE.search(_span(b, new)) or _MORE.search(_span(a, old)):
        return False
    if _MORE.search(b.body) and not _MORE.search(a.body):
        return False  # "also", "too", "and": one more holder
    extra = [[w for w in side if w not in holders] for side, holders in ((gone, old), (come, new))]
    if all(extra) or any(len(side) > 2 for side in extra):
        return False
    # The thing is what both say, not the person the role or the things belong to
    # ("User owns a Kindle", "User owns an iPad": two things owned).
    shared = a.keys & b.keys
    return any(not (w.function or w.user or w.kin) and w.key in shared for w in a.words)


def _only(claim: Claim, other: Claim) -> list[Word]:
    """``claim``'s content words that ``other`` does not say, role and time words aside."""
    roles = [m.span() for m in _ROLE.finditer(claim.body)]
    return [
        w
        for w in claim.words
        if not w.function
        and w.key not in other.keys
        and not any(start <= w.start < end for start, end in roles)
        and w.text.casefold() not in _NOT_HOLDERS
    ]


def _holders(claim: Claim, found: list[Word]) -> list[Word]:
    """The names among ``found``, when they are one run of words of ``claim`` (not the word
    that opens it: every sentence starts with a capital)."""
    names = [w for w in found if w.text[:1].isupper() and not w.value and w is not claim.words[0]]
    names = names or [w for w in found if w.text[:1].isupper() and not w.value]
    if not names:
        return []
    at = [claim.words.index(w) for w in names]
    if max(at) - min(at) != len(at) - 1:
        return []
    # A name after a word for a kind of thing names the thing ("Project Atlas is led by
    # Farah", "Project Orion is led by Farah": two projects).
    before = claim.words[min(at) - 1].text.casefold() if min(at) else ""
    return [] if before in _KINDS_OF_THING else names


def _span(claim: Claim, found: list[Word]) -> str:
    return claim.body[found[0].start : found[-1].end]
