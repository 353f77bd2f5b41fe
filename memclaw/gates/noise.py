"""Noise gate: decide which chat messages are worth showing to the memory extractor.

Extraction is an LLM call whose output becomes permanent memory, so anything that reaches it
costs tokens and risks junk memories ("User said ok"). Agent runtimes also inject a lot of
machinery into transcripts: heartbeat pings, routing headers, media placeholders, audit lines
about context compaction. This module strips all of that, in a fixed order:

1. flatten OpenAI-style content (string or list of parts) to plain text;
2. drop whole messages that are noise (heartbeats, bare timestamps, one-word acks, routing
   metadata, compaction logs, empty tool/system chatter);
3. drop short assistant boilerplate ("Got it! Let me know if there's anything else.");
4. strip noise fragments embedded in useful messages and drop what ends up empty;
5. truncate each message and keep only the most recent ones.

Secret redaction is deliberately *not* done here: the caller runs
:func:`memclaw.gates.secrets.redact` on whatever it is about to persist, so that the secret
gate also covers text that never went through this filter (manual ``memclaw add`` etc.).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Final

__all__ = [
    "AUTOMATED_TRIGGERS",
    "TRUNCATION_MARKER",
    "content_text",
    "filter_messages",
    "is_automated_session",
    "is_generic_assistant_ack",
    "is_noise_message",
    "strip_noise_fragments",
]

Message = Mapping[str, object]

AUTOMATED_TRIGGERS: Final = frozenset({"cron", "heartbeat", "automation", "schedule"})
TRUNCATION_MARKER: Final = "…"
_KEPT_ROLES: Final = frozenset({"user", "assistant"})
_TOOL_ROLES: Final = frozenset({"tool", "function", "ipython"})
_GENERIC_ACK_MAX_CHARS: Final = 160
_ACK_MAX_WORDS: Final = 4

# ---------------------------------------------------------------------------------------------
# Content flattening
# ---------------------------------------------------------------------------------------------

_TEXT_PART_TYPES: Final = frozenset({"text", "input_text", "output_text"})


def content_text(msg: Message) -> str:
    """Flatten a message's ``content`` to plain text.

    Accepts a string, ``None``, or a list of parts (strings or ``{"type": "text", "text":
    ...}`` dicts, including the Responses API ``input_text``/``output_text`` variants). Image,
    audio and other non-text parts carry nothing the extractor can use and are skipped.
    """
    content = msg.get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, Iterable) or isinstance(content, (bytes, Mapping)):
        return ""
    pieces: list[str] = []
    for part in content:
        if isinstance(part, str):
            pieces.append(part)
        elif isinstance(part, Mapping):
            text = part.get("text")
            if part.get("type", "text") in _TEXT_PART_TYPES and isinstance(text, str):
                pieces.append(text)
    return "\n".join(p for p in pieces if p)


# ---------------------------------------------------------------------------------------------
# Fragments: removed from inside otherwise useful messages
# ---------------------------------------------------------------------------------------------

_MEDIA_WORDS = (
    r"image|photo|picture|screenshot|video|audio|voice(?:[ _-](?:message|note|memo))?|sticker"
    r"|gif|file|document|media|attachment|bild|bilaga|ljud|图片|照片|语音|视频|文件|附件"
)
_MEDIA_FRAGMENT_RE: Final = re.compile(
    rf"<media:[^>\n]*>"  # <media:image>, <media:audio>
    rf"|<(?:{_MEDIA_WORDS})s?(?:[ _-]omitted)?>"  # <image omitted> (WhatsApp exports)
    rf"|\[(?:{_MEDIA_WORDS})s?(?:[ _-](?:attached|omitted|removed|sent|received))?"
    rf"(?:\s*[:#]\s*[^\]\n]*)?\]"  # [image], [Attachment: x.png], [voice message]
    rf"|\[(?:attached|sent|received)[ _-](?:{_MEDIA_WORDS})s?(?:\s*[:#]\s*[^\]\n]*)?\]"
    rf"|\[media attached(?:\s*[:#]\s*[^\]\n]*)?\]"
    rf"|\((?:{_MEDIA_WORDS})s? (?:omitted|attached)\)",
    re.IGNORECASE,
)
# Routing metadata the gateway prepends: "[from: telegram:123]", "channel: #ops".
# Keys that only ever name transport metadata...
_STRICT_ROUTING_KEYS = (
    r"channel|channel[_ -]?id|chat[_ -]?id|chat[_ -]?type|sender|sender[_ -]?id"
    r"|sender[_ -]?name|recipient|message[_ -]?id|msg[_ -]?id|thread[_ -]?id|reply[_ -]?to"
    r"|session[_ -]?id|session[_ -]?key|conversation[_ -]?id|user[_ -]?id|guild[_ -]?id"
    r"|room[_ -]?id|account[_ -]?id|surface|received[_ -]?at"
)
# ...and everyday words that are metadata only in brackets or with a one-token value
# ("from: telegram:123"), never in "Source: the docs say otherwise".
_LOOSE_ROUTING_KEYS = (
    r"from|to|via|source|origin|provider|platform|account|room|chat|thread|conversation"
    r"|session|guild|timestamp"
)
_ROUTING_KEYS = f"{_STRICT_ROUTING_KEYS}|{_LOOSE_ROUTING_KEYS}"
_PLATFORMS = (
    r"telegram|whatsapp|discord|slack|signal|imessage|sms|matrix|teams|webchat|messenger"
    r"|line|wechat|email|mattermost|irc"
)
_BRACKET_ROUTING_RE: Final = re.compile(rf"\[(?:{_ROUTING_KEYS})\s*[:=][^\]\n]*\]", re.IGNORECASE)
# Message envelopes: "[Telegram Anna (@anna) id:42 2026-11-29 10:00 UTC] ..."
_ENVELOPE_RE: Final = re.compile(rf"^[ \t]*\[(?:{_PLATFORMS})\b[^\]\n]*\][ \t]*", re.IGNORECASE)
_ROUTING_LINE_RE: Final = re.compile(
    rf"[ \t]*(?:\[(?:{_ROUTING_KEYS})\s*[:=][^\]\n]*\][ \t]*)+"  # one or more [key: value]
    rf"|[ \t]*(?:{_STRICT_ROUTING_KEYS})[ \t]*[:=][ \t]*\S[^\n]*"  # channel_id: 123
    rf"|[ \t]*(?:{_LOOSE_ROUTING_KEYS})[ \t]*[:=][ \t]*\S+[ \t]*",  # from: telegram:123
    re.IGNORECASE,
)
_HEARTBEAT_LINE_RE: Final = re.compile(
    r"[ \t]*(?:\[heartbeat\][^\n]*|heartbeat(?:_ok)?|no_reply|no[ _-]reply[ _-]needed"
    r"|\[no_reply\]|\(no reply\))[ \t]*[.!]?[ \t]*",
    re.IGNORECASE,
)
# Upper-case protocol markers glued into real replies ("Done. HEARTBEAT_OK").
_INLINE_MARKER_RE: Final = re.compile(r"\b(?:HEARTBEAT_OK|NO_REPLY)\b")
_COMPACTION_START_RE: Final = re.compile(
    r"[ \t]*(?:\[(?:auto[ _-]?)?compact(?:ion|ed)[^\]\n]*\]"
    r"|(?:a\s+)?summary of (?:the )?(?:earlier|previous|prior) (?:conversation|messages|context)"
    r" (?:was|has been|were) compacted"
    r"|(?:the )?(?:conversation|context|history|session)(?: history)? (?:was|has been) compacted"
    r"|compacted \d+ (?:messages|turns|tokens)"
    r"|<compaction(?:[ _-]\w+)*>)",
    re.IGNORECASE,
)
_COMPACTION_TAG_BLOCK_RE: Final = re.compile(
    r"<(compaction(?:[ _-]\w+)*)>.*?</\1>", re.IGNORECASE | re.DOTALL
)
_MULTI_SPACE_RE: Final = re.compile(r"[ \t]{2,}")
_BLANK_RUN_RE: Final = re.compile(r"\n{3,}")


def _drop_compaction_blocks(lines: list[str]) -> list[str]:
    """Remove compaction audit paragraphs: from a marker line to the next blank line."""
    out: list[str] = []
    skipping = False
    for line in lines:
        if skipping:
            if not line.strip():
                skipping = False
                out.append(line)
            continue
        if _COMPACTION_START_RE.match(line):
            skipping = True
            continue
        out.append(line)
    return out


def strip_noise_fragments(text: str) -> str:
    """Remove embedded noise from a useful message and tidy the whitespace left behind.

    Removes media boilerplate (``<media:image>``, ``[image attached]``, ``[Attachment: x.png]``),
    routing metadata (``[from: telegram:123]`` anywhere; bare ``channel: ...`` header lines only
    in the leading header block, so a pasted e-mail body keeps its ``From:`` line), compaction
    audit blocks and heartbeat markers. Blank-line runs collapse to a single blank line.
    """
    if not text:
        return ""
    text = _COMPACTION_TAG_BLOCK_RE.sub("", text.replace("\r\n", "\n"))
    lines = _drop_compaction_blocks(text.split("\n"))

    # Leading header block: routing lines (bracketed or bare) before the first real line.
    i = 0
    while i < len(lines) and (not lines[i].strip() or _ROUTING_LINE_RE.fullmatch(lines[i])):
        i += 1
    lines = lines[i:]

    cleaned: list[str] = []
    for line in lines:
        if _HEARTBEAT_LINE_RE.fullmatch(line):
            continue
        new = _ENVELOPE_RE.sub("", line)
        new = _MEDIA_FRAGMENT_RE.sub("", new)
        new = _BRACKET_ROUTING_RE.sub("", new)
        new = _INLINE_MARKER_RE.sub("", new)
        if new != line:
            # Only lines we edited get their spacing normalised; code indentation elsewhere
            # is left alone.
            new = _MULTI_SPACE_RE.sub(" ", new).strip()
            if not new:
                continue
        cleaned.append(new.rstrip())
    out = "\n".join(cleaned)
    return _BLANK_RUN_RE.sub("\n\n", out).strip()


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


# ---------------------------------------------------------------------------------------------
# Pipeline
# ---------------------------------------------------------------------------------------------


def _truncate(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    keep = max_chars - len(TRUNCATION_MARKER)
    return text[:keep].rstrip() + TRUNCATION_MARKER


def filter_messages(
    messages: Iterable[Message], *, max_chars: int = 2000, max_messages: int = 30
) -> list[dict[str, str]]:
    """Run the full noise pipeline and return ``[{"role", "content"}]`` for user/assistant.

    Order matters: noise is dropped *before* the ``max_messages`` window is applied, so the
    window holds the last useful messages rather than the last heartbeats. Each surviving
    message is at most ``max_chars`` long including the trailing "…" marker.

    Secrets are not redacted here; callers must pass anything they persist through
    :func:`memclaw.gates.secrets.redact`.
    """
    if max_chars < len(TRUNCATION_MARKER) + 1:
        raise ValueError("max_chars must leave room for text and the truncation marker")
    if max_messages < 0:
        raise ValueError("max_messages must be >= 0")
    kept: list[dict[str, str]] = []
    for msg in messages:
        role = msg.get("role")
        if not isinstance(role, str) or role not in _KEPT_ROLES:
            continue
        if is_noise_message(msg) or is_generic_assistant_ack(msg):
            continue
        text = strip_noise_fragments(content_text(msg))
        if not text:
            continue
        kept.append({"role": role, "content": _truncate(text, max_chars)})
    if max_messages == 0:
        return []
    return kept[-max_messages:]


def is_automated_session(trigger: str | None, session_id: str | None) -> bool:
    """True when a run was started by a scheduler rather than a person.

    Recall and capture are skipped for such runs: a cron job's transcript is the agent
    talking to itself, and storing it would fill memory with system-generated noise. Either
    signal suffices: the runtime's trigger name, or a session key such as
    ``agent:main:cron:nightly`` / ``cron:backup``.
    """
    if trigger and trigger.strip().lower() in AUTOMATED_TRIGGERS:
        return True
    if not session_id:
        return False
    sid = session_id.strip().lower()
    for t in AUTOMATED_TRIGGERS:
        if sid == t or sid.startswith(f"{t}:") or f":{t}:" in sid or sid.endswith(f":{t}"):
            return True
    return False
