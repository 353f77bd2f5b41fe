"""``memclaw sessions``: list, show and delete stored chat sessions."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from memclaw.cli.basic import AgentArg, JsonOpt, OwnerOpt
from memclaw.cli.render import err, human_size, out, print_json, print_table
from memclaw.cli.state import scope
from memclaw.text.plural import plural

SESSIONS_HELP = """List, show and delete an agent's chat sessions.

`memclaw sessions AGENT` is short for `memclaw sessions list AGENT`.

Examples:

    memclaw sessions demo

    memclaw sessions show demo 20261129-093000-ab12

    memclaw sessions delete demo 20261129-093000-ab12 --yes
"""
IdArg = Annotated[
    str, typer.Argument(metavar="ID", help="Session id, as `memclaw sessions AGENT` lists it.")
]


class ListByDefault(TyperGroup):
    """``memclaw sessions AGENT`` lists: a first word that is no sub-command is an agent."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        first = next((a for a in args if not a.startswith("-")), None)
        if first is not None and first not in self.commands:
            args = ["list", *args]
        return list(super().parse_args(ctx, args))


sessions_app = typer.Typer(cls=ListByDefault, help=SESSIONS_HELP, no_args_is_help=True)


@sessions_app.command("list")
def list_(
    ctx: typer.Context, agent: AgentArg, owner: OwnerOpt = None, as_json: JsonOpt = False
) -> None:
    """List chat sessions, the most recently written first.

    Examples:

        memclaw sessions list demo

        memclaw sessions demo --owner user:maya --json
    """
    from memclaw.chat.sessions import list_sessions

    found = list_sessions(scope(ctx, agent, owner))
    if as_json:
        print_json({"agent": agent, "sessions": [info.to_dict() for info in found]})
        return
    if not found:
        err().print(
            f"no chat sessions for {agent}; start one with `memclaw chat {agent}`", markup=False
        )
        return
    from rich.table import Table

    table = Table(title=f"{plural(len(found), 'session')} of {agent}", title_justify="left")
    for column in ("id", "messages", "first", "last", "size"):
        table.add_column(column, justify="right" if column in ("messages", "size") else "left")
    for info in found:
        table.add_row(
            info.id,
            str(info.messages),
            f"{info.first:%Y-%m-%d %H:%M}",
            f"{info.last:%Y-%m-%d %H:%M}",
            human_size(info.size),
        )
    print_table(table, markup=False)


def _content(message: dict[str, Any]) -> str:
    content = message.get("content")
    text = content if isinstance(content, str) else ""
    if not text and isinstance(content, list):
        text = "\n".join(
            p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    for call in message.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict):
            text += f"\n[tool call] {function.get('name')}({function.get('arguments', '')})"
    return text.strip()


@sessions_app.command("show")
def show(
    ctx: typer.Context,
    agent: AgentArg,
    session_id: IdArg,
    owner: OwnerOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print a session's messages: who said what.

    Off a terminal the text is plain (a `role:` line, then the content).

    Examples:

        memclaw sessions show demo 20261129-093000-ab12

        memclaw sessions show demo cron:nightly --json
    """
    from memclaw.chat.sessions import session_messages

    messages = session_messages(scope(ctx, agent, owner), session_id)
    if as_json:
        print_json({"agent": agent, "session": session_id, "messages": messages})
        return
    console = out()
    for message in messages:
        text = _content(message)
        if console.is_terminal:
            console.rule(message["role"], align="left")
            console.print(text, markup=False)
        else:
            sys.stdout.write(f"{message['role']}:\n{text}\n\n")


@sessions_app.command("delete")
def delete(
    ctx: typer.Context,
    agent: AgentArg,
    session_id: IdArg,
    owner: OwnerOpt = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
) -> None:
    """Delete one session's transcript (refused while a chat has it open).

    Memory already extracted from it stays; asks first unless --yes.

    Examples:

        memclaw sessions delete demo 20261129-093000-ab12

        memclaw sessions delete demo 20261129-093000-ab12 --owner user:maya --yes
    """
    from memclaw.chat.sessions import delete_session, session_messages

    where = scope(ctx, agent, owner)
    count = len(session_messages(where, session_id))  # also: a missing id fails before asking
    if not yes and not typer.confirm(
        f"delete session {session_id} ({plural(count, 'message')})?", default=False, err=True
    ):
        err().print("nothing deleted", markup=False)
        raise typer.Exit(1)
    path = delete_session(where, session_id)
    err().print(f"deleted {path}", markup=False)


def register(app: typer.Typer) -> None:
    app.add_typer(sessions_app, name="sessions")
