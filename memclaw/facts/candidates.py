"""Which remembered facts a new statement could be about: an index on their words.

Only a fact whose subject the new statement names (or the other way round: "On 4
December there is a client meeting", "The client meeting is on 4 December"), or that
sets the same single-valued attribute (a residence, an employer), can be the same
fact, a new value of it or a richer one; every other fact is another fact without asking.
Built once per batch (an extraction weighs thirty statements against a hundred
facts), so judging stays linear in what is remembered.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from functools import lru_cache

from memclaw.facts.model import Fact
from memclaw.judgement import read
from memclaw.judgement.claims import Claim
from memclaw.judgement.relate import shape
from memclaw.judgement.roles import names_a_role
from memclaw.judgement.words import Word, is_user


class Candidates:
    """Facts by their subjects' words, all their words and the attributes they set."""

    def __init__(self, facts: Iterable[Fact]) -> None:
        self.facts: list[Fact] = []
        self._gone: set[str] = set()
        self._by_key: dict[str, list[int]] = defaultdict(list)
        for fact in facts:
            self.add(fact)

    def near(self, statement: str) -> list[Fact]:
        """The facts ``statement`` could be about, in file order."""
        subject, words, attributes = _keys(statement)
        # (and a fact that names, anywhere, what this names: "Farah is now the lead on
        # Atlas" may be news of "Kenji leads Atlas"; of a role, any word of what is led:
        # "Für das Release ist inzwischen Mira zuständig" of "Lukas ist für das Release
        # verantwortlich")
        named = subject | _names(statement) | (words if names_a_role(statement) else set())
        wanted = {f"s:{k}" for k in subject | words} | {f"w:{k}" for k in named} | attributes
        found: set[int] = set()
        for key in wanted:
            found.update(self._by_key.get(key, ()))
        mine = _identifiers(statement)

        def named_apart(fact: Fact) -> bool:
            # Two subjects named by different ids ("invoice 4411", "invoice 4412") differ.
            theirs = _identifiers(fact.statement)
            return bool(mine and theirs and not mine & theirs)

        chosen = (self.facts[i] for i in sorted(found))
        return [f for f in chosen if f.id not in self._gone and not named_apart(f)]

    def get(self, fact_id: str) -> Fact | None:
        """The fact ``fact_id``, if memory holds it (and no line took its place)."""
        found = (f for f in self.facts if f.id == fact_id and f.id not in self._gone)
        return next(found, None)

    def discard(self, fact_id: str) -> None:
        """Forget ``fact_id`` (a line that another took the place of)."""
        self._gone.add(fact_id)

    def add(self, fact: Fact) -> None:
        self.facts.append(fact)
        for key in _filed_under(fact.statement):
            self._by_key[key].append(len(self.facts) - 1)


# Every remember builds the index anew from the facts memory holds: what each line is
# filed under is worked out once per process, so the hundredth fact costs a lookup.
@lru_cache(maxsize=8192)
def _filed_under(statement: str) -> frozenset[str]:
    subject, words, attributes = _keys(statement)
    return frozenset({f"s:{k}" for k in subject} | {f"w:{k}" for k in words} | attributes)


@lru_cache(maxsize=8192)
def _keys(statement: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """A statement's subject words and all its content words, each as its first letters
    (alike in every language's stemming and inflection: "Arzttermin", "Arzttermins"),
    and the attributes it sets."""
    claim = read(statement)
    # (and by its key: "Lisas" is Lisa's, whose first five letters are not "lisas")
    # (and by the id a compound names: "O2-Vertrag" is O2's)
    subject = {k for w in _subject_words(claim) for k in (_prefix(w), w.key, _id_of(w.key))}
    if "user" in claim.subject:  # "Prefers tea": a note about the person, who goes unnamed
        subject.add("user")
    words = {k for w in claim.words if not w.function or is_user(w) for k in (_prefix(w), w.key)}
    attributes = {f"a:{frame.attribute}" for frame in claim.frames}
    return frozenset(subject), frozenset(words), frozenset(attributes)


@lru_cache(maxsize=8192)
def _names(statement: str) -> frozenset[str]:
    """The names a statement says past its first word (a capital there marks one, but in
    German, which gives one to every noun)."""
    claim = read(statement)
    return frozenset(w.key for w in claim.words[1:] if shape(w, claim.language) == "name")


def _prefix(word: Word) -> str:
    """A word's first five letters, without a possessive ("Jun's" is "jun")."""
    if is_user(word):
        return "user"
    return word.text.casefold().replace("’", "'").removesuffix("'s")[:5]


def _subject_words(claim: Claim) -> list[Word]:
    """The words naming what ``claim`` is about; all of its words when no verb was found."""
    if claim.verb is None:
        return [w for w in claim.words if not w.function or is_user(w)]
    # By key, not by place: a verb-second subject follows its verb ("Eigentlich arbeitet
    # der Nutzer bei Bosch").
    return [w for w in claim.words if w.key in claim.subject]


@lru_cache(maxsize=8192)
def _identifiers(statement: str) -> frozenset[str]:
    """The values naming a statement's subject (4411, b3, db-07), if any."""
    claim = read(statement)
    if claim.verb is None:
        return frozenset()
    return frozenset(_id_of(w.key) for w in _subject_words(claim) if w.value)


def _id_of(key: str) -> str:
    """The id a value names: "o2" of "o2-vertrag" (a compound of an id and a word, "the O2
    contract"), the whole of "re-2025-0311" or "db-07"."""
    parts = key.split("-")
    valued = [p for p in parts if any(c.isdigit() for c in p)]
    words = [p for p in parts if p not in valued]
    if len(valued) == 1 and words and all(len(p) >= 4 and p.isalpha() for p in words):
        return valued[0]
    return key
