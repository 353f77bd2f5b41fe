"""Where an owner's chat may write, and what it may never copy into shared memory.

TEAM files (AGENTS.md, SOUL.md, MEMORY.md ...) are injected into the prompt of
every owner of the agent, so a write there from one owner's conversation speaks
to all the others, and can carry that owner's personal memory out of their
folder. The rules:

* Without ``owner_writes_team`` (the default) every file write of an owner's
  chat lands in that owner's PERSONAL folder: a bare ``MEMORY.md`` means
  ``owners/<owner>/MEMORY.md``. TEAM files are changed only by the agent's
  operator (a chat or command without an owner). GLOBAL files are outside
  the agent folder and never reachable from a chat tool.
* With it, a TEAM write is still refused when the new text restates a line of
  the owner's personal files (see :func:`personal_lines_in`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memclaw.errors import UnsafePathError
from memclaw.text.likeness import containment, tokens
from memclaw.workspace.entries import ENTRIES_DIR

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

# A personal line needs this many content words to be recognisable: "- Helix" alone is a word
# anyone may write, "Alice's diary code is Bluebird" is hers.
MIN_PERSONAL_TOKENS = 2
# Share of a personal line's content words that, found together in one new line, reveal it.
LEAK_SHARE = 0.6
_ENTRY_META = re.compile(r"^(?:## +m-[0-9a-z]+|- [a-z_]+: .*)$")


@dataclass(frozen=True)
class PersonalLine:
    file: str
    text: str
    words: frozenset[str]


def writes_to_team(scope: Scope, name: str) -> bool:
    """True when ``name`` (already fenced) is a TEAM file rather than this owner's own."""
    return not (scope.prefix and name.startswith(scope.prefix))


def write_target(scope: Scope, name: str) -> str:
    """The file an owner's write of ``name`` really goes to (unchanged for the operator)."""
    if not scope.personal or not writes_to_team(scope, name):
        return name
    if scope.agent.settings.owner_writes_team:
        return name
    return scope.prefix + name


def _personal_lines(scope: Scope) -> list[PersonalLine]:
    found = []
    for info in scope.list_files():
        entries = info.name.startswith(f"{ENTRIES_DIR}/")
        for line in scope.read(info.name).splitlines():
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if entries and _ENTRY_META.match(stripped):
                continue  # ids and dates of entries are bookkeeping, not memories
            words = tokens(stripped)
            if len(words) >= MIN_PERSONAL_TOKENS:
                found.append(PersonalLine(scope.rel(info.name), stripped, words))
    return found


def personal_lines_in(scope: Scope, name: str, new_text: str) -> list[PersonalLine]:
    """Personal lines of ``scope``'s owner that ``new_text`` would copy into TEAM file ``name``.

    A personal line is copied when one new line holds at least ``LEAK_SHARE`` of
    its content words (``likeness.tokens``: stemmed, function words dropped, so
    rewording or padding does not hide it). What the TEAM file already says is
    not a leak: lines already present in it, and personal lines it already
    states (an owner's MEMORY.md often repeats team facts), are skipped.
    """
    current = scope.agent.read(name)
    present = {line.strip() for line in current.splitlines()}
    shared = [tokens(line) for line in present if line]
    personal = [
        p
        for p in _personal_lines(scope)
        if not any(containment(p.words, known) >= LEAK_SHARE for known in shared)
    ]
    copied: list[PersonalLine] = []
    for line in new_text.splitlines():
        stripped = line.strip()
        if not stripped or stripped in present:
            continue
        words = tokens(stripped)
        for p in personal:
            if p not in copied and containment(p.words, words) >= LEAK_SHARE:
                copied.append(p)
    return copied


def refuse_personal_lines(scope: Scope, name: str, new_text: str) -> None:
    """Raise when an owner's write would copy their personal memory into TEAM file ``name``."""
    if not scope.personal or not writes_to_team(scope, name):
        return
    copied = personal_lines_in(scope, name, new_text)
    if copied:
        files = ", ".join(sorted({p.file for p in copied}))
        raise UnsafePathError(
            f"{name} is shared with everyone using this agent and the text repeats "
            f"{len(copied)} line(s) of this person's own memory ({files}); "
            f"personal memory never goes into a shared file: write it to {scope.prefix}{name}"
        )
