"""What every family of chat tools stands on: the chat's scope, and its owner fence.

A chat is fenced to its owner: another owner's personal folder can be neither
listed nor read, and an owner's writes go to their own folder
(:mod:`memclaw.chat.fence`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memclaw.chat.fence import refuse_personal_lines, write_target
from memclaw.errors import UnsafePathError, UsageError
from memclaw.workspace.owners import OWNERS_DIR, OwnerKey, fold_path_part
from memclaw.workspace.paths import resolve_inside, validate_relpath
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.facts.judge import Judge
    from memclaw.index.rank import Hit
    from memclaw.workspace.agent import Agent


def arg(args: dict[str, Any], name: str, kind: type = str, default: Any = None) -> Any:
    value = args.get(name)
    if value is None:
        return default
    if value is not None and not isinstance(value, kind):
        raise UsageError(f"argument {name!r} must be a {kind.__name__}")
    return value


def need(args: dict[str, Any], name: str) -> str:
    value = arg(args, name)
    if not value:
        raise UsageError(f"argument {name!r} is required")
    return str(value)


def short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ScopedTools:
    """The chat a tool runs for (one agent, one owner, one session), and its fence."""

    # The fields of the ToolBox dataclass (memclaw.chat.tools.box), which says what they mean.
    scope: Scope
    session_id: str
    said: str
    judge: Judge | None

    @property
    def agent(self) -> Agent:
        return self.scope.agent

    @property
    def owner(self) -> OwnerKey | None:
        return self.scope.owner

    def check_name(self, name: str) -> str:
        """Refuse paths into another owner's folder (and, with isolation off, any owner's).

        ``owners`` is matched folded (case and NFKC), as a case-insensitive disk
        would match it; the owner folder only by its exact current name, so no
        other spelling (``USER%3Aalice``, ``user%3aalice``) passes as one's own.
        """
        parts = validate_relpath(name).parts
        real = resolve_inside(self.agent.path, name).resolve()
        inner = real.relative_to(self.agent.path.resolve()).parts  # a symlink may lead elsewhere
        mine = self.scope.prefix.rstrip("/").split("/")
        owners = fold_path_part(OWNERS_DIR)
        for path in (parts, inner):
            if (
                path
                and fold_path_part(path[0]) == owners
                and (not mine[0] or list(path[:2]) != mine)
            ):
                raise UnsafePathError(f"{name!r} belongs to another person's memory")
        return "/".join(parts)

    def write_name(self, name: str, new_text: str) -> str:
        """The fenced file a write of ``name`` goes to; refuses personal lines in TEAM files."""
        target = self.check_name(write_target(self.scope, self.check_name(name)))
        refuse_personal_lines(self.scope, target, new_text)
        return target

    def _hit_rows(self, hits: list[Hit]) -> list[dict[str, Any]]:
        """Hits as a model reads them: where (global/ for shared lines), snippet, fact id."""
        return [
            {
                "file": h.file if h.agent == self.agent.id else f"global/{h.file}",
                "line": h.line,
                "snippet": h.marked(),
                "score": round(h.score, 3),
                "fact": h.fact,
            }
            for h in hits
        ]

    def _scopes(self) -> list[tuple[Scope, str]]:
        """(scope, label) of every entries scope this chat may read."""
        team = Scope(self.agent)
        if self.scope.personal:
            return [(self.scope, "personal"), (team, "team")]
        return [(team, "team")]
