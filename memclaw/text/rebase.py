"""Re-apply a rewrite of a text onto a newer version of it, as line operations.

A model reads MEMORY.md, thinks for a minute, and answers with the file
rewritten. If someone else wrote the file meanwhile (an extraction, a chat's
tool, a person's editor), writing the answer would undo their write, and
dropping the answer would lose the model's. Instead the answer is read as what
it did to the version it was given (these lines replaced by those, these
removed, those inserted after that line), and that is done to the version on
disk now: each line it touched is found where it stands now, lines the other
writer added stay, a line both wrote is there once, and a line the other
writer already removed or changed is not removed again.
"""

from __future__ import annotations

from difflib import SequenceMatcher


def rebase(base: str, rewritten: str, current: str) -> str:
    """``current`` with what turned ``base`` into ``rewritten`` done to it."""
    if current == base:
        return rewritten
    old, new, now = (_lines(text) for text in (base, rewritten, current))
    # Where each line of the version the rewrite was made from stands now.
    where: dict[int, int] = {}
    for block in SequenceMatcher(None, old, now, autojunk=False).get_matching_blocks():
        where.update((block.a + k, block.b + k) for k in range(block.size))
    changes = SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    changes = [op for op in changes if op[0] != "equal"]
    deleted = {where[i] for _, i1, i2, _, _ in changes for i in range(i1, i2) if i in where}
    staying = {line for index, line in enumerate(now) if index not in deleted}
    inserted: dict[int, list[str]] = {}
    for _, i1, i2, j1, j2 in changes:
        # A line the other writer wrote too is there once; blank lines come with the rest.
        fresh = [line for line in new[j1:j2] if not line.strip() or line not in staying]
        if any(line.strip() for line in fresh):
            inserted.setdefault(_position(where, i1, i2, len(now)), []).extend(fresh)
    out: list[str] = []
    for index, line in enumerate(now):
        out += inserted.get(index, [])
        if index not in deleted:
            out.append(line)
    out += inserted.get(len(now), [])
    return "".join(out)


def _lines(text: str) -> list[str]:
    return (text if not text or text.endswith("\n") else text + "\n").splitlines(keepends=True)


def _position(where: dict[int, int], i1: int, i2: int, end: int) -> int:
    """Where lines that replaced ``old[i1:i2]`` go now: after the nearest line before
    them that is still there, else before the nearest one after them, else at the end."""
    for i in range(i1 - 1, -1, -1):
        if i in where:
            return where[i] + 1
    return min((at for i, at in where.items() if i >= i2), default=end)
