"""Markdown surgery on ``## `` sections: replace a body, upsert a key, mark a section kept."""

from __future__ import annotations

import re

_H2 = re.compile(r"^## +(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)
_HEADING_LE2 = re.compile(r"^#{1,2} +\S", re.MULTILINE)
# A section a person wants left alone: its heading ends with the suffix, or it holds
# the marker line. Dreaming keeps it byte for byte and a ceiling never moves its lines.
KEEP_MARKER = "<!-- memclaw:keep -->"
KEEP_SUFFIX = "(hand-edited)"


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


def section_body(text: str, heading: str) -> str | None:
    """The body of ``## heading`` with surrounding blank lines stripped; None when missing."""
    span = _section_span(text, heading)
    if span is None:
        return None
    _, start, end = span
    return text[start:end].strip("\n") + "\n"
