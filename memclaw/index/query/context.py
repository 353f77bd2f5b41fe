"""The lines around a hit, like ``grep -C``: the turn before the answer often explains it.

Read from the file itself (files are the truth), only for the hits shown, and
only within the same file. Lines that no longer exist (the file changed since
it was indexed) are simply not there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from memclaw.errors import UsageError
from memclaw.workspace.paths import GLOBAL_DIR

if TYPE_CHECKING:
    from memclaw.index.rank import Hit
    from memclaw.workspace import Workspace

MAX_CONTEXT = 20


@dataclass(frozen=True)
class Around:
    """Up to N numbered lines before a hit's first line and after its last one."""

    before: tuple[tuple[int, str], ...]
    after: tuple[tuple[int, str], ...]

    def to_dict(self) -> dict[str, list[list[object]]]:
        return {
            "before": [[n, text] for n, text in self.before],
            "after": [[n, text] for n, text in self.after],
        }


def around(workspace: Workspace, hit: Hit, lines: int) -> Around:
    """The ``lines`` lines before and after ``hit`` in its file (blank lines included)."""
    if not 0 <= lines <= MAX_CONTEXT:
        raise UsageError(f"--context must be between 0 and {MAX_CONTEXT}, got {lines}")
    if lines == 0:
        return Around((), ())
    base = workspace.global_dir if hit.agent == GLOBAL_DIR else workspace.agent(hit.agent).path
    try:
        text = (base / hit.file).read_text(encoding="utf-8", errors="replace").split("\n")
    except OSError:
        return Around((), ())
    if text and text[-1] == "":
        text.pop()
    first = max(1, hit.line - lines)
    last = min(len(text), hit.end_line + lines)
    before = tuple((n, text[n - 1]) for n in range(first, min(hit.line, len(text) + 1)))
    after = tuple((n, text[n - 1]) for n in range(hit.end_line + 1, last + 1))
    return Around(before, after)
