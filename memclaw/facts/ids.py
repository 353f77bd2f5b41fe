"""A fact's id: the same statement in the same scope has the same id wherever it lives.

The id hashes the normalised statement, not its file or line, so a fact that
MEMORY.md, an entry and a daily note all state is one fact living in three
places: ``forget`` and ``why`` find every copy from one id, and an edit that
only moves a line keeps its id.
"""

from __future__ import annotations

import hashlib
import re

# What `forget AGENT f1a2b3c4d` and `facts confirm AGENT f1a2b3c4d` recognise as an id.
FACT_ID = re.compile(r"^f[0-9a-f]{8}$")

_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
# The offline engine files a daily-note line as ``- [preference] Maya prefers tea``;
# MEMORY.md states the same fact without the tag, and both must have one id.
CATEGORY_TAG = re.compile(r"^\[([A-Za-z][\w-]*)\]\s+")
_COMMENT = re.compile(r"<!--.*?-->")
_EMPHASIS = re.compile(r"[*_`]+")
_SPACE = re.compile(r"\s+")


def normalise_statement(line: str) -> str:
    """The statement a list line makes, without list marker, category tag, comments, emphasis
    or case."""
    text = CATEGORY_TAG.sub("", _MARKER.sub("", line).lstrip())
    text = _COMMENT.sub(" ", text)
    text = _EMPHASIS.sub("", text)
    text = _SPACE.sub(" ", text).strip().rstrip(".;").strip()
    return text.casefold()


def fact_id(statement: str, scope_prefix: str = "") -> str:
    """``f`` and 8 hex digits; scope_prefix is ``Scope.prefix`` ("" for the team's memory)."""
    digest = hashlib.sha1(f"{scope_prefix}\0{normalise_statement(statement)}".encode()).hexdigest()
    return "f" + digest[:8]


# An entry's bookkeeping under its text (``- category: project``, ``- created: 2026-12-01``):
# no statement, so no fact in any reader (facts, search hits, why).
META = re.compile(r"^[a-z_]+:\s*\S*$")


def is_meta(line: str) -> bool:
    """True for a ``- key: value`` bookkeeping line, which states no fact."""
    marker = _MARKER.match(line)
    return marker is not None and bool(META.match(line[marker.end() :].strip()))
