"""The workspace file tools: list, read, write and edit an agent's markdown files.

These are exactly what the model is offered as tools in chat, and what
``memclaw files`` runs, so both obey the same safety rules.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from memclaw.errors import UsageError, WorkspaceError
from memclaw.workspace.agent import Agent, WriteResult, WriteStrategy
from memclaw.workspace.paths import resolve_inside, validate_relpath
from memclaw.workspace.safeguards import history
from memclaw.workspace.safeguards.ceiling import warning
from memclaw.workspace.safeguards.provenance import Author


def list_files(agent: Agent, prefix: str = "") -> dict[str, Any]:
    files = agent.list_files(prefix)
    return {
        "agent": agent.id,
        "count": len(files),
        "files": [{k: v for k, v in asdict(info).items() if k != "modified"} for info in files],
    }


def _require_file(agent: Agent, name: str) -> None:
    path = resolve_inside(agent.path, name)
    if path.exists() and not path.is_file():
        raise WorkspaceError(f"{agent.id}/{name} is not a plain file (a folder, pipe or device)")
    if not path.is_file():
        raise WorkspaceError(f"{agent.id}/{name} does not exist; `memclaw files list` shows files")


def read_file(agent: Agent, name: str) -> dict[str, Any]:
    _require_file(agent, name)
    entry = agent.meta().get(name)
    return {
        "agent": agent.id,
        "filename": name,
        "enabled": bool(entry and entry.enabled),
        "content": agent.read(name),
    }


def file_versions(agent: Agent, name: str) -> dict[str, Any]:
    """The previous versions of ``name`` the history keeps, newest (number 1) first."""
    rel = validate_relpath(name, md_only=False).as_posix()  # a transcript's too
    found = []
    for number, kept in enumerate(history.versions(agent, rel), 1):
        data = history.read_bytes(agent, kept) or b""
        found.append(
            {
                "version": number,
                "saved": history.saved_at(kept),
                "size": len(data),
                "lines": data.count(b"\n"),
            }
        )
    return {"agent": agent.id, "filename": rel, "count": len(found), "versions": found}


def read_version(agent: Agent, name: str, number: int) -> dict[str, Any]:
    """Previous version ``number`` of ``name`` (1: the newest), as :func:`read_file` says a file."""
    rel = validate_relpath(name, md_only=False).as_posix()
    kept = history.versions(agent, rel)
    if not 1 <= number <= len(kept):
        have = f"versions 1 to {len(kept)}" if kept else "no previous version"
        raise UsageError(
            f"{agent.id}/{rel} has {have}; `memclaw files versions {agent.id} {rel}` lists them"
        )
    text, _ = history.read_text(agent, kept[number - 1]) or ("", False)
    return {
        "agent": agent.id,
        "filename": rel,
        "version": number,
        "saved": history.saved_at(kept[number - 1]),
        "content": text,
    }


def _ceiling_report(name: str, result: WriteResult) -> dict[str, Any]:
    fitted = result.ceiling
    return {
        "moved_to_overflow": result.moved,
        "overflow_file": fitted.overflow if fitted is not None else None,
        "over_ceiling": result.over_ceiling,
        "warning": warning(name, fitted),
    }


def write_file(
    agent: Agent,
    name: str,
    content: str,
    author: Author = Author.PERSON,
    strategy: WriteStrategy = WriteStrategy.OVERWRITE,
    *,
    section: str | None = None,
    key: str | None = None,
    base: str | None = None,
) -> dict[str, Any]:
    """Write with one of the four strategies (full overwrite by default). A file
    created here is not injected until enabled.

    ``author`` is MODEL when a model's tool call writes: only lines a model wrote
    may ever move out at a ceiling (see ``provenance``). ``base``: see ``Agent.write``.
    """
    result = agent.write(
        name, content, strategy, section=section, key=key, author=author, base=base
    )
    return {
        "agent": agent.id,
        "filename": name,
        "created": result.created,
        "chars": result.chars,
        **_ceiling_report(name, result),
    }


def edit_file(
    agent: Agent,
    name: str,
    old_text: str,
    new_text: str,
    replace_all: bool = False,
    author: Author = Author.PERSON,
) -> dict[str, Any]:
    """Replace exact text; ambiguous edits are refused instead of guessed.

    The search and the rewrite happen under one hold of the agent lock, so an
    edit never silently undoes a write that landed in between.
    """
    if not old_text:
        raise WorkspaceError("old text is empty: give the exact text to replace")
    _require_file(agent, name)  # the file itself is read once, under the lock
    counted: list[int] = []

    def replace(current: str) -> str:
        count = current.count(old_text)
        if count == 0:
            raise WorkspaceError(
                f"{name}: the old text was not found; read the file and copy it exactly"
            )
        if count > 1 and not replace_all:
            raise WorkspaceError(
                f"{name}: the old text occurs {count} times; add context to make it unique "
                "or replace all occurrences"
            )
        counted.append(count if replace_all else 1)
        return current.replace(old_text, new_text, -1 if replace_all else 1)

    result = agent.update(name, replace, introduced=new_text, author=author)
    return {
        "agent": agent.id,
        "filename": name,
        "replacements": counted[0],
        **_ceiling_report(name, result),
    }
