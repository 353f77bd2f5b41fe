"""Which category a memory entry belongs to, guessed from its words.

(How a new statement relates to what is remembered is the one judgement's:
:mod:`memclaw.judgement`.)"""

from __future__ import annotations

import re

from memclaw.extract.offline.rules import classify_sentence, identity_fact

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
