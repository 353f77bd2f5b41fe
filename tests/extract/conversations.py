"""Whole conversations for measuring extraction end to end: windows, dates, names, secrets.

A case is a conversation of 60 to 200 messages with the facts a careful human would
keep, each named by its kind and a few words the written sentence must contain (a
date among them when the fact is dated). Filler turns (questions, tool requests,
small talk, pasted output) pad the conversation and are negatives: a fact taken
from them counts against precision. Conversations run through
``extract_conversation`` with the offline engine, as a dry run, on a workspace whose
clock says ``TODAY``: a fact dated from today instead of the conversation is wrong.
"""

from __future__ import annotations

import random
import re
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from extract.extraction_cases import Score

# Days after every conversation in the sets: extraction runs late, as it does for real.
TODAY = datetime(2026, 12, 10, 16, 40, tzinfo=UTC)


@dataclass(frozen=True)
class Want:
    kind: str
    words: tuple[str, ...]

    def matches(self, kind: str, text: str) -> bool:
        low = text.lower()
        return kind == self.kind and all(word.lower() in low for word in self.words)


def w(kind: str, *words: str) -> Want:
    return Want(kind, words)


@dataclass(frozen=True)
class Conversation:
    name: str
    messages: tuple[dict[str, str], ...]
    wants: tuple[Want, ...]
    also: tuple[Want, ...] = ()  # true but not required: neither found nor wrong
    person: str | None = None  # the name memory should use once it is known
    profile: str = ""  # PROFILE.md before the run
    session_id: str | None = None
    secrets: tuple[str, ...] = ()  # text that must never be written, secrets and their context
    forbid: tuple[str, ...] = ()  # e.g. a date resolved from today instead of the conversation
    tags: tuple[str, ...] = field(default_factory=tuple)


_QUESTIONS = [
    "how do I undo the last commit but keep the changes?",
    "what's the difference between a LEFT JOIN and a FULL OUTER JOIN again",
    "can you explain what a covering index is?",
    "why would pandas give me SettingWithCopyWarning here?",
    "is there a way to make grep ignore binary files",
    "what does `set -euo pipefail` actually do",
    "how many retries does boto3 do by default?",
    "what's a good regex for ISO dates",
    "hmm why is this slow",
    "ok and how would I test that?",
    "does python's sort keep equal items in order?",
    "wait what's the syntax for a dict comprehension with a condition",
]
_REQUESTS = [
    "show me a bash loop over all csv files in a folder",
    "write a quick function that chunks a list into pairs",
    "give me three names for a cli that converts units",
    "summarise that error for me",
    "rewrite this sentence to sound less stiff: we kindly request the feedback",
    "translate 'see you tomorrow' into Portuguese",
    "make that shorter",
    "format this as a table please",
    "draft a two-line commit message for the fix",
    "list the steps again but numbered",
]
_CHATTER = [
    "thanks!",
    "ok cool",
    "lol yes",
    "hmm not quite",
    "perfect, that worked",
    "right right",
    "brb coffee",
    "ok back",
    "nice",
    "that's fine I guess",
    "got it",
    "ugh, mondays",
]
_PASTES = [
    '```\nTraceback (most recent call last):\n  File "etl.py", line 42, in <module>\n'
    "KeyError: 'region'\n```",
    "here's the output:\n```\n3 passed, 1 failed in 2.31s\n```",
    "```sql\nSELECT id, count(*) FROM events GROUP BY 1 ORDER BY 2 DESC LIMIT 10;\n```",
]
_REPLIES = [
    "Sure, here it is.",
    "That happens because the index is not used for the sort.",
    "Here's a version that handles the empty case too.",
    "You can use `git reset --soft HEAD~1`.",
    "Yes, Python's sort is stable.",
    "Here are three options.",
    "The warning means you are writing to a copy of a slice.",
    "Done, shorter now.",
    "It makes the script stop at the first error.",
    "That looks right to me.",
]


def filler(seed: int, pairs: int) -> list[dict[str, str]]:
    """``pairs`` user/assistant exchanges that hold nothing worth keeping."""
    rng = random.Random(seed)
    pools = [_QUESTIONS, _REQUESTS, _CHATTER, _PASTES]
    out: list[dict[str, str]] = []
    for _ in range(pairs):
        pool = rng.choices(pools, weights=(4, 3, 3, 1))[0]
        out.append({"role": "user", "content": rng.choice(pool)})
        out.append({"role": "assistant", "content": rng.choice(_REPLIES)})
    return out


def talk(*turns: str) -> list[dict[str, str]]:
    """Alternate user and assistant turns, starting with the user."""
    roles = ("user", "assistant")
    return [{"role": roles[i % 2], "content": text} for i, text in enumerate(turns)]


def stamp(messages: list[dict[str, str]], start: str, key: str, minutes: int = 2) -> None:
    """Give every message a time, ``minutes`` apart, from ``start`` (ISO)."""
    first = datetime.fromisoformat(start)
    for index, message in enumerate(messages):
        moment = first.timestamp() + index * minutes * 60
        message[key] = datetime.fromtimestamp(moment, first.tzinfo).isoformat()


# --- sentence quality ---------------------------------------------------------------------

_VERB_WORDS = """
    is are was were be been being am has have had does do did will would can could should
    must may might shall uses use used prefers prefer wants want likes like works work lives
    live runs run ran starts start started leads lead owns own manages manage handles handle
    moved move moves switched switch chose choose decided decide dropped drop keeps keep kept
    needs need takes take took gets get got goes go went hates hate loves love writes write
    plans plan builds build built joins join joined reports report set sets called calls
    avoids avoid speaks speak says say said pays pay deploys deploy deployed hosts host
    replaced replace migrated migrate configured enabled installed added renamed created
    connected scheduled upgraded updated based means mean stays stay trains train
    presents present begins begin began ends end finishes finish releases release leaves
    leave left returns return reviews review answers answer gives give sends send"""
_VERBS = set(_VERB_WORDS.split())
_SUBORDINATE = re.compile(r"^(?:because|since|so|and|but|or|which|who)\b", re.I)
_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.I)
_DATE_LEAD = re.compile(r"^As of \d{4}-\d{2}-\d{2},\s*")


def _sentences(text: str) -> list[str]:
    body = text.strip()
    parts = re.split(r"(?<=[.!?;])\s+(?=\S)", body)
    return [p.strip() for p in parts if p.strip()]


def _has_verb(sentence: str) -> bool:
    words = re.findall(r"[A-Za-z']+", _DATE_LEAD.sub("", sentence))
    for word in words:
        low = word.lower()
        if low in _VERBS or low.endswith(("'s", "'re", "n't")):
            return True
        if len(low) > 4 and low.endswith("ed"):
            return True
    return False


@dataclass
class Quality:
    sentences: int = 0
    no_verb: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    user_named: list[str] = field(default_factory=list)  # "user" where the name is known
    fragment: list[str] = field(default_factory=list)  # starts lower-case or with "because"

    @property
    def bad(self) -> int:
        return len(self.no_verb) + len(self.doubled) + len(self.user_named) + len(self.fragment)

    def check(self, text: str, person: str | None) -> None:
        if person and re.search(r"\buser\b", text, re.I):
            self.user_named.append(text)
        if _DOUBLED.search(text):
            self.doubled.append(text)
        for sentence in _sentences(text):
            self.sentences += 1
            if not _has_verb(sentence):
                self.no_verb.append(sentence)
            body = _DATE_LEAD.sub("", sentence)
            if sentence[:1].islower() or _SUBORDINATE.match(body):
                self.fragment.append(sentence)


@dataclass
class ConversationMeasurement:
    overall: Score
    per_kind: dict[str, Score]
    quality: Quality
    secrets_written: int
    dates_right: int
    dates_wanted: int
    forbidden_written: int
    mistakes: list[str]


_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")


def run(case: Conversation) -> list[tuple[str, str]]:
    """(kind, sentence) of every fact the offline engine keeps from the conversation."""
    from memclaw.extract.pipeline import extract_conversation
    from memclaw.workspace import Scope, Workspace

    with tempfile.TemporaryDirectory() as root:
        ws = Workspace.open(Path(root), env={}, overrides={}, clock=lambda: TODAY)
        agent, _ = ws.init_agent("bench")
        if case.profile:
            (agent.path / "PROFILE.md").write_text(case.profile, encoding="utf-8")
        result = extract_conversation(
            Scope(agent),
            [dict(m) for m in case.messages],
            session_id=case.session_id,
            force=True,
            dry_run=True,
        )
        written = "\n".join(result.diffs.values())
    return [(fact.category, fact.text) for fact in result.facts] + [("(diff)", written)]


def measure_conversations(cases: list[Conversation]) -> ConversationMeasurement:
    from memclaw.gates import contains_secret

    overall, per, quality = Score(), {}, Quality()
    leaked = forbidden = dates_right = dates_wanted = 0
    mistakes: list[str] = []
    for case in cases:
        found = run(case)
        written = found.pop()[1]
        for secret in case.secrets:
            leaked += written.count(secret) + sum(secret in text for _, text in found)
        leaked += sum(contains_secret(text) for _, text in found)
        for bad in case.forbid:
            forbidden += sum(bad in text for _, text in found)
        unmatched = list(found)
        for want in case.wants:
            score = per.setdefault(want.kind, Score())
            dated = any(_ISO.fullmatch(word) for word in want.words)
            dates_wanted += dated
            hit = next((f for f in unmatched if want.matches(*f)), None)
            if hit is None:
                score.fn += 1
                overall.fn += 1
                mistakes.append(f"{case.name}: missed [{want.kind}] {' + '.join(want.words)}")
                continue
            unmatched.remove(hit)
            score.tp += 1
            overall.tp += 1
            dates_right += dated
        for kind, text in unmatched:
            if any(want.matches(kind, text) for want in case.wants + case.also):
                continue
            per.setdefault(kind, Score()).fp += 1
            overall.fp += 1
            mistakes.append(f"{case.name}: extra [{kind}] {text}")
        for _, text in found:
            quality.check(text, case.person)
    return ConversationMeasurement(
        overall, per, quality, leaked, dates_right, dates_wanted, forbidden, mistakes
    )
