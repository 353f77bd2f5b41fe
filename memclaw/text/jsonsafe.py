"""One JSON reader for everything memclaw decodes: bounded nesting depth.

``json.loads`` recurses once per level of nesting, so a few kilobytes of ``[[[[...``
(in a transcript, a snapshot manifest, a model's answer or its tool arguments) end in a
RecursionError instead of a message. Real memclaw JSON is a handful of levels deep; we
refuse anything deeper than :data:`MAX_DEPTH` before decoding it, with an error that
callers already handle because it is a ``json.JSONDecodeError``.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 64
_OPEN = frozenset("[{")
_CLOSE = frozenset("]}")
# A JSON string (escapes included, unterminated at the end of the text), or one bracket:
# brackets inside strings must not count.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


class JSONTooDeepError(json.JSONDecodeError):
    """The text nests arrays and objects deeper than a reader accepts."""


def too_deep_at(text: str, max_depth: int = MAX_DEPTH) -> int | None:
    """The offset of the first bracket nested deeper than ``max_depth``, or None."""
    if text.count("[") + text.count("{") <= max_depth:
        return None  # cannot be that deep: the common case costs two C-speed scans
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in _OPEN:
            depth += 1
            if depth > max_depth:
                return match.start()
        elif token in _CLOSE:
            depth = max(depth - 1, 0)
    return None


def loads(text: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` that raises JSONTooDeepError beyond ``max_depth`` levels of nesting."""
    position = too_deep_at(text, max_depth)
    if position is not None:
        raise JSONTooDeepError(f"nested deeper than {max_depth} levels", text, position)
    return json.loads(text)
