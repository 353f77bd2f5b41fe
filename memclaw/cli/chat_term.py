"""Terminal pieces of ``memclaw chat``: reading input, drawing answers, quiet notices."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.workspace.redaction import redact_lines

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
    from rich.live import Live

    from memclaw.chat import Reply, ToolRecord

PROMPT = "› "
CONTINUATION = "… "
BLOCK = '"""'
REDRAW_SECONDS = 0.08


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
    """Arrow-up history through readline, kept per owner in ``.memclaw/chat-history/``.

    Credentials never reach the file: a line holding one is kept redacted, and a
    multi-line message (a \"\"\" block, backslash continuations) holding one is
    taken out of the history whole, since readline keeps each of its lines apart
    and no single line of a pasted key looks like a key.
    """

    def __init__(self, path: Path | None, limit: int) -> None:
        self.path = path if limit > 0 else None
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
        if self.path is not None and self.path.is_file():
            with contextlib.suppress(OSError):
                readline.read_history_file(str(self.path))
        # A file written before secrets were looked for across lines is cleaned on load.
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
        if self._readline is None or self.path is None:
            return
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._readline.set_history_length(self.limit)
            self._readline.write_history_file(str(self.path))
            self.path.chmod(0o600)


class _Tail:
    """The last screenful of a renderable, so the newest streamed text stays in view.

    Live cannot move the cursor above the top of the screen; drawing only the
    tail while streaming avoids repeated copies in the scrollback, and the full
    answer is drawn once when the stream ends.
    """

    def __init__(self, inner: RenderableType) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.segment import Segment

        height = max((options.height or console.size.height) - 1, 1)
        lines = console.render_lines(self.inner, options.update(height=None), pad=False)
        for line in lines[-height:]:
            yield from line
            yield Segment.line()


class AnswerView:
    """Draws an answer as it streams: live markdown on a terminal, plain text otherwise."""

    def __init__(self, console: Console, live: bool, *, tools_to: Console | None = None) -> None:
        self.console = console
        self.tools_to = tools_to or console
        self.use_live = live
        self.segments: list[tuple[str, str]] = []
        self._live: Live | None = None
        self._drawn = 0.0

    def __enter__(self) -> AnswerView:
        if self.use_live:
            from rich.live import Live

            self._live = Live(
                console=self.console,
                refresh_per_second=12,
                transient=False,
            )
            from memclaw.chat.background import main_thread_signals

            with main_thread_signals():  # Ctrl-C must reach the main thread, not the redraws
                self._live.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def renderable(self) -> RenderableType:
        from rich.console import Group
        from rich.markdown import Markdown
        from rich.text import Text

        parts: list[RenderableType] = []
        for kind, text in self.segments:
            parts.append(Text(text, style="dim") if kind == "tool" else Markdown(text))
        return Group(*parts)

    def _redraw(self, force: bool = False) -> None:
        if self._live is None:
            return
        now = time.monotonic()
        if force or now - self._drawn >= REDRAW_SECONDS:
            self._drawn = now
            self._live.update(_Tail(self.renderable()), refresh=force)

    def text(self, delta: str) -> None:
        if self.segments and self.segments[-1][0] == "text":
            self.segments[-1] = ("text", self.segments[-1][1] + delta)
        else:
            self.segments.append(("text", delta))
        if self._live is not None:
            self._redraw()
        else:
            sys.stdout.write(delta)
            sys.stdout.flush()

    def tool(self, record: ToolRecord) -> None:
        line = f"· {record.summary}"
        self.segments.append(("tool", line))
        if self._live is not None:
            self._redraw(force=True)
        else:
            if self.segments[:-1] and self.segments[-2][0] == "text":
                sys.stdout.write("\n")
                sys.stdout.flush()
            self.tools_to.print(line, style="dim", markup=False, highlight=False)

    def note(self, text: str) -> None:
        self.segments.append(("tool", text))
        if self._live is not None:
            self._redraw(force=True)
        else:
            self.tools_to.print(text, style="dim", markup=False, highlight=False)

    def close(self) -> None:
        if self._live is not None:
            self._live.update(self.renderable())  # stop() draws it whole, however tall
            self._live.stop()
            self._live = None
        elif self.segments and self.segments[-1][0] == "text":
            sys.stdout.write("\n")
            sys.stdout.flush()


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
