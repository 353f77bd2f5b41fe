"""Flattening a chat message's content (a string or a list of parts) to plain text."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

Message = Mapping[str, object]

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
