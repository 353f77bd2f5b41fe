"""Noise fragments cut out of useful messages: routing headers, media, compaction logs."""

from __future__ import annotations

import re
from typing import Final

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
