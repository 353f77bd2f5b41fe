"""Whole messages that are noise: heartbeats, timestamps, bare acks, generic assistant replies."""

from __future__ import annotations

import re
from typing import Final

from memclaw.gates.noise.content import Message, content_text
from memclaw.gates.noise.fragments import strip_noise_fragments

_GENERIC_ACK_MAX_CHARS: Final = 160
_ACK_MAX_WORDS: Final = 4
_TOOL_ROLES: Final = frozenset({"tool", "function", "ipython"})

# ---------------------------------------------------------------------------------------------
# Whole-message noise
# ---------------------------------------------------------------------------------------------

_TIMESTAMP_RE: Final = re.compile(
    r"""
    [\[(]?
    (?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+)?           # optional weekday
    (?:
        \d{4}-\d{2}-\d{2}(?:[T\s]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)?  # ISO date[time]
      | \d{1,2}[/.]\d{1,2}[/.]\d{2,4}(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?    # 29/11/2026 10:00
      | \d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?                             # 12:34[:56]
      | \d{10}(?:\d{3})?                                                 # unix epoch (s/ms)
    )
    \s*(?:[ap]\.?m\.?)?
    \s*(?:z|utc|gmt|cet|cest|eet|eest|wet|west|bst|ist|jst|kst|hkt|sgt|aest|aedt
        |[pmce][sd]t|[+-]\d{2}:?\d{2})?                                    # zone
    [\])]?
    """,
    re.IGNORECASE | re.VERBOSE,
)
# Acknowledgements that carry no fact, in the languages memclaw users write in.
_ACK_WORDS: Final = frozenset(
    {
        # English
        "ok", "okay", "okey", "okie", "k", "kk", "sure", "done", "thanks", "thank", "you",
        "thx", "ty", "tysm", "tyvm", "yes", "yeah", "yea", "yep", "yup", "no", "nope", "nah",
        "cool", "great", "nice", "perfect", "awesome", "fine", "alright", "right", "got", "it",
        "noted", "roger", "understood", "sounds", "good", "lol", "haha", "hah", "hmm", "mm",
        "ah", "oh", "np", "sg", "lgtm", "ack", "cheers", "much", "so", "very", "a", "lot",
        "excellent", "wonderful", "brilliant", "agreed", "will", "do", "sweet", "gotcha",
        # Swedish
        "tack", "ja", "nej", "okej", "bra", "toppen", "japp", "nä", "jo", "visst", "absolut",
        "perfekt", "kanon", "fint", "najs", "så", "mycket", "uppfattat", "precis", "jajamen",
        # German / French / Spanish
        "danke", "nein", "gut", "klar", "alles", "genau", "merci", "oui", "non", "d'accord",
        "gracias", "sí", "si", "vale", "claro", "listo", "bueno",
        # Chinese / Japanese
        "好的", "好", "好吧", "了解", "谢谢", "多谢", "收到", "嗯", "嗯嗯", "行", "可以", "明白",
        "对", "是的", "没问题", "ok的", "はい", "ありがとう", "了解です", "わかりました", "うん",
    }
)  # fmt: skip
_WORD_RE: Final = re.compile(r"[\w']+")
_CJK_RE: Final = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")


def _segments_into_acks(token: str) -> bool:
    """Can ``token`` be written as a concatenation of ack words? ("好的谢谢", "okthanks")

    Chinese and Japanese do not separate words with spaces, so this is how multi-word acks
    are recognised there. For Latin script, one-letter pieces are not allowed, otherwise
    ordinary words could be spelled out of "a", "k", "so", "do" ...
    """
    if len(token) > 16:
        return False
    min_part = 1 if _CJK_RE.search(token) else 2
    reachable = [True] + [False] * len(token)
    for end in range(1, len(token) + 1):
        reachable[end] = any(
            reachable[start] and token[start:end] in _ACK_WORDS
            for start in range(max(0, end - 8), end - min_part + 1)
        )
    return reachable[-1]


def _is_ack(text: str) -> bool:
    words = _WORD_RE.findall(text.lower())
    if not words:
        return True  # only punctuation / emoji: "👍", "!!", "🙏🙏"
    if len(words) > _ACK_MAX_WORDS:
        return False
    return all(w in _ACK_WORDS or _segments_into_acks(w) for w in words)


def is_noise_message(msg: Message) -> bool:
    """True when the whole message is noise and should not reach the extractor.

    Covers heartbeat / no-reply markers, bare timestamps, one-word acknowledgements (several
    languages, emoji-only), routing metadata with nothing else, compaction audit logs, media
    placeholders with no caption, tool output, and system messages with no user-facing text
    (nothing left once the machinery above is stripped).
    """
    raw = content_text(msg).strip()
    if not raw:
        return True
    text = strip_noise_fragments(raw)
    if not text:
        return True  # nothing but heartbeats, routing headers, compaction logs or media
    role = msg.get("role")
    if role in _TOOL_ROLES:
        # Tool output is machine-facing; whatever in it matters reaches memory through the
        # assistant's reply, which is where it gets phrased for a human.
        return True
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    if all(_TIMESTAMP_RE.fullmatch(ln) for ln in lines):
        return True
    return len(lines) == 1 and _is_ack(lines[0])


# ---------------------------------------------------------------------------------------------
# Generic assistant acknowledgements
# ---------------------------------------------------------------------------------------------

# Each clause of a generic reply must match one of these in full. A single clause with real
# content ("your flight is on Friday") makes the whole reply worth keeping.
_GENERIC_CLAUSES: Final = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"(?:ok(?:ay)?|alright|sure(?: thing)?|of course|absolutely|certainly|definitely"
        r"|got it|understood|noted|great|perfect|awesome|excellent|wonderful|sounds good"
        r"|no problem|no worries|you'?re (?:very )?welcome|my pleasure|anytime|will do|done"
        r"|thanks|thank you(?: so much| very much)?|cheers|hi|hello|hey(?: there)?|gotcha"
        r"|makes sense|i see|i understand|right|yes|yep|indeed)",
        r"(?:i'?m |i am )?(?:always )?(?:happy|glad|here) to (?:help|assist)(?: you)?"
        r"(?: with that| anytime)?",
        r"glad (?:i could|to) (?:help|assist)",
        r"(?:i )?see (?:that )?you(?:'ve| have)? (?:shared|sent|posted|provided|uploaded|forwarded)"
        r"(?: (?:an?|the|some|your))?(?: \w+){0,2}",
        r"thanks for (?:sharing|the update|letting me know|the info(?:rmation)?|reaching out"
        r"|your message|the heads[- ]up)(?: \w+){0,2}",
        r"(?:how|what) (?:else )?(?:can|may|could) i (?:help|assist|do)(?: you)?(?: with)?"
        r"(?: (?:that|this|it))?(?: today| next| now| for you)?",
        r"(?:is there )?anything else(?: (?:i can (?:help|assist|do)(?: you)?(?: with)?"
        r"|you(?:'d like| need| want)(?: help with| me to do)?))?(?: today)?",
        r"let me know if (?:there(?:'s| is) )?(?:you (?:have|need) )?(?:anything|something)"
        r"(?: else)?(?: (?:i can (?:help|assist|do)(?: you)?(?: with)?|you need))?",
        r"let me know(?: if you (?:need|want) (?:anything|more|help))?",
        r"(?:feel free|don'?t hesitate) to (?:ask|reach out|let me know)(?: \w+){0,6}",
        r"(?:i'?ll|i will) (?:keep|bear) (?:that|this|it) in mind",
        r"(?:i'?m|i am) here (?:if|whenever) you need (?:me|anything|help)",
        r"(?:let'?s|happy to) (?:get started|dive in)",
        r"what would you like (?:to do|me to do)(?: next)?",
        # Swedish / Chinese
        r"(?:okej|absolut|visst|uppfattat|tack|toppen)",
        r"säg till om (?:det är )?(?:något|nåt) (?:mer|annat)(?: jag kan hjälpa till med)?",
        r"(?:好的|明白了?|收到|没问题)",
        r"(?:还有)?(?:什么|其他)(?:可以|能)(?:帮|帮助)(?:您|你)(?:的)?(?:吗)?",
    )
)
_CLAUSE_SPLIT_RE: Final = re.compile(r"[.!?,;:—–\n。！？，；、…]+|\s-\s")
_EMOJI_RE: Final = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D]+")


def is_generic_assistant_ack(msg: Message) -> bool:
    """True for short assistant boilerplate with nothing to remember.

    Only assistant messages under ~160 characters qualify, and every clause must be generic
    ("Sure, happy to help!"); one concrete clause ("Got it, the demo moved to Friday") is enough
    to keep the message.
    """
    if msg.get("role") != "assistant":
        return False
    text = strip_noise_fragments(content_text(msg)).strip()
    if not text or len(text) >= _GENERIC_ACK_MAX_CHARS:
        return False
    text = _EMOJI_RE.sub(" ", text).replace("’", "'")
    clauses = [c.strip() for c in _CLAUSE_SPLIT_RE.split(text)]
    clauses = [c for c in clauses if c]
    if not clauses:
        return True
    return all(any(p.fullmatch(c) for p in _GENERIC_CLAUSES) for c in clauses)
