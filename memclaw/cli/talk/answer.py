"""Drawing a streamed answer in a terminal without losing a word of it.

The answer is written once, in order, and never redrawn: prose is wrapped at
word boundaries at the width the terminal has *now* (read again for every
word, so a resize takes effect on the next word), the model's own line breaks
are kept, and code blocks and tables pass through verbatim for the terminal to
fold. Nothing is cropped and the whole answer is in the scrollback, because
the only "live" part is the word still arriving. A rich ``Live`` region was
tried first: it crops lines wider than the screen and redraws the partial line
after Ctrl-C.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from typing import TextIO

from rich.cells import cell_len

# A list item's text continues under its first word, not under the marker.
_MARKER = re.compile(r"(?:[-*+•]|\d{1,3}[.)])")
_FENCE = re.compile(r" {0,3}(```|~~~)")
SPINNER_FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
SPINNER_SECONDS = 0.1


def terminal_width(stream: TextIO) -> int:
    """The width of the terminal behind ``stream`` at this moment (80 when unknown)."""
    try:
        return max(os.get_terminal_size(stream.fileno()).columns, 10)
    except (OSError, ValueError, AttributeError):
        return max(shutil.get_terminal_size().columns, 10)


def wrap_words(text: str, width: int, hang: int = 0) -> str:
    """``text`` wrapped at word boundaries to ``width`` cells, as chat answers are.

    A continuation row starts under the line's first word (a list item's text, not
    its marker), or ``hang`` columns in when that is further. A word wider than the
    row is left whole for the terminal to fold."""
    wrapper = WordWrapper(lambda: width, hang=hang)
    wrapped = wrapper.feed(text) + wrapper.finish()
    return wrapped if text.endswith("\n") else wrapped.removesuffix("\n")


class WordWrapper:
    """Turns streamed text into terminal output wrapped at word boundaries.

    ``feed`` returns what may be written now; the word still arriving is held
    back until a space or line break ends it, since only then is it known
    whether it fits on the current row.
    """

    def __init__(self, width: Callable[[], int], hang: int = 0) -> None:
        self.width = width
        self.hang = hang  # continuation rows start at least this far in (a column layout)
        self.in_code = False  # inside a ``` fence
        self.col = 0  # screen column of the cursor
        self._line = ""  # the source line so far (to spot fences and list markers)
        self._verbatim = False  # this line is code or a table: written as it comes
        self._word = ""
        self._spaces = ""
        self._lead = ""  # leading whitespace of the line
        self._indent = ""  # continuation rows of this line start with it
        self._words = 0  # words written on this source line
        self._wrapped = False  # this source line already goes on over more than one row

    def feed(self, text: str) -> str:
        out: list[str] = []
        for char in text.replace("\r", "").replace("\t", "    "):
            if char == "\n":
                out.append(self._end_line())
            elif self._verbatim or (self.in_code and not self._line):
                self._verbatim = True
                self._line += char
                out.append(char)
            elif char == " ":
                self._line += char
                if self._word:
                    out.append(self._put_word())
                if self._words == 0:
                    self._lead += char
                else:
                    self._spaces += char
            else:
                self._line += char
                self._word += char
                if self._words == 0 and (_FENCE.match(self._line) or self._line.lstrip() == "|"):
                    # A fence or table row: pass the line through untouched.
                    self._verbatim = True
                    out.append(self._line)
                    self._word = ""
        return "".join(out)

    def finish(self) -> str:
        """What is still held back, and a line break if the cursor is not at a row start."""
        out = self._put_word() if self._word else ""
        ended = self.col > 0 or bool(self._line and self._verbatim)
        self._reset_line()
        return out + ("\n" if ended else "")

    def _put_word(self) -> str:
        word, self._word = self._word, ""
        if self._words == 0:
            self._words = 1
            marker = " " * (cell_len(word) + 1) if _MARKER.fullmatch(word) else ""
            self._indent = max(self._lead + marker, " " * self.hang, key=len)
            text = self._lead + word
            self.col = cell_len(text)
            return text
        self._words += 1
        spaces, self._spaces = self._spaces, ""
        size = cell_len(word)
        # Wrap, unless the row holds nothing past its indent yet (a word wider than the
        # row would wrap forever); the first row always holds the line's first word.
        started = self.col > len(self._indent) or not self._wrapped
        if self.col + len(spaces) + size > self.width() and started:
            self._wrapped = True
            self.col = len(self._indent) + size
            return "\n" + self._indent + word
        self.col += len(spaces) + size
        return spaces + word

    def _end_line(self) -> str:
        out = self._put_word() if self._word else ""
        if self._verbatim and _FENCE.match(self._line):
            self.in_code = not self.in_code
        self._reset_line()
        return out + "\n"

    def _reset_line(self) -> None:
        self.col = 0
        self._line = self._word = self._spaces = self._lead = self._indent = ""
        self._verbatim = False
        self._words = 0
        self._wrapped = False


class Spinner:
    """A spinner with the seconds waited, on stderr, until the first token arrives.

    Notices (a retry) are printed above it as lines of their own. Only used when
    stderr is a terminal; every write holds ``lock`` so the spinner never lands
    in the middle of the answer.
    """

    def __init__(
        self, stream: TextIO, lock: threading.Lock, label: str = "waiting for the model"
    ) -> None:
        self.stream = stream
        self.lock = lock
        self.label = label
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._started = 0.0
        self._shown = False

    def start(self) -> None:
        from memclaw.chat.background import main_thread_signals

        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._spin, name="memclaw-spinner", daemon=True)
        with main_thread_signals():
            self._thread.start()

    def _spin(self) -> None:
        frame = 0
        while not self._stop.wait(SPINNER_SECONDS):
            with self.lock:
                if self._stop.is_set():
                    return
                elapsed = time.monotonic() - self._started
                glyph = SPINNER_FRAMES[frame % len(SPINNER_FRAMES)]
                self.stream.write(f"\r{glyph} {self.label} · {elapsed:.0f} s\x1b[K")
                self.stream.flush()
                self._shown = True
            frame += 1

    def notice(self, text: str) -> None:
        self.above(lambda: self.stream.write(f"· {text}\n"))

    def above(self, say: Callable[[], object]) -> None:
        """Print something (``say``) on lines of its own above the spinner."""
        with self.lock:
            self._clear()
            say()
            self.stream.flush()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def stop(self) -> None:
        """Erase the spinner; safe to call more than once."""
        if self._stop.is_set():
            return
        with self.lock:
            self._stop.set()
            self._clear()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(1.0)

    def _clear(self) -> None:
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False


@contextlib.contextmanager
def no_echo(stream: TextIO) -> Iterator[None]:
    """Keys typed while an answer streams are not echoed into it.

    They stay in the terminal's input queue and reach the next prompt; Ctrl-C
    still interrupts (only ECHO is turned off).
    """
    try:
        import termios

        fd = stream.fileno()
        saved = termios.tcgetattr(fd)
    except (ImportError, OSError, ValueError, AttributeError):
        yield
        return
    quiet = list(saved)
    quiet[3] &= ~termios.ECHO
    try:
        termios.tcsetattr(fd, termios.TCSANOW, quiet)
        yield
    finally:
        with contextlib.suppress(OSError):
            termios.tcsetattr(fd, termios.TCSANOW, saved)
