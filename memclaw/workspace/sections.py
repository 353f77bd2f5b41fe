"""Markdown surgery on ``## `` sections: replace, upsert a key, and cut at a ceiling."""

from __future__ import annotations

import re
from dataclasses import dataclass

_H2 = re.compile(r"^## +(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)
_HEADING_LE2 = re.compile(r"^#{1,2} +\S", re.MULTILINE)
TRUNCATION_PREFIX = "> ✂ memclaw truncated this file"
_MARKER_LINE = re.compile(r"\n*^> ✂ memclaw truncated this file.*\n?", re.MULTILINE)


def _section_span(text: str, heading: str) -> tuple[int, int, int] | None:
    """(heading start, body start, body end) of the first ``## heading``, case-insensitive."""
    wanted = heading.strip().lstrip("#").strip().lower()
    for match in _H2.finditer(text):
        if match.group(1).strip().lower() == wanted:
            body_start = match.end() + 1 if match.end() < len(text) else match.end()
            nxt = _HEADING_LE2.search(text, body_start)
            return match.start(), body_start, nxt.start() if nxt else len(text)
    return None


def replace_section(text: str, heading: str, body: str) -> str:
    """Set the body of ``## heading``; the section is appended when missing."""
    body = body.strip("\n") + "\n"
    span = _section_span(text, heading)
    if span is None:
        title = heading.strip().lstrip("#").strip()
        sep = "" if not text or text.endswith("\n\n") else "\n" if text.endswith("\n") else "\n\n"
        return f"{text}{sep}## {title}\n\n{body}"
    _, start, end = span
    head, tail = text[:start], text[end:]
    if not head.endswith("\n"):  # the heading is the last line and has no newline
        head += "\n"
    return head + "\n" + body + ("\n" if tail else "") + tail


def upsert_kv(text: str, key: str, value: str, section: str | None = None) -> str:
    """Set a ``- key: value`` line, inside ``## section`` when given; added when missing."""
    line = f"- {key.strip()}: {value.strip()}"
    pattern = re.compile(
        rf"^[ \t]*[-*][ \t]+(\*\*)?{re.escape(key.strip())}(\*\*)?[ \t]*:.*$",
        re.MULTILINE | re.IGNORECASE,
    )
    if section is None:
        start, end = 0, len(text)
    else:
        span = _section_span(text, section)
        if span is None:
            return replace_section(text, section, line)
        _, start, end = span
    match = pattern.search(text, start, end)
    if match:
        return text[: match.start()] + line + text[match.end() :]
    region = text[start:end].rstrip("\n")
    if section is not None and not region.strip():
        return replace_section(text, section, line)  # same spacing as any section body
    insert_at = start + len(region)
    after = text[insert_at:]
    if after and not after.startswith("\n"):
        line += "\n"
    result = text[:insert_at] + ("\n" if region else "") + line + after
    return result if result.endswith("\n") else result + "\n"


@dataclass(frozen=True)
class CeilingResult:
    text: str
    cut: bool
    original_chars: int
    kept_chars: int


def truncation_marker(ceiling: int, removed: int) -> str:
    return (
        f"{TRUNCATION_PREFIX} at its {ceiling}-character ceiling: {removed} characters "
        "of the end were cut (the previous version is in history).\n"
    )


def strip_marker(text: str) -> str:
    return _MARKER_LINE.sub("\n", text).rstrip("\n") + "\n" if text.strip() else text


def apply_ceiling(text: str, ceiling: int) -> CeilingResult:
    """Cut ``text`` at the last ``## `` boundary that fits under ``ceiling`` characters.

    The head of the file is what matters most, so the tail goes. A visible
    marker tells readers (and the model) that something was cut. 0 = no ceiling.
    """
    original = len(text)
    if ceiling <= 0 or original <= ceiling:
        return CeilingResult(text, False, original, original)
    text = strip_marker(text)  # never stack a second marker under an old one
    # Room for the marker itself, sized for the worst case of its numbers.
    room = ceiling - len(truncation_marker(ceiling, len(text))) - 2
    boundaries = [m.start() for m in _H2.finditer(text) if 0 < m.start() <= room]
    if boundaries:
        cut_at = boundaries[-1]
    else:  # a single oversized section: fall back to the last whole line that fits
        cut_at = text.rfind("\n", 0, max(room, 0)) + 1
    head = text[:cut_at].rstrip("\n")
    removed = len(text) - len(head)
    kept = (head + "\n\n" if head else "") + truncation_marker(ceiling, removed)
    return CeilingResult(kept, True, original, len(kept))
