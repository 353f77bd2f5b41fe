"""Recall from several providers composed under one character budget.

Each enabled provider is guaranteed an equal share of the budget; what a
provider leaves unused goes to the others, in order. So a provider with a lot
to say can use the room the others did not need, but never theirs, and the
sum never passes the budget.
"""

from __future__ import annotations

from collections.abc import Sequence

from memclaw.providers.base import RecallBlock

SEPARATOR = "\n\n"


def compose_recall(blocks: Sequence[RecallBlock], max_chars: int) -> list[str]:
    """The text of each non-empty block, cut so that together they fit ``max_chars``.

    ``max_chars`` 0 means no budget (every block whole).
    """
    present = [b for b in blocks if b]
    if max_chars <= 0:
        return [b.text() for b in present]
    if not present:
        return []
    room = max_chars - len(SEPARATOR) * (len(present) - 1)
    share = max(room, 0) // len(present)
    wanted = [len(b.text()) for b in present]
    # First pass: everyone gets up to their share; the unused rest is pooled.
    spare = sum(max(share - w, 0) for w in wanted)
    texts: list[str] = []
    for block, need in zip(present, wanted, strict=True):
        allowed = share
        if need > share and spare > 0:
            extra = min(need - share, spare)
            allowed += extra
            spare -= extra
        texts.append(block.text(allowed))
    return [t for t in texts if t]
