"""A conversation typed into ``memclaw chat``, extracted while it goes on and at its end.

The real-model lane runs this as one of its paths::

    python -m benchmarks.real_chat AGENT

A new agent AGENT hears ``TURNS`` in one interactive ``memclaw chat`` (not ``-m``): each
turn is typed once the previous answer is done, then ``/exit``. memclaw takes a piped
stdin as one message (a script's single question), so the turns go in through a
pseudo-terminal, as a person's typing does; the answers are read off a pipe.

With the lane's settings (``model_slots: 2`` and a server with two slots, no cooldown)
the chat starts extracting after the second turn, while the conversation goes on. The
driver lingers after the last answer, a bounded time, until that extraction is logged,
as a person finishing a thought would; then ``/exit`` extracts the rest. What the chat
could not finish by then it queued; the driver then runs what the next chat or dream
runs first (``memclaw.extract.later.extract_pending``) with the configured model.

stderr says what each extraction did and which checks held; the exit code is 0 only
when all did: the chat ended cleanly, an extraction ran mid-chat, nothing waits in the
queue, and every fact told is in force at the end (the ones the mid-chat extraction
kept were not lost by the later one). Settings come from the environment, as the
commands' do.
"""

from __future__ import annotations

import contextlib
import os
import pty
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

TURNS = (
    "Hi, I'm Noor. I live in Utrecht and I work as a nurse.",
    "My daughter Lina turns seven in March, and she is mad about horses.",
    "On Tuesdays I play the cello in a small orchestra.",
)
# What each turn told, as a word memory must hold once the chat is over.
TOLD = {"Utrecht in force": "Utrecht", "Lina kept": "Lina", "the cello kept": "cello"}
SESSION = "real-chat"
PROMPT = "› ".encode()  # memclaw's input prompt: the previous answer is done
ANSWER_WAIT = 900.0  # the lane's request timeout: a long prompt on two busy cores
LINGER = 900.0  # the longest the driver waits after the last answer for the extraction
EXIT_WAIT = 600.0  # /exit waits for the final extraction a bounded time (30 s twice)


class Screen:
    """Everything the chat writes (stdout and stderr), read as it comes."""

    def __init__(self, fd: int) -> None:
        self.seen = b""
        self.closed = False
        self._changed = threading.Condition()
        threading.Thread(target=self._read, args=(fd,), daemon=True).start()

    def _read(self, fd: int) -> None:
        while chunk := os.read(fd, 4096):
            with self._changed:
                self.seen += chunk
                self._changed.notify_all()
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    def prompts(self, count: int, timeout: float) -> bool:
        """Wait until the chat has asked for input ``count`` times; False if it never did."""
        with self._changed:
            self._changed.wait_for(lambda: self.seen.count(PROMPT) >= count or self.closed, timeout)
            return self.seen.count(PROMPT) >= count

    def text(self) -> str:
        return self.seen.decode("utf-8", errors="replace")


@contextlib.contextmanager
def typing_into(agent_id: str) -> Iterator[tuple[subprocess.Popen[bytes], int, Screen]]:
    """``memclaw chat AGENT`` with a terminal for its input (no echo) and a pipe for its output."""
    keyboard, terminal = pty.openpty()
    quiet = termios.tcgetattr(terminal)
    quiet[3] &= ~termios.ECHO  # the driver's typing is not printed back
    termios.tcsetattr(terminal, termios.TCSANOW, quiet)
    chat = subprocess.Popen(
        [sys.executable, "-m", "memclaw", "chat", agent_id, "--session", SESSION, "--plain"],
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    os.close(terminal)
    assert chat.stdout is not None
    try:
        yield chat, keyboard, Screen(chat.stdout.fileno())
    finally:
        if chat.poll() is None:
            chat.kill()  # only ever the chat this driver started, by its pid
        chat.wait()
        os.close(keyboard)


def extractions(agent: Any) -> list[dict[str, Any]]:
    """Every extraction of the session so far: the extraction log's runs, and the runs
    that failed in a chat (logged by the chat instead)."""
    from memclaw.workspace.logs import read_log

    runs = [r for r in read_log(agent, "extract") if r.get("session") == SESSION]
    failed = [
        r
        for r in read_log(agent, "chat")
        if r.get("event") == "extract-failed" and r.get("session") == SESSION
    ]
    return runs + failed


def describe(run: dict[str, Any]) -> str:
    if run.get("event") == "extract-failed":
        return f"failed: {run.get('error')}"
    notes = "; ".join(str(n) for n in run.get("notes") or [])
    said = f"{run.get('status')}: {run.get('reason')} ({run.get('engine')})"
    return f"{said}; {notes}" if notes else said


def converse(agent: Any, agent_id: str) -> tuple[bool, int, str]:
    """Type the turns and /exit: (the chat ended cleanly, extractions seen before /exit,
    what the chat printed)."""
    from memclaw.llm.gate import one_at_a_time

    with typing_into(agent_id) as (chat, keyboard, screen):
        for number, turn in enumerate(TURNS, start=1):
            if not screen.prompts(number, ANSWER_WAIT):
                return False, 0, screen.text()
            os.write(keyboard, (turn + "\n").encode())
        if not screen.prompts(len(TURNS) + 1, ANSWER_WAIT):
            return False, 0, screen.text()
        # On one slot the chat never extracts before its end (memclaw.chat.background).
        waited = time.monotonic() + (0.0 if one_at_a_time(agent.settings) else LINGER)
        while not extractions(agent) and time.monotonic() < waited and chat.poll() is None:
            time.sleep(1.0)
        early = len(extractions(agent))
        os.write(keyboard, b"/exit\n")
        try:
            code = chat.wait(timeout=EXIT_WAIT)
        except subprocess.TimeoutExpired:
            code = -1
        screen.prompts(10**6, 5.0)  # the rest of its output, once the pipe closes
        return code == 0, early, screen.text()


def main(argv: Sequence[str] | None = None) -> int:
    from memclaw.extract.later import extract_pending
    from memclaw.extract.pending import pending_sessions
    from memclaw.facts.ledger import facts_of
    from memclaw.llm import open_model_if_configured
    from memclaw.workspace import Workspace
    from memclaw.workspace.scope import Scope

    (agent_id,) = list(sys.argv[1:] if argv is None else argv)
    made = subprocess.run(
        [sys.executable, "-m", "memclaw", "init", agent_id], capture_output=True, text=True
    )
    if made.returncode != 0:
        print(made.stderr.strip(), file=sys.stderr)
        return 1
    agent = Workspace.open().agent(agent_id)
    clean, early, printed = converse(agent, agent_id)
    print(printed)
    for run in extractions(agent):
        print(f"extraction: {describe(run)}", file=sys.stderr)
    if any(session == SESSION for _, session in pending_sessions(agent)):
        queued = "the chat left its extraction queued: the next command's pending capture"
        print(queued, file=sys.stderr)
        for result in extract_pending(agent, open_model_if_configured(agent.settings)):
            notes = "".join(f"; {note}" for note in result.notes)
            print(f"pending extraction: {result.status}: {result.reason}{notes}", file=sys.stderr)
    scope = Scope(Workspace.open().agent(agent_id))
    memory = [f.statement for f in facts_of(scope, durable_only=True) if not f.superseded]
    print("\n".join(memory))
    checks = {
        "the chat ended cleanly": clean,
        "every turn answered": not any(line.startswith("error:") for line in printed.splitlines()),
        "extracted mid-chat": early > 0,
        "nothing waits": not any(s == SESSION for _, s in pending_sessions(agent)),
        **{name: any(word in line for line in memory) for name, word in TOLD.items()},
    }
    print(verdict(checks), file=sys.stderr)
    return 0 if all(checks.values()) else 1


def verdict(checks: dict[str, bool]) -> str:
    """One line: the checks that did not hold first (a table cuts long notes short)."""
    held = ", ".join(name for name, ok in checks.items() if ok)
    missed = ", ".join(name for name, ok in checks.items() if not ok)
    return f"did not hold: {missed}; held: {held or 'none'}" if missed else f"all held: {held}"


if __name__ == "__main__":
    raise SystemExit(main())
