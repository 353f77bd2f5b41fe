"""memclaw chat: talk to an agent in the terminal, or ask it one thing from a script."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Annotated, Any

import typer

from memclaw.cli.basic import AgentArg, ModelOpt, OwnerOpt
from memclaw.cli.render import err, out, print_json
from memclaw.cli.state import scope
from memclaw.errors import MemclawError, UsageError
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from rich.console import Console

    from memclaw.chat import Conversation, TurnResult
    from memclaw.chat.recall import Recalled
    from memclaw.cli.talk.term import AnswerView, Notifier
    from memclaw.index.watch import WorkspaceWatcher
    from memclaw.workspace.agent import Agent
    from memclaw.workspace.scope import Scope

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
        code = _interactive(conversation, conversation.session.agent, watch, plain)
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
    data = sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"stdin is not UTF-8 text (byte {exc.start}); convert it first") from exc
    if not text.strip():
        raise UsageError("no message: pass -m TEXT, pipe a message on stdin, or run interactively")
    return text


@contextlib.contextmanager
def _retries_to(conversation: Conversation, view: AnswerView) -> Iterator[None]:
    """Retries of the chat model's requests are shown in ``view`` while it is open."""
    from memclaw.llm.openai_client import OpenAIChatModel

    model = conversation.engine.model
    if not isinstance(model, OpenAIChatModel):
        yield
        return
    model.on_retry = view.retry
    try:
        yield
    finally:
        model.on_retry = None


def _asker() -> Callable[[str], bool] | None:
    """A y/N question on the terminal, as `memclaw forget` asks; None when stdin is no terminal."""
    if not sys.stdin.isatty():
        return None

    def ask(question: str) -> bool:
        try:
            return bool(typer.confirm(question, default=False, err=True))
        except (typer.Abort, EOFError, KeyboardInterrupt):
            return False  # no answer is a no: nothing is removed

    return ask


# --- one-shot -----------------------------------------------------------------------------


def _one_shot(conversation: Conversation, text: str, as_json: bool, plain: bool) -> int:
    from memclaw.chat import is_command
    from memclaw.chat.background import describe
    from memclaw.cli.talk.term import AnswerView, render_reply

    errors = err()
    result: TurnResult | None = None
    extraction = None
    try:
        if is_command(text.strip()):
            reply = conversation.command(text.strip(), ask=_asker())
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
        with view, _retries_to(conversation, view):
            result = conversation.turn(
                text,
                on_text=None if as_json else view.text,
                on_tool=None if as_json else view.tool,
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


# --- interactive ------------------------------------------------------------------------------


def _history_path(where: Scope) -> Any:
    name = where.label if where.personal else "_team"
    return where.agent.meta_dir / "chat-history" / name


def _banner(conversation: Conversation, console: Console) -> None:
    session = conversation.session
    state_ = (
        f"resumed, {plural(len(session.messages), 'message')}" if session.resumed else "new session"
    )
    who = f" · owner {session.owner}" if session.owner else ""
    role = " · subagent" if session.subagent else ""
    console.print(
        f"memclaw chat · {session.agent.id}{who}{role} · {conversation.engine.model.name} · "
        f"session {session.id} ({state_}) · /help for commands",
        style="dim",
        markup=False,
        highlight=False,
    )
    from memclaw.facts.inbox import open_items

    waiting = len(open_items(session.agent, session.scope.prefix))
    if waiting:
        console.print(
            f"{plural(waiting, 'contradiction')} waiting (memclaw inbox)",
            style="yellow",
            markup=False,
            highlight=False,
        )


def _start_watch(conversation: Conversation, agent: Agent, notifier: Notifier) -> WorkspaceWatcher:
    from memclaw.index.watch import WorkspaceWatcher

    def changed(_paths: set[Any]) -> None:
        for name in conversation.engine.changed_files():
            notifier.report(f"{name} changed on disk; the next turn will use it")

    folders = [agent.path]
    if agent.workspace.global_dir.is_dir():
        folders.append(agent.workspace.global_dir)
    from memclaw.chat.background import main_thread_signals

    watcher = WorkspaceWatcher(folders, changed, debounce_ms=agent.settings.watch_debounce_ms)
    with main_thread_signals():
        watcher.start()
    return watcher


def _interactive(conversation: Conversation, agent: Agent, watch: bool, plain: bool) -> int:
    from memclaw.cli.talk.term import InputHistory, Notifier

    console, errors = out(), err()
    tty = sys.stdout.isatty()
    notifier = Notifier(console, live_prompt=tty)
    conversation.extractor.report = notifier.report
    history = InputHistory(
        _history_path(conversation.session.scope), agent.settings.chat_history_lines
    )
    history.load()
    _banner(conversation, errors)
    _morning_card(conversation, errors)
    _preload_client()
    watcher = _start_watch(conversation, agent, notifier) if watch else None
    try:
        _loop(conversation, console, errors, notifier, history, (tty, plain))
    finally:
        if watcher is not None:
            watcher.stop()
        history.save()
        _finish(conversation, errors, notifier)
    return 0


def _morning_card(conversation: Conversation, errors: Console) -> None:
    """The first chat of a day opens with the last dream's card; typing anything skips it."""
    from memclaw.cli.memory.seeing import card_lines
    from memclaw.morning.card import due, mark_seen

    where = conversation.session.scope
    if conversation.session.subagent:
        return
    card = due(where)
    if card is None:
        return
    for line in card_lines(card)[:-1]:
        errors.print(line, markup=False, highlight=False)
    errors.print(
        "  /morning confirm ID · /morning forget ID · /morning edit ID TEXT · /morning skip "
        "(or just start typing; morning_card: false turns this off)",
        style="dim",
        markup=False,
        highlight=False,
    )
    mark_seen(where)


def _preload_client() -> threading.Thread:
    """Import openai while the person types the first message, not after they press Enter."""
    from memclaw.chat.background import main_thread_signals
    from memclaw.llm.openai_client import preload

    thread = threading.Thread(target=preload, name="memclaw-preload", daemon=True)
    with main_thread_signals():
        thread.start()
    return thread


def _loop(
    conversation: Conversation,
    console: Console,
    errors: Console,
    notifier: Notifier,
    history: Any,
    terminal: tuple[bool, bool],
) -> None:
    from memclaw.chat import is_command
    from memclaw.cli.talk.term import read_message, render_reply

    while True:
        notifier.flush()
        notifier.prompt_open(True)
        try:
            text = read_message()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return
        finally:
            notifier.prompt_open(False)
            history.scrub()
        text = text.strip()
        if not text:
            continue
        if is_command(text):
            reply = conversation.command(text, ask=_asker())
            if reply.exit:
                return
            render_reply(reply, console, errors)
            continue
        _answer(conversation, text, console, errors, *terminal)


def _answer(
    conversation: Conversation,
    text: str,
    console: Console,
    errors: Console,
    tty: bool,
    plain: bool,
) -> None:
    from memclaw.cli.talk.term import AnswerView

    spinner = tty and not plain and sys.stderr.isatty()
    view = AnswerView(console, live=tty, plain=plain, spinner=spinner, notices_to=errors)
    show = conversation.session.agent.settings.chat_show_recalled
    try:
        with view, _retries_to(conversation, view):
            result = conversation.turn(
                text,
                on_text=view.text,
                on_tool=view.tool,
                on_recall=(lambda found: _show_recalled(found, view)) if show else None,
            )
            for name in result.changed_files:
                view.note(f"· {name} changed on disk; this answer used the new version")
    except KeyboardInterrupt:
        errors.print("(cancelled)", style="dim")
        return
    except MemclawError as exc:
        from rich.markup import escape

        errors.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True, highlight=False)
        return
    if result.interrupted:
        errors.print("(answer interrupted; the session goes on)", style="dim")
    for note in result.notes:
        errors.print(f"· {note}", style="dim", markup=False, highlight=False)


def _show_recalled(found: Recalled, view: AnswerView) -> None:
    """The memories recalled for this answer, dim, one line each, before it streams."""
    for hit in found.hits:
        text = " ".join(hit.text.split())
        text = text if len(text) <= 70 else text[:69] + "…"
        view.note(f"↳ {text} ({hit.file}:{hit.line})")


def _finish(conversation: Conversation, errors: Console, notifier: Notifier) -> None:
    extractor = conversation.extractor
    try:
        if extractor.has_work():
            with errors.status("updating memory…", spinner="dots"):
                conversation.close()
        else:
            conversation.close()
    except KeyboardInterrupt:
        conversation.session.close()
        errors.print("stopped waiting for memory extraction", style="dim")
    notifier.flush()


def register(app: typer.Typer) -> None:
    app.command()(chat)
