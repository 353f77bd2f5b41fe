"""The offline engine: rule-based extraction when no model is configured.

It reads only what the user said (the assistant's words are never a source
of facts, only a confirmation that a requested change was carried out),
keeps facts that are new, and files them under the matching ``## `` section
of PROFILE.md or MEMORY.md (:mod:`.filing`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from memclaw.extract.offline.clean import clauses, looks_like_assistant, normalise
from memclaw.extract.offline.dates import resolve_relative
from memclaw.extract.offline.filing import target
from memclaw.extract.offline.fragments import combine_facts
from memclaw.extract.offline.i18n import classify_foreign, identity_foreign
from memclaw.extract.offline.names import personal_fact
from memclaw.extract.offline.people import named_attribute
from memclaw.extract.offline.pets import pet_fact, pet_of
from memclaw.extract.offline.refs import resolve
from memclaw.extract.offline.rules import Fact, classify_sentence, identity_fact
from memclaw.extract.offline.text import (
    dated,
    finish,
    is_hedged,
    is_question,
    is_request,
    is_small_talk,
    language,
    split_sentences,
    strip_code,
    third_person,
)
from memclaw.gates import REDACTION_PREFIX, contains_secret, redact
from memclaw.text.likeness import containment, known_in, restates, tokens

I_ = re.IGNORECASE


@dataclass
class OfflineFacts:
    facts: list[Fact] = field(default_factory=list)
    known: int = 0  # candidates dropped because memory already says them
    secrets: int = 0  # sentences dropped because they carried a credential
    forgotten: int = 0  # candidates the user asked to forget earlier
    pieces: int = 0  # short facts made into fewer whole ones (``fragments``)
    wholes: int = 0  # the whole facts they became


_ACTION = re.compile(
    r"^(?:please\s+|can you\s+|could you\s+)?(update|configure|set up|install|add|rename|migrate|"
    r"create|connect|enable|schedule|deploy|upgrade)\s+(.+?)[.!]?$",
    I_,
)
_PARTICIPLE = {"set up": "set up", "add": "added", "upgrade": "upgraded"}
_CONFIRMED = re.compile(
    r"\b(?:done|updated|configured|installed|added|renamed|migrated|created|connected|enabled|"
    r"scheduled|deployed|upgraded|successfully|completed|all set|is set up|saved)\b",
    I_,
)
_FAILED = re.compile(
    r"\b(?:fail\w*|error|couldn't|could not|unable|can't|cannot|didn't|did not|not able|"
    r"won't|will not|should not|shouldn't)\b",
    I_,
)
_PREPOSITION = re.compile(r"\s+(?=(?:with|to|for|on|in|from|at|by|into)\b)", I_)
_CREDENTIAL = re.compile(
    r"\b(api key|api token|access key|token|password|secret|credentials?|key)\b", I_
)
_CREDENTIAL_FOR = re.compile(
    r"\b(?:for|on|to)\s+(?:the\s+)?([\w .#/-]+?)\s*(?:[:=]|[.,;]|\[REDACTED|$)", I_
)
_FOLLOW_UP = re.compile(r"^(?:it|they|this|that|he|she)\b|^we\s+(?:also\s+)?need\b", I_)


def _confirmed(reply: str | None) -> bool:
    return bool(reply and _CONFIRMED.search(reply) and not _FAILED.search(reply))


def completed_action(sentence: str, reply: str | None, day: str) -> Fact | None:
    """A requested change the assistant reports as done: an outcome, not an intention."""
    match = _ACTION.match(sentence.strip())
    if not match or not _confirmed(reply):
        return None
    verb = match.group(1).lower()
    participle = _PARTICIPLE.get(verb, verb + ("d" if verb.endswith("e") else "ed"))
    parts = _PREPOSITION.split(match.group(2), maxsplit=1)
    head, tail = parts[0], parts[1] if len(parts) > 1 else ""
    text = f"{third_person(head)} was {participle} {third_person(tail)}".strip()
    return Fact("configuration", finish(dated(text, day)), head)


def credential_statement(sentence: str, reply: str | None, day: str) -> Fact | None:
    """'API key was configured for X' without the key: the only credential fact kept."""
    kind = _CREDENTIAL.search(sentence)
    target = _CREDENTIAL_FOR.search(sentence)
    if not kind or not target or not _confirmed(reply):
        return None
    label = kind.group(1)
    label = "API key" if label.lower() in {"api key", "key"} else label.lower()
    # Only the service's name: "the staging bot is [REDACTED]" must not leave "is" behind.
    service = _TRAILING_VERB.sub("", target.group(1).strip())
    if not service:
        return None
    text = f"{_article_for(label)} {label} was configured for the {service}"
    return Fact("configuration", finish(dated(text, day)), service)


_TRAILING_VERB = re.compile(r"(?:\s+(?:is|are|was|were|be|goes|here|now|below))+$", I_)
# "Never deploy on Fridays. Reason: on-call is thin" - the reason belongs to the rule.
_REASON = re.compile(
    r"^(?:reason|the reason(?: is)?|why|that's because|because)\b[:,]?\s*(.+)$", I_
)
# "When I paste a traceback, just give me the fix": a standing wish, not a one-off request.
_WHEN_I = re.compile(
    r"^(?:when|whenever|every time|if)\s+I\s+(.+?),\s*(?:please\s+)?(just\s+|only\s+)?"
    r"(?:give|show|send|tell)\s+me\s+(.+?)[.!]?$",
    I_,
)


def _standing_wish(sentence: str) -> Fact | None:
    match = _WHEN_I.match(sentence.strip())
    if not match:
        return None
    want = (match.group(2) or "").strip()
    text = f"When user {third_person('I ' + match.group(1))[len('user ') :]}, user wants "
    text += f"{want + ' ' if want else ''}{third_person(match.group(3))}"
    return Fact("preference", finish(text))


def _article_for(label: str) -> str:
    return "an" if label[:1].lower() in "aeiou" else "a"


def _merge(previous: Fact, sentence: str) -> Fact:
    entity = previous.entity or "it"
    rest = re.sub(r"^(?:it|they|this|that|he|she)\b", entity, sentence.strip(), count=1, flags=I_)
    addition = third_person(rest).rstrip(".")
    return Fact(
        previous.category,
        f"{previous.text.rstrip('.')}; {addition}.",
        previous.entity,
        previous.section,
    )


def _user_turns(
    messages: Sequence[dict[str, str]], day: str
) -> Iterable[tuple[str, str | None, str]]:
    """(what the user said, the assistant's answer, the day it was said)."""
    for index, message in enumerate(messages):
        if message.get("role") != "user":
            continue
        reply = None
        for later in messages[index + 1 :]:
            if later.get("role") == "assistant":
                reply = later.get("content", "")
                break
            if later.get("role") == "user":
                break
        yield message.get("content", ""), reply, message.get("day") or day


_LABEL = re.compile(r"^[A-Z][\w' -]{0,30}:\s+(?=\S)")


def _classify(sentence: str, lang: str, day: str) -> Fact | None:
    if lang != "en":
        return classify_foreign(sentence, lang, day)
    fact = classify_sentence(sentence, day)
    if fact is None and (label := _LABEL.match(sentence)):
        # "Other news: Hanna starts Monday" -> "Hanna starts Monday"
        fact = classify_sentence(sentence[label.end() :], day)
    return fact or named_attribute(sentence, day)


# An instruction meant to last is a rule, not a one-off request, even when it starts with a verb.
_STANDING = re.compile(
    r"\b(?:from now on|going forward|from today on|starting today|every time|whenever|"
    r"in (?:the )?future)\b",
    I_,
)
# A clause that opens a condition or a guess: nothing in it has happened.
_CONDITIONAL = re.compile(r"^(?:if|unless|when|once|maybe|perhaps|in case)\b", I_)
# Inside a question only a statement set off by a dash or a semicolon is read.
_ASIDE = re.compile(r"\s+[-–—]\s+|;\s*")


# A rule or taste may carry a "might" in its reason; these hedge the statement itself.
_SELF_HEDGE = re.compile(
    r"\b(?:I'll try|I will try|I'm gonna try|I'm going to try|I might|we might|maybe I|maybe we|"
    r"I'm thinking about|I'm considering|I'd like to try|we'll see)\b",
    I_,
)


def _guess(fact: Fact, sentence: str) -> bool:
    """A guess or a plan that may not happen is not a fact yet."""
    if fact.category in {"rule", "preference"}:
        return bool(_SELF_HEDGE.search(sentence))
    return is_hedged(sentence) or bool(_CONDITIONAL.match(sentence))


def _sentence_facts(sentence: str, lang: str, day: str) -> tuple[Fact | None, list[Fact]]:
    """The fact of the whole sentence, and facts of its clauses that say something else."""
    if is_question(sentence):
        asides = [p for p in _ASIDE.split(sentence) if not is_question(p)]
        if len(asides) == 0 or len(asides) == len(_ASIDE.split(sentence)):
            return None, []
        sentence = asides[0]
    whole = _classify(sentence, lang, day)
    if whole is not None and _guess(whole, sentence):
        whole = None
    parts = clauses(sentence)
    if len(parts) < 2 or (is_hedged(sentence) and whole is None and lang == "en"):
        return whole, []
    extra: list[Fact] = []
    seen = {whole.category} if whole else set()
    for part in parts:
        part = normalise(part) if lang == "en" else part
        if is_question(part) or is_small_talk(part):
            continue
        fact = _classify(part, lang, day)
        if fact is None or fact.category in seen | {"identity"} or _guess(fact, part):
            continue
        seen.add(fact.category)
        extra.append(fact)
    return whole, extra


def _facts_of_message(
    text: str,
    reply: str | None,
    day: str,
    found: OfflineFacts,
    before_it: Sequence[Fact] = (),
    *,
    spoken: str = "en",
) -> list[Fact]:
    text = strip_code(redact(text))
    if looks_like_assistant(text):
        return []  # pasted or imitated assistant text says nothing about the user
    lang = language(text, spoken)
    facts: list[Fact] = []
    sentences = split_sentences(text)
    if lang == "en":
        sentences = [normalise(s) for s in sentences]
    # Identity comes from the whole message, minus any sentence that carried a credential.
    clean = ". ".join(s for s in sentences if s and REDACTION_PREFIX not in s)
    who = identity_fact(clean, day) if lang == "en" else identity_foreign(clean, lang)
    if who is not None:
        facts.append(who)
    previous: str | None = None
    for sentence in sentences:
        before, previous = previous, sentence
        if not sentence:
            continue
        if REDACTION_PREFIX in sentence:
            found.secrets += 1
            if fact := credential_statement(sentence, reply, day):
                facts.append(fact)
            continue
        if is_small_talk(sentence):
            continue
        reason = _REASON.match(sentence)
        if reason and facts and facts[-1].category in {"rule", "decision", "preference"}:
            told = facts[-1]
            text = f"{told.text.rstrip('.')}. Reason: {third_person(reason.group(1))}"
            facts[-1] = Fact(told.category, finish(text), told.entity, told.section)
            continue
        if wish := _standing_wish(sentence):
            facts.append(wish)
            continue
        if is_request(sentence) and not _STANDING.search(sentence):
            if fact := completed_action(sentence, reply, day):
                facts.append(fact)
            continue
        if pet := pet_fact(sentence, lang, pet_of([*before_it, *facts]), before):
            facts.append(pet)  # a piece about a pet, to be joined with the others below
            continue
        fact, extra = _sentence_facts(sentence, lang, day)
        last = facts[-1] if facts else None
        follows = last and last.category != "identity" and _FOLLOW_UP.match(sentence)
        if last and follows and (fact is None or fact.category == last.category):
            facts[-1] = _merge(last, sentence)
            continue
        for candidate in ([fact] if fact else []) + extra:
            if (kept := resolve(candidate, before)) is not None:
                facts.append(kept)
    return facts


def _dated(fact: Fact, day: str) -> Fact:
    """Relative days ("starts Monday") as ISO dates; the user's quoted words stay as said."""
    if fact.text.startswith('User says: "'):
        return fact
    text = resolve_relative(fact.text, day, language(fact.text))
    return fact if text == fact.text else Fact(fact.category, text, fact.entity, fact.section)


def _named(facts: list[Fact], person: str | None) -> str | None:
    """The user's first name: from memory, else from what this conversation says."""
    if person:
        return person
    for fact in facts:
        if fact.category == "identity" and fact.entity not in {"", "user"}:
            return fact.entity.split()[0]
    return None


def extract_facts(
    messages: Sequence[dict[str, str]],
    day: str,
    known: Sequence[frozenset[str]] = (),
    forgotten: Callable[[str], bool] | None = None,
    *,
    person: str | None = None,
) -> OfflineFacts:
    """New facts in the user's messages; ``known`` holds token sets of what memory says.

    Each message may carry its own ``day`` (when it was said); ``day`` is the fallback.
    ``person`` is the user's name when memory knows it; facts then use it.
    """
    found = OfflineFacts()
    kept: list[frozenset[str]] = []
    candidates: list[tuple[Fact, str]] = []
    last: list[Fact] = []  # the facts of the user's message before: a pet it ended on
    turns = list(_user_turns(messages, day))
    # A short message may hold too few common words to tell its language: the person's
    # side of the whole conversation settles a tie ("Meine Schwester Jana studiert ...").
    spoken = language(" ".join(text for text, _reply, _said in turns))
    for text, reply, said in turns:
        last = _facts_of_message(text, reply, said, found, last, spoken=spoken)
        candidates += [(f, said) for f in last]
    name = _named([fact for fact, _ in candidates], person)
    plain: list[Fact] = []  # as the rules word them: "user" joins as one subject, a name not
    for fact, said in candidates:
        worded = _dated(fact, said)
        fact = _dated(personal_fact(fact, name), said)
        if contains_secret(fact.text):
            found.secrets += 1
            continue
        narrower = fact.category in {"rule", "preference"}
        if known_in(fact.text, known) or restates(fact.text, known, narrower):
            found.known += 1
            continue
        if forgotten is not None and forgotten(fact.text):
            found.forgotten += 1
            continue
        mine = tokens(fact.text)
        if any(containment(mine, other) >= 0.8 for other in kept):
            continue
        kept.append(mine)
        found.facts.append(fact)
        plain.append(worded)
    combined = combine_facts(plain, target)
    # A fact combine_facts left alone is the very object passed in: it keeps its checked text.
    shown = {id(worded): fact for worded, fact in zip(plain, found.facts, strict=True)}
    found.facts = []
    for fact in combined.facts:
        if checked := shown.get(id(fact)):
            found.facts.append(checked)
            continue
        # A whole made of checked pieces is checked again: together they may say what
        # memory holds, what the person asked to forget, or what looks like a credential.
        whole = personal_fact(fact, name)
        if contains_secret(whole.text):
            found.secrets += 1
        elif known_in(whole.text, known):
            found.known += 1
        elif forgotten is not None and forgotten(whole.text):
            found.forgotten += 1
        else:
            found.facts.append(whole)
    found.pieces, found.wholes = combined.pieces, combined.wholes
    return found
