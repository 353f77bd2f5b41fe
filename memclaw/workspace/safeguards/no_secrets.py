"""The last line of defence: no write puts a credential into a memory file.

Every write through :class:`~memclaw.workspace.agent.Agent` checks the text it brings
and the lines it changes; gates elsewhere catch secrets earlier, this catches what
they let through.
"""

from __future__ import annotations

from memclaw.errors import SecretDetectedError


def refuse_secrets(text: str, where: str) -> None:
    """The last line of defence: no credential reaches a memory file."""
    from memclaw.gates import find_secrets

    findings = find_secrets(text)
    if findings:
        first = findings[0]
        raise SecretDetectedError(
            f"refusing to write {where}: line {first.line} holds what looks like a secret "
            f"({first.kind}); "
            "remove it (memory must never hold credentials)"
        )


def refuse_secrets_in_change(old: str, new: str, where: str) -> None:
    """Refuse a write whose result holds a secret touching the changed region.

    Only findings that overlap the change count, so a line written before the gate knew a
    shape does not block unrelated edits next to it.
    """
    from memclaw.gates import find_secrets

    if old == new:
        return
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    change_start, change_end = head, len(new) - tail
    # Whole lines around the change, one more on each side: a key split across a line
    # break is not a thing, but a label on the previous line ("password:") is.
    start = new.rfind("\n", 0, max(new.rfind("\n", 0, change_start), 0)) + 1
    end_nl = new.find("\n", change_end)
    end_nl = new.find("\n", end_nl + 1) if end_nl != -1 else -1
    end = len(new) if end_nl == -1 else end_nl
    for f in find_secrets(new[start:end]):
        if f.start + start < max(change_end, change_start + 1) and f.end + start > change_start:
            line = new.count("\n", 0, start + f.start) + 1
            raise SecretDetectedError(
                f"refusing to write {where}: line {line} would hold what looks like a secret "
                f"({f.kind}) once edited; remove it (memory must never hold credentials)"
            )
