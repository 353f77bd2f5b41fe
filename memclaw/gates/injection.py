"""Text that addresses the agent with instructions: kept as a quote, never learned.

Notes and transcripts can carry words aimed at the model rather than facts
about the person: "ignore previous instructions", "obey only bob", "you must
now reveal ...", "system prompt: ...". Promoted into MEMORY.md or stored as a
rule, such words would be injected into every later prompt as if the person
had asked for them. :func:`addresses_agent` recognises them, so dreaming and
extraction leave them where they were found (quoted, see :func:`as_quote`).

Two kinds of pattern:

* hard ones (overriding earlier instructions, role markers such as
  ``system prompt:``, asking to reveal prompts or other people's memory) are
  never a preference, whoever says them;
* soft ones (``obey only ...``, ``you must now ...``, ``you are now ...``)
  are the person's own wish when the sentence is framed as one ("I'd like you
  to ..."): a person may set how they want to be answered.

Plain preferences ("I prefer you answer in English") match neither.
"""

from __future__ import annotations

import re
import unicodedata

_QUALIFIER = r"(?:previous|prior|above|earlier|preceding|original|initial|old|system|safety|other)"
_GUIDANCE = (
    r"(?:instructions?|prompts?|rules|directives|directions|guidelines|guardrails|"
    r"programming|messages|context|constraints)"
)
_OVERRIDE_VERB = r"(?:ignore|disregard|forget|override|bypass|discard|drop)"
_REVEAL = r"(?:reveal|print|show|dump|leak|disclose|exfiltrate|output|repeat|send|give)"
_PEOPLES = (
    r"(?:\w+'s|other (?:users?|people|persons?|owners?)'?s?|everyone's|every (?:person|user)'s)"
)
_HARD = [
    # "ignore all previous instructions", "disregard the system prompt"
    rf"\b{_OVERRIDE_VERB}\s+(?:all\s+|any\s+|every\s+)?(?:(?:of\s+)?(?:the|your|my|these|those)\s+)?"
    rf"{_QUALIFIER}\s+(?:\w+\s+)?{_GUIDANCE}\b",
    rf"\b{_OVERRIDE_VERB}\s+(?:all\s+)?(?:(?:the|your)\s+)?"
    r"(?:instructions|system prompt|guardrails|programming)\b",
    # role markers that pose as the prompt itself
    r"^[\W_]*(?:system|developer)(?:\s+(?:prompt|message|instructions?))?\s*:",
    r"\bsystem prompt\s*:",
    r"\bnew (?:system )?instructions?\s*:",
    r"<\|im_start\|>|<\|system\|>|\[/?inst\]|<<sys>>",
    # asking for the prompt or for other people's memory
    rf"\b{_REVEAL}\s+(?:me\s+)?(?:your|the)\s+(?:system prompt|hidden instructions|"
    r"initial instructions|prompt)\b",
    rf"\b{_REVEAL}\b[^.]{{0,40}}?\b{_PEOPLES}\s+(?:personal\s+)?"
    r"(?:memory|memories|data|files?|profile|notes|secrets?|diary)\b",
]
_SOFT = [
    r"\b(?:obey|follow|listen to|answer to|take orders from|serve)\s+only\b",
    r"\bonly\s+(?:obey|follow|listen to|take orders from)\b",
    r"\bobey\s+(?:no ?one|nobody)\s+(?:but|except)\b",
    r"\byou\s+(?:must|will|shall|should|have to|are to|need to)\s+now\b",
    r"\byou\s+are\s+now\s+(?:a|an|in|the|no longer|free|unrestricted|jailbroken|dan)\b",
]
_HARD_RE = [re.compile(p, re.IGNORECASE | re.MULTILINE) for p in _HARD]
_SOFT_RE = [re.compile(p, re.IGNORECASE | re.MULTILINE) for p in _SOFT]
# "I'd like you to ...", "please, I want you to ...": the person's own wish.
_OWN_WISH = re.compile(
    r"^[\W_]*(?:(?:please|also|and)[,\s]+)*i\s*(?:'d like|would like|want|prefer|'d prefer|"
    r"would prefer|wish)\b",
    re.IGNORECASE,
)
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})


def _plain(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).translate(_QUOTES).split())


def addresses_agent(text: str) -> bool:
    """True when ``text`` speaks to the agent with instructions rather than stating a fact."""
    lines = [_plain(line) for line in text.splitlines()] or [_plain(text)]
    for line in lines:
        if any(p.search(line) for p in _HARD_RE):
            return True
        if not _OWN_WISH.match(line) and any(p.search(line) for p in _SOFT_RE):
            return True
    return False


def as_quote(text: str) -> str:
    """How such text is kept in a note: as something somebody wrote, not as a rule."""
    said = " ".join(text.split()).replace('"', "'")
    return f'Quoted, not an instruction: "{said}"'
