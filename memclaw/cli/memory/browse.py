"""``memclaw browse``: the full-screen memory browser (the optional ``memclaw[browse]`` extra)."""

from __future__ import annotations

import typer

from memclaw.cli.basic import AgentArg, OwnerOpt
from memclaw.cli.state import scope
from memclaw.errors import UsageError

INSTALL = "the memory browser needs Textual: pip install 'memclaw[browse]'"


def browse(ctx: typer.Context, agent: AgentArg, owner: OwnerOpt = None) -> None:
    """Browse an agent's memory full-screen: files, facts with their trust, the inbox,
    the timeline with diffs, and search as you type.

    Keys: 1-5 or F1-F5 switch panes, / searches, e edits in $EDITOR, c confirms,
    x rejects, f forgets, o/n/b resolve a contradiction, q quits.

    Examples:

        memclaw browse demo

        memclaw browse assistant --owner user:maya
    """
    try:
        from memclaw.browse.app import MemoryBrowser
    except ImportError as exc:
        raise UsageError(INSTALL) from exc
    from memclaw.browse.source import Source

    MemoryBrowser(Source(scope(ctx, agent, owner))).run()


def register(app: typer.Typer) -> None:
    app.command("browse")(browse)
