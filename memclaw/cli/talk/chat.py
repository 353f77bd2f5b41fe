"""memclaw chat: talk to an agent in the terminal, or ask it one thing from a script."""

from __future__ import annotations

import signal
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from memclaw.cli.basic import AgentArg, ModelOpt, OwnerOpt
from memclaw.cli.render import err, out, piped_text, print_json
from memclaw.cli.state import scope
from memclaw.errors import UsageError

if TYPE_CHECKING:
    from memclaw.chat import Conversation, TurnResult

INTERRUPTED_EXIT = 130


def chat(
    ctx: typer.Context,
    agent: AgentArg,
    owner: OwnerOpt = None,
    session: Annotated[
        str | None,
        typer.Option(
            "--session",
            help="Continue (or start) the session with this id; agent:ID:… keys pick agent ID, "
            "agent:ID:subagent:… a read-only subagent of it.",
        ),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the most recent session.")
    ] = False,
    model: ModelOpt = None,
    no_recall: Annotated[
        bool, typer.Option("--no-recall", help="Do not search memory on each message.")
    ] = False,
    no_capture: Annotated[
        bool, typer.Option("--no-capture", help="Do not extract memories from this chat.")
    ] = False,
    watch: Annotated[
        bool, typer.Option("--watch", help="Announce memory files edited on disk at once.")
    ] = False,
    message: Annotated[
        str | None,
        typer.Option("--message", "-m", help="Ask one thing, print the answer and exit."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="With -m or stdin: print the answer as JSON.")
    ] = False,
    subagent: Annotated[
        bool,
        typer.Option("--subagent", help="The caller is a subagent: recall only, capture nothing."),
    ] = False,
    plain: Annotated[
        bool,
        typer.Option(
            "--plain", help="Write answers exactly as they stream, with no wrapping or spinner."
        ),
    ] = False,
    trigger: Annotated[
        str | None,
        typer.Option(
            "--trigger",
            help="What started this chat; cron, heartbeat and automation "
            "chats are never extracted.",
        ),
    ] = None,
) -> None:
    """Talk with an agent that remembers: streamed answers, memory tools, slash commands.

    Every turn re-reads the agent's files, recalls memories relevant to your
    message, and is appended to `sessions/ID.jsonl` as it completes. When the
    chat ends, what is worth keeping is extracted into PROFILE.md, MEMORY.md
    and today's note in the background. End a line with \\ to continue it, or
    put \"\"\" on a line of its own to start and end a block. Ctrl-C stops an
    answer; Ctrl-C or Ctrl-D at the prompt ends the chat. Type /help for the
    slash commands (/remember, /forget, /search, /memory, /profile, /prompt,
    /tokens, /dream, /exit).

    Examples:

        memclaw chat demo

        memclaw chat demo --owner user:maya --resume --watch

        memclaw chat demo -m "When is the cutover?" --json

        echo "Summarise my week" | memclaw chat demo --no-capture
    """
    from memclaw.chat import Conversation
    from memclaw.cli.talk.interactive import interactive

    if session is not None and resume:
        raise UsageError("give either --session ID or --resume, not both")
    one_shot = message is not None or not sys.stdin.isatty()
    if as_json and not one_shot:
        raise UsageError("--json needs a message: pass -m TEXT or pipe it on stdin")
    text = message if message is not None else (_stdin_message() if one_shot else "")
    where = scope(ctx, agent, owner)
    conversation = Conversation.open(
        where,
        session_id=session,
        resume=resume,
        subagent=subagent,
        trigger=trigger,
        model=model,
        recall=not no_recall,
        capture=not no_capture,
    )
    if one_shot:
        code = _one_shot(conversation, text, as_json, plain)
    else:
        _hear_ctrl_c()
        # The session key may have chosen another agent (agent:ID:…): watch that one.
        code = interactive(conversation, conversation.session.agent, watch, plain)
    if code:
        raise typer.Exit(code)


def _hear_ctrl_c() -> None:
    """Ctrl-C stops an answer even when the chat was started with SIGINT ignored.

    A program started in the background of a non-interactive shell (``cmd &`` in a
    script, some launchers) inherits SIGINT ignored, and Python then never raises
    KeyboardInterrupt; at a terminal the person's Ctrl-C must still mean stop.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _stdin_message() -> str:
    text = piped_text()
    if not text.strip():
        raise UsageError("no message: pass -m TEXT, pipe a message on stdin, or run interactively")
    return text


# --- one-shot -----------------------------------------------------------------------------


def _one_shot(conversation: Conversation, text: str, as_json: bool, plain: bool) -> int:
    from memclaw.chat import is_command
    from memclaw.chat.background import describe
    from memclaw.cli.talk.term import AnswerView, asker, render_reply, retries_to

    errors = err()
    result: TurnResult | None = None
    extraction = None
    try:
        if is_command(text.strip()):
            reply = conversation.command(text.strip(), ask=asker())
            if as_json:
                print_json(
                    {
                        "command": text.strip(),
                        "text": reply.text,
                        "rows": reply.rows,
                        "error": reply.error,
                        "session": conversation.session.id,
                    }
                )
            else:
                render_reply(reply, out(), errors)
            return 1 if reply.error else 0
        spinner = not (plain or as_json) and sys.stderr.isatty()
        view = AnswerView(out(), live=False, tools_to=errors, spinner=spinner)
        with view, retries_to(conversation, view):
            result = conversation.turn(
                text,
                on_text=None if as_json else view.text,
                on_tool=None if as_json else view.tool,
                # One message on the command line is still the caller's to send again:
                # a failed one writes nothing (typed into a chat, it would be lost).
                keep_unanswered=False,
            )
    finally:
        try:
            extraction = conversation.close()
        except KeyboardInterrupt:
            errors.print("stopped waiting for memory extraction", style="dim")
    for notice in [*([] if as_json else result.notes), *conversation.drain()]:
        errors.print(f"· {notice}", style="dim", markup=False, highlight=False)
    if not as_json:
        # Each -m is a session of its own unless one is named: say which, and how to go on.
        session = conversation.session
        errors.print(
            f"· session {session.id}: continue it with "
            f"memclaw chat {session.agent.id} --session {session.id} -m …",
            style="dim",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    if as_json:
        data: dict[str, Any] = result.to_dict()
        data["extraction"] = (
            {**extraction.to_dict(), "summary": describe(extraction)} if extraction else None
        )
        print_json(data)
    return INTERRUPTED_EXIT if result.interrupted else 0


def register(app: typer.Typer) -> None:
    app.command()(chat)
