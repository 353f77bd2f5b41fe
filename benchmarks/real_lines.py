"""Three questions the real-model lane asks of every line a path added to memory.

``real_soundness`` calls these after each path, on the lines each memory file holds
that it did not hold before:

* **Tool markup.** A tool call written as text instead of made: the markup of any
  server's dialect (``<tool_call>``, ``[TOOL_CALLS]``, ``functions.NAME:``,
  ``<|python_tag|>``, or a bare ``{"name": "memory_…", "arguments": …}``).
* **A duplicate.** A line memory now holds more often than before, and more than once:
  the same text after lower-casing, collapsing spaces and dropping a leading list marker
  (``-``, ``*``, ``+``, ``1.``). The curated memory (PROFILE.md, MEMORY.md, the entries,
  anything but the daily notes and the diary) is counted as one whole, each daily note on
  its own: a line a dream promotes from a day's note into MEMORY.md is not a duplicate,
  the same line twice in MEMORY.md is, and so is a line moved from one entry file to
  another only when the old copy stays.
* **An invented line.** A new line naming something, or giving a number, that memclaw was
  never given. Its names are its capitalised words that do not start a sentence, its
  numbers its runs of digits; a name counts as given when the same word occurs anywhere
  (in any case) in what the path gave memclaw, a number when the same number does
  (``07`` is ``7``). What the path gave is its own input (its command's words, the turns
  its driver told, the conversations the workspace held) plus memory before it and the
  date of the run (memclaw dates what it keeps: "As of 2026-12-06, …"). Only a name or a
  number is looked at: a rephrasing is not invention, and a line that merely sounds
  unlike the conversation is left to memclaw's own guard. Paths whose input is not
  followed here (a dream, a consolidation) skip this question.

Headings and the bookkeeping lines under a memory entry (``- created: 2026-12-06``) are
memclaw's own structure: they repeat by design and are not asked about duplicates or
invention (tool markup is looked for everywhere).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

TOOL_MARKUP = re.compile(
    r"</?tool_call>|\[TOOL_CALLS\]|\bfunctions\.\w+:|<\|python_tag\|>"
    r"|\{\s*\"name\"\s*:\s*\"memory_\w*\"\s*,\s*\"arguments\"",
    re.IGNORECASE,
)
LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
ENTRY_META = re.compile(r"^- [a-z_]+: ")
SENTENCE_END = re.compile(r"[.!?]\s+")
WORD = re.compile(r"[^\W\d_]+")
NUMBER = re.compile(r"\d+")
# Markdown a line may open with before its first word: emphasis, a [category] tag.
OPENING = re.compile(r"^(?:[\s*_>`#]|\[[^\]]*\])*")


def is_structure(rel: str, line: str) -> bool:
    """A heading, a blank line, or an entry's bookkeeping: memclaw's structure, not memory."""
    text = line.strip()
    if not text or text.startswith("#") or not WORD.search(text):
        return True
    return rel.startswith("entries/") and bool(ENTRY_META.match(line))


def normal(line: str) -> str:
    """A line as duplicates are compared: no list marker, lower case, single spaces."""
    return " ".join(LIST_MARKER.sub("", line).lower().split())


def _group(rel: str) -> str:
    if rel.startswith("DREAMS"):
        return ""  # the diary is the dream's own log: it may say a thing twice
    return rel if rel.startswith("memory/") else "curated"


def _counts(memory: dict[str, str]) -> dict[str, Counter[str]]:
    groups: dict[str, Counter[str]] = {}
    for rel, text in memory.items():
        group = _group(rel)
        if group:
            lines = (normal(line) for line in text.splitlines() if not is_structure(rel, line))
            groups.setdefault(group, Counter()).update(lines)
    return groups


def duplicates(before: dict[str, str], after: dict[str, str]) -> list[tuple[str, str]]:
    """(file, line) for each new line memory now holds more often than before, and twice."""
    was, now = _counts(before), _counts(after)
    found = []
    for rel, text in after.items():
        old = set(before.get(rel, "").splitlines())
        counted = now.get(_group(rel), Counter())
        earlier = was.get(_group(rel), Counter())
        for line in text.splitlines():
            if line in old or is_structure(rel, line) or not _group(rel):
                continue
            key = normal(line)
            if counted[key] > 1 and counted[key] > earlier[key]:
                found.append((rel, line))
    return found


def names_and_numbers(line: str) -> list[str]:
    """The capitalised words that do not start a sentence, and the numbers, of a line."""
    found: list[str] = []
    text = LIST_MARKER.sub("", line)
    for sentence in SENTENCE_END.split(text):
        rest = OPENING.sub("", sentence)
        words = WORD.findall(rest)
        found += [w for w in words[1:] if w[0].isupper()]
    found += NUMBER.findall(text)
    return found


def _number(digits: str) -> str:
    return digits.lstrip("0") or "0"


def vocabulary(told: str) -> tuple[set[str], set[str]]:
    """The words (lower case) and numbers of what a path gave memclaw."""
    words = {w.lower() for w in WORD.findall(told)}
    return words, {_number(n) for n in NUMBER.findall(told)}


def invented(added: Iterable[tuple[str, str]], told: str) -> list[tuple[str, str, str]]:
    """(file, line, the name or number never given) for each new line naming one."""
    words, numbers = vocabulary(told)
    found = []
    for rel, line in added:
        if is_structure(rel, line):
            continue
        for token in names_and_numbers(line):
            given = _number(token) in numbers if token.isdigit() else token.lower() in words
            if not given:
                found.append((rel, line, token))
                break
    return found
