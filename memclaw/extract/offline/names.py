"""The user's name in memory: once it is known, facts say "Dana", not "user".

The name comes from PROFILE.md (what memory already says about who the user is)
or from what the conversation itself says ("I'm Dana Okafor").
"""

from __future__ import annotations

import re

from memclaw.extract.offline.people import NAME, NOT_A_NAME, Fact

# "- Dana Okafor is a ...", "- User is Dana Okafor", "- Name: Dana", "- Sam Whitfield, dev at X"
_PROFILE_NAME = re.compile(
    rf"^\s*[-*]\s+(?:(?:As of [\d-]+,\s+)?(?:the\s+)?user(?:'s name)?\s+is\s+({NAME})|"
    rf"(?i:name)\s*:\s*({NAME})|({NAME})(?:\s+is\b|,))",
    re.IGNORECASE | re.MULTILINE,
)
_IDENTITY_HEADING = re.compile(r"^##\s+(?:identity|about|who)\b", re.IGNORECASE | re.MULTILINE)


def known_person(*profiles: str) -> str | None:
    """The user's first name from the Identity part of a profile, or None."""
    for profile in profiles:
        heading = _IDENTITY_HEADING.search(profile)
        if heading is None:
            continue
        body = profile[heading.end() :]
        body = body.split("\n## ", 1)[0]
        for match in _PROFILE_NAME.finditer(body):
            name = next(group for group in match.groups() if group)
            if name.split()[0] not in NOT_A_NAME:
                return name.split()[0]
    return None


_LABEL = re.compile(r"^(As of [\d-]+,\s+)?[Uu]ser (preference|rule)(\s*\([^)]*\))?:\s*")
_USERS = re.compile(r"\b(?:the\s+)?user's\b|\b(?:the\s+)?user\b", re.IGNORECASE)


def personal(text: str, name: str) -> str:
    """``text`` with the user called by ``name``: "User rule: ..." -> "Dana's rule: ..."."""
    text = _LABEL.sub(
        lambda m: f"{m.group(1) or ''}{name}'s {m.group(2)}{m.group(3) or ''}: ", text
    )

    def swap(match: re.Match[str]) -> str:
        return f"{name}'s" if match.group(0).lower().endswith("'s") else name

    return _USERS.sub(swap, text)


def personal_fact(fact: Fact, name: str | None) -> Fact:
    """``fact`` with the user's name for "user", unless it is the fact that names them."""
    if not name or (fact.category == "identity" and fact.entity not in {"", "user"}):
        return fact
    return Fact(fact.category, personal(fact.text, name), fact.entity, fact.section)
