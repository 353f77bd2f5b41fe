"""How two memory entries relate: the same fact restated, or a fact changed.

"Prefers uv for Python projects" restates "prefers uv for python projects",
while "prefers Poetry for Python projects" changes it: same subject, new
value. Subjects are found by splitting a fact at its relation verb ("is",
"prefers", "uses", "runs on" ...); values are compared token by token, with
the lexicon of values that replace one another (uv and Poetry, Vim and
Emacs) for facts whose values share no other word.
"""

from __future__ import annotations

import re

from memclaw.extract.offline.rules import classify_sentence, identity_fact
from memclaw.facts.lexicon import ALTERNATIVE_GROUP
from memclaw.text.likeness import STOPWORDS, containment, jaccard, tokens

_RELATION = re.compile(
    r"\b(is due|is set to|is scheduled for|moved to|runs on|lives in|works at|works as|reports to|"
    r"prefers|prefer|uses|use|likes|loves|hates|owns|is|are|was|were|has|have)\b",
    re.IGNORECASE,
)
_STAMP = re.compile(r"^\s*(?:as of \d{4}-\d{2}-\d{2},?|\(as of [^)]*\))\s*", re.IGNORECASE)


def _split(text: str) -> tuple[frozenset[str], frozenset[str], str] | None:
    body = _STAMP.sub("", text)
    match = _RELATION.search(body)
    if not match:
        return None
    subject = tokens(body[: match.start()])
    verb = match.group(1).lower()
    return subject, tokens(body[match.end() :]), verb


def restates(new: str, old: str) -> bool:
    """True when ``new`` says (nearly) what ``old`` already says."""
    a, b = tokens(new), tokens(old)
    if not a or not b:
        return False
    return jaccard(a, b) >= 0.75 or containment(a, b) >= 0.9 or containment(b, a) >= 0.9


def supersedes(new: str, old: str) -> bool:
    """True when ``new`` changes the value of the fact ``old`` states about the same subject."""
    first, second = _split(new), _split(old)
    if first is None or second is None:
        return False
    subject_a, value_a, verb_a = first
    subject_b, value_b, verb_b = second
    if subject_a != subject_b or verb_a != verb_b or value_a == value_b:
        return False
    shared = value_a & value_b
    only_a, only_b = value_a - value_b, value_b - value_a
    if not only_a or not only_b:
        return False  # one adds detail to the other: a restatement, not a change
    if shared and len(only_a) <= 3 and len(only_b) <= 3 and len(shared) >= max(len(only_a), 1):
        return True  # "uv for Python projects" vs "Poetry for Python projects"
    groups_a = {ALTERNATIVE_GROUP[t] for t in only_a if t in ALTERNATIVE_GROUP}
    groups_b = {ALTERNATIVE_GROUP[t] for t in only_b if t in ALTERNATIVE_GROUP}
    if groups_a & groups_b:
        return True  # "prefers uv" vs "prefers Poetry"
    specific = {t for t in subject_a if t not in STOPWORDS}
    # "The deadline is Dec 12" vs "The deadline is Dec 5": a named slot with a short value.
    return bool(specific) and len(value_a) <= 4 and len(value_b) <= 4


_KEYWORDS = (
    ("rule", r"\b(?:rule|never|always|must|don't ever|policy|not allowed)\b"),
    ("decision", r"\b(?:decided|decision|chose|switched|settled on|going with|migrat\w+ to)\b"),
    (
        "configuration",
        r"\b(?:configured|set up|installed|cron|heartbeat|runs on|runs every|deployed|api key|"
        r"channel id|sheet id|ip address|webhook)\b",
    ),
    ("relationship", r"\b(?:manager|boss|colleague|wife|husband|partner|friend|owns|reports to)\b"),
    ("project", r"\b(?:project|deadline|building|working on|launch\w*|milestone|due|budget)\b"),
    (
        "technical",
        r"\b(?:stack|backend|frontend|framework|language|database|written in|built with)\b",
    ),
    ("preference", r"\b(?:prefers?|likes?|loves?|hates?|dislikes?|enjoys?|favou?rite)\b"),
    ("identity", r"\b(?:name is|lives in|based in|works at|works as|timezone|born)\b"),
)


def guess_category(text: str, day: str = "1970-01-01") -> str:
    """The most likely entry category of ``text`` (``other`` when nothing fits)."""
    if identity_fact(text) is not None and not re.search(r"\b(?:prefer|decid|rule)", text, re.I):
        return "identity"
    fact = classify_sentence(text, day)
    if fact is not None:
        return fact.category
    for category, pattern in _KEYWORDS:
        if re.search(pattern, text, re.IGNORECASE):
            return category
    return "other"
