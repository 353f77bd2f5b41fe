"""Terminal pieces of ``memclaw chat``: reading input, drawing answers, quiet notices, y/N."""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from memclaw.errors import StorageError
from memclaw.gates.redaction import redact_lines
from memclaw.workspace import ledger

if TYPE_CHECKING:
    from rich.console import Console

    from memclaw.chat import Conversation, Reply, ToolRecord
    from memclaw.cli.talk.answer import Spinner

PROMPT = "› "
CONTINUATION = "… "
BLOCK = '"""'


def read_message(read: Callable[[str], str] = input) -> str:
    """One message: a line, lines joined by a trailing backslash, or a \"\"\" block.

    EOFError (Ctrl-D) and KeyboardInterrupt (Ctrl-C) reach the caller.
    """
    line = read(PROMPT)
    if line.strip() == BLOCK:
        lines = []
        while (following := read(CONTINUATION)).strip() != BLOCK:
            lines.append(following)
        return "\n".join(lines)
    lines = []
    while line.endswith("\\"):
        lines.append(line[:-1])
        line = read(CONTINUATION)
    lines.append(line)
    return "\n".join(lines)


class InputHistory:
    """Arrow-up history through readline, kept per owner in the agent's ledger (the
    document ``chat-history/<owner>``, its lines oldest first).

    Credentials never reach the ledger: a line holding one is kept redacted, and a
    multi-line message (a \"\"\" block, backslash continuations) holding one is
    taken out of the history whole, since readline keeps each of its lines apart
    and no single line of a pasted key looks like a key.
    """

    def __init__(self, meta_dir: Path, name: str, limit: int) -> None:
        self.meta_dir, self.name = meta_dir, name
        self.limit = limit
        self._readline: Any = None
        self._checked = 0  # history items already looked at by scrub()

    def load(self) -> None:
        try:
            import readline
        except ImportError:  # not every Python has it; input still works
            return
        self._readline = readline
        readline.set_history_length(max(self.limit, 100))
        if self.limit > 0:
            kept = ledger.load(self.meta_dir, self.name)[0]
            for line in kept if isinstance(kept, list) else []:
                readline.add_history(str(line))
        # A history kept before secrets were looked for across lines is cleaned on load.
        self._rewrite(0, redact_lines(self._items(0)))
        self._checked = readline.get_current_history_length()

    def scrub(self) -> None:
        """Clean the lines of the message just typed (everything since the last look)."""
        from memclaw.gates import contains_secret

        if self._readline is None:
            return
        typed = self._items(self._checked)
        if len(typed) > 1 and contains_secret("\n".join(typed)):
            self._rewrite(self._checked, [])
        else:
            self._rewrite(self._checked, redact_lines(typed))
        self._checked = self._readline.get_current_history_length()

    def _items(self, start: int) -> list[str]:
        """History items from 0-based position ``start`` to the end."""
        readline = self._readline
        found = []
        for index in range(start + 1, readline.get_current_history_length() + 1):
            item = readline.get_history_item(index)  # 1-based
            found.append(item if item is not None else "")
        return found

    def _rewrite(self, start: int, lines: list[str]) -> None:
        """Replace the items from ``start`` on with ``lines`` (when they differ)."""
        readline = self._readline
        if lines == self._items(start):
            return
        for position in range(readline.get_current_history_length() - 1, start - 1, -1):
            readline.remove_history_item(position)  # 0-based
        for line in lines:
            readline.add_history(line)

    def save(self) -> None:
        if self._readline is None or self.limit <= 0:
            return
        lines = self._items(0)[-self.limit :]
        with contextlib.suppress(OSError, StorageError):  # the chat ends all the same
            ledger.save(self.meta_dir, self.name, lines)


class AnswerView:
    """Draws an answer as it streams.

    On a terminal prose is wrapped at word boundaries (see ``memclaw.cli.talk.answer``),
    a spinner on stderr shows the wait for the first token, and typed keys are
    not echoed into the answer. ``plain`` (and any output that is not a terminal)
    writes the text exactly as the model sends it.
    """

    def __init__(
        self,
        console: Console,
        live: bool,
        *,
        tools_to: Console | None = None,
        plain: bool = False,
        spinner: bool = False,
        notices_to: Console | None = None,
    ) -> None:
        from memclaw.cli.talk.answer import WordWrapper, terminal_width

        self.console = console
        self.tools_to = tools_to or console
        self.notices_to = notices_to or self.tools_to
        self.stream = sys.stdout
        self._lock = threading.Lock()
        self._wrapper = (
            WordWrapper(lambda: terminal_width(self.stream)) if live and not plain else None
        )
        self._spinner: Spinner | None = None
        if spinner:
            from memclaw.cli.talk.answer import Spinner

            self._spinner = Spinner(sys.stderr, self._lock)
        self._mid_line = False  # raw text written that did not end with a line break
        self._quiet: contextlib.ExitStack | None = None
        self._live = live

    def __enter__(self) -> AnswerView:
        if self._live:
            from memclaw.cli.talk.answer import no_echo

            self._quiet = contextlib.ExitStack()
            self._quiet.enter_context(no_echo(sys.stdin))
        if self._spinner is not None:
            self._spinner.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, text: str) -> None:
        if not text:
            return  # only the answer's first text ends the wait, not an empty flush
        if self._spinner is not None:
            self._spinner.stop()
        with self._lock:
            self.stream.write(text)
            self.stream.flush()

    def text(self, delta: str) -> None:
        if self._wrapper is not None:
            self._write(self._wrapper.feed(delta))
        else:
            self._write(delta)
            if delta:
                self._mid_line = not delta.endswith("\n")

    def _end_line(self) -> None:
        if self._wrapper is not None:
            self._write(self._wrapper.finish())
        elif self._mid_line:
            self._write("\n")
        self._mid_line = False

    def tool(self, record: ToolRecord) -> None:
        self.note(f"· {record.summary}")

    def note(self, text: str) -> None:
        """A dim line; while the spinner waits (recalled memories come before the answer)
        it goes above the spinner, which keeps turning below it."""
        self._end_line()
        shown = text
        if self.tools_to.is_terminal:
            from memclaw.cli.talk.answer import terminal_width, wrap_words

            # At words, like the answer; "↳ " and "· " lines continue under their text.
            shown = wrap_words(text, terminal_width(self.stream), hang=2)

        def say() -> None:
            self.tools_to.print(shown, style="dim", markup=False, highlight=False)

        if self._spinner is not None and not self._spinner.stopped:
            self._spinner.above(say)
        else:
            say()

    def retry(self, text: str) -> None:
        """A retry notice: above the spinner while waiting, else a dim line of its own."""
        if self._spinner is not None and not self._spinner.stopped:
            self._spinner.notice(text)
        else:
            self._end_line()
            self.notices_to.print(f"· {text}", style="dim", markup=False, highlight=False)

    def close(self) -> None:
        self._end_line()
        if self._quiet is not None:
            self._quiet.close()
            self._quiet = None


class Notifier:
    """Quiet lines from background threads (extraction, the file watcher).

    At the prompt they are printed at once, above the line being typed; while
    an answer is drawn they wait and are printed before the next prompt.
    """

    def __init__(self, console: Console, *, live_prompt: bool) -> None:
        self.console = console
        self.live_prompt = live_prompt
        self._lock = threading.Lock()
        self._pending: list[str] = []
        self._at_prompt = False

    def report(self, message: str) -> None:
        with self._lock:
            if not (self._at_prompt and self.live_prompt):
                self._pending.append(message)
                return
            buffer = ""
            with contextlib.suppress(ImportError):
                import readline

                buffer = readline.get_line_buffer()
            # Erase the prompt line, print the notice, draw the prompt and typed text again.
            sys.stdout.write(f"\r\x1b[K· {message}\n{PROMPT}{buffer}")
            sys.stdout.flush()

    def flush(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, []
        for message in pending:
            self.console.print(f"· {message}", style="dim", markup=False, highlight=False)

    def prompt_open(self, value: bool) -> None:
        with self._lock:
            self._at_prompt = value


def render_reply(reply: Reply, console: Console, errors: Console) -> None:
    """Print what a slash command returned."""
    if reply.error:
        errors.print(f"{reply.text}", style="red", markup=False, highlight=False)
        return
    if reply.rows:
        from rich.table import Table

        table = Table(title=reply.title or None, title_justify="left", show_header=False)
        table.add_column(overflow="fold", style="bold")
        table.add_column(overflow="fold")
        for left, right in reply.rows:
            table.add_row(left, right)
        console.print(table)
    elif reply.markdown:
        from rich.markdown import Markdown

        console.print(Markdown(reply.text))
    elif reply.text:
        console.print(reply.text, markup=False, highlight=False)


@contextlib.contextmanager
def retries_to(conversation: Conversation, view: AnswerView) -> Iterator[None]:
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


def asker() -> Callable[[str], bool] | None:
    """A y/N question on the terminal, as `memclaw forget` asks; None when stdin is no terminal."""
    if not sys.stdin.isatty():
        return None

    def ask(question: str) -> bool:
        try:
            return bool(typer.confirm(question, default=False, err=True))
        except (typer.Abort, EOFError, KeyboardInterrupt):
            return False  # no answer is a no: nothing is removed

    return ask
