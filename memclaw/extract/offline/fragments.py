"""Many short facts of one run made into fewer whole ones, before they are filed.

A person tells things in pieces ("I have a dog." "Her name is Poppy." "I walk
her every day."), and three bullets of three words each read worse, and search
worse, than one sentence. After the engine has found a run's new facts, the
facts bound for one section of one file are combined with the moves of
:mod:`memclaw.text.combine`, the ones consolidation uses on memory entries:

* a newer version of a fact absorbs the older one's details (``updates`` /
  ``absorb``), and the older one goes;
* short facts about one subject become one sentence (``join``), never past
  ``combine.MAX_WORDS``.

Facts the fact layer's judge says disagree are never combined: a contradiction
stays visible as two lines, for the fact layer to settle. A joined fact stands
where its oldest piece stood, and reads oldest first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace

from memclaw.extract.offline.people import Fact
from memclaw.text.combine import absorb, join, short, updates

# A fact that opens with a label or a date stamp ("User rule: ...", "As of 2026-11-29, ..."),
# or quotes the user, is no plain statement: joined, its label would land mid-sentence.
_LABELLED = re.compile(
    r"^(?:(?:As of|Per|A fecha de)\s+\d{4}-\d{2}-\d{2},|[^\s:]+(?:\s+[^\s:]+){0,4}?:\s)|\"",
)


def joinable(text: str) -> bool:
    """A short plain statement: what may be joined with others about its subject."""
    return short(text) and not _LABELLED.search(text)


@dataclass(frozen=True)
class Combined:
    facts: list[Fact]
    pieces: int = 0  # facts that were joined or absorbed, the ones that took them in included
    wholes: int = 0  # the facts they became


def _agree(texts: Sequence[str]) -> bool:
    """No two of ``texts`` disagree, by the fact layer's offline judge."""
    from memclaw.judgement import judge

    return not any(judge(a, b).disagrees for i, a in enumerate(texts) for b in texts[i + 1 :])


def combine_facts(facts: Sequence[Fact], home: Callable[[Fact], Hashable]) -> Combined:
    """``facts`` (oldest first) with updates absorbed and fragments joined per ``home``."""
    text = [fact.text for fact in facts]
    gone: set[int] = set()
    into: dict[int, list[int]] = {}  # the fact that stays -> the ones it took in
    for n in reversed(range(len(facts))):  # the newest version absorbs the older ones
        for o in reversed(range(n)):
            if n in gone or o in gone or home(facts[o]) != home(facts[n]):
                continue
            if not updates(text[n], text[o]) or not _agree([text[o], text[n]]):
                continue
            if (whole := absorb(text[n], text[o])) is not None:
                text[n] = whole
                into.setdefault(n, []).append(o)
                gone.add(o)
    left = [i for i in range(len(facts)) if i not in gone and joinable(text[i])]
    for k, lead in enumerate(left):
        if lead in gone:
            continue
        group = [lead]
        for other in left[k + 1 :]:
            if other in gone or home(facts[other]) != home(facts[lead]):
                continue
            texts = [text[i] for i in [*group, other]]  # oldest first reads best
            if join(texts) is not None and _agree(texts):
                group.append(other)
        if len(group) > 1:
            text[lead] = join([text[i] for i in group]) or text[lead]
            into.setdefault(lead, []).extend(group[1:])
            gone.update(group[1:])
    kept = [
        replace(fact, text=text[i]) if i in into else fact
        for i, fact in enumerate(facts)
        if i not in gone
    ]
    wholes = len([i for i in into if i not in gone])
    return Combined(kept, len(gone) + wholes, wholes)
