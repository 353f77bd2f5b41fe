"""The interactive ``memclaw chat``: a banner, the morning card, then message after message.

Input is read with history, answers stream into the terminal, edits made on disk are
announced (``--watch``), and when the chat ends what is worth keeping is extracted.
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any

from memclaw.cli.render import err, out
from memclaw.cli.talk.term import asker, retries_to
from memclaw.errors import MemclawError
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from rich.console import Console

    from memclaw.chat import Conversation
    from memclaw.chat.recall import Recalled
    from memclaw.cli.talk.term import AnswerView, Notifier
    from memclaw.index.watch import WorkspaceWatcher
    from memclaw.workspace.agent import Agent


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


def interactive(conversation: Conversation, agent: Agent, watch: bool, plain: bool) -> int:
    from memclaw.cli.talk.term import InputHistory, Notifier

    console, errors = out(), err()
    tty = sys.stdout.isatty()
    notifier = Notifier(console, live_prompt=tty)
    conversation.extractor.report = notifier.report
    history = InputHistory(
        agent.meta_dir,
        conversation.session.scope.input_history,
        agent.settings.chat_history_lines,
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
            reply = conversation.command(text, ask=asker())
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
        with view, retries_to(conversation, view):
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
