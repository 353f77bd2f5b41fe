"""Post-chat extraction on a background thread, never in the way of the next message.

It starts after a turn once the thresholds hold (enough messages, a last
user message long enough, no recent extraction of this agent and owner),
and once more when the conversation ends if anything was said since. On an
endpoint that answers one request at a time (a server on this machine, or
``model_slots: 1``) it runs only when the conversation ends. What it cannot
finish then, or what the model fails, is queued for the next chat or dream.
Its outcome becomes one quiet line for the person; its failures go to
the ledger's ``chat`` stream, never to the screen as an error. Subagents,
``--no-capture`` and conversations started by cron, heartbeat or automation
triggers are never extracted.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memclaw.errors import MemclawError
from memclaw.workspace.logs import append_log

if TYPE_CHECKING:
    from memclaw.chat.session import ChatSession
    from memclaw.extract.result import ExtractionResult
    from memclaw.llm import ChatModel
    from memclaw.workspace.scope import Scope

CHAT_LOG = "chat"
EXIT_WAIT_SECONDS = 30.0
_log = logging.getLogger("memclaw.chat")
ModelFactory = Callable[[], "ChatModel | None"]
Report = Callable[[str], None]


@contextlib.contextmanager
def main_thread_signals() -> Iterator[None]:
    """Threads started inside leave Ctrl-C to the main thread.

    A SIGINT that the kernel hands to a helper thread never wakes the main
    thread blocked in ``input()``; new threads inherit the signal mask, so
    blocking SIGINT while they start keeps it for the main thread.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def describe(result: ExtractionResult) -> str:
    """The quiet line: what extraction did, in a few words."""
    status = str(result.status)
    if status == "written":
        return f"memory updated: {', '.join(result.files_changed)}"
    if status == "nothing-to-keep":
        return "memory: nothing new to keep"
    return f"memory not updated: {result.reason}"


def receipt(scope: Scope, result: ExtractionResult) -> str:
    """The receipt of what the extraction wrote, line by line; the quiet line otherwise."""
    from memclaw.changes.receipt import receipt_lines
    from memclaw.changes.records import find

    change = find(scope, result.change) if result.change else None
    if change is None:
        return describe(result)
    return "\n".join(receipt_lines(change, scope))


@dataclass
class BackgroundExtractor:
    """Runs extraction of one session at most once at a time, off the input path."""

    session: ChatSession
    model_factory: ModelFactory
    report: Report
    enabled: bool = True
    on_written: Callable[[], None] | None = None
    results: list[ExtractionResult] = field(default_factory=list)
    _thread: threading.Thread | None = None
    _extracted_upto: int = 0  # messages covered by the last extraction that ran
    _failed: bool = False  # the last extraction failed (it queued the conversation)
    _queued: bool = False  # the conversation waits in the pending queue while it is open

    @property
    def active(self) -> bool:
        """Whether this chat may capture at all."""
        settings = self.session.agent.settings
        return self.enabled and self.session.captures and settings.extract_enabled

    @property
    def one_slot(self) -> bool:
        """Whether the endpoint answers one request at a time: then extraction waits for
        the end of the chat, so that no answer waits behind it."""
        from memclaw.llm.gate import one_at_a_time

        return one_at_a_time(self.session.agent.settings)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _ready(self, messages: list[dict[str, str]]) -> bool:
        settings = self.session.agent.settings
        if len(messages) < settings.extract_min_messages:
            return False
        last_user = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
        return len(last_user.strip()) >= settings.extract_min_user_chars

    def after_turn(self) -> bool:
        """Start an extraction if the thresholds hold; True when one was started."""
        from memclaw.extract.state import cooldown_left

        if self.active and not self._queued:
            # Queued while it is open, taken off when its extraction is done: a chat killed
            # mid-way (a crash, a closed terminal) is extracted by the next chat or dream.
            self._queue("the chat was open, and ended before its extraction")
            self._queued = True
        messages = self.session.text_messages()
        if not self.active or self.running or self.one_slot or not self._ready(messages):
            return False
        if cooldown_left(self.session.scope) > 0:
            return False
        self._start(messages, force=False)
        return True

    def has_work(self) -> bool:
        """Whether ending the conversation now would wait for or start an extraction."""
        messages = self.session.text_messages()
        new = len(messages) > self._extracted_upto and self._ready(messages)
        return self.running or (self.active and new)

    def finish(self, wait: float = EXIT_WAIT_SECONDS) -> ExtractionResult | None:
        """At the end of the conversation: extract what is new, wait a bounded time."""
        self.join(wait)
        messages = self.session.text_messages()
        if (
            self.active
            and not self.running
            and len(messages) > self._extracted_upto
            and self._ready(messages)
        ):
            # Our own mid-conversation run must not hold back the final one; another
            # process's recent run still does (the cooldown is only bypassed for ours).
            self._start(messages, force=self._extracted_upto > 0)
            self.join(wait)
        if self.running:
            # The thread dies with the process: the conversation waits for the next one.
            self._queue("stopped waiting at the end of the chat")
            self.report(
                "memory: extraction still running; queued for the next chat or dream "
                f"(now: memclaw extract {self.session.agent.id} --session {self.session.id})"
            )
            return None
        from memclaw.extract.result import Status

        last = self.results[-1] if self.results else None
        if self._queued and not self._failed and not (last and last.status is Status.SKIPPED):
            self._unqueue()  # extracted, or too little to extract: nothing waits
        return last

    def _unqueue(self) -> None:
        from memclaw.extract.pending import remove_row

        session = self.session
        with contextlib.suppress(MemclawError, OSError):
            remove_row(session.agent, {"session": session.id, "owner": session.scope.owner})

    def _queue(self, why: str, error: str = "") -> None:
        """Keep the conversation for a later extraction (``memclaw.extract.pending``)."""
        from memclaw.extract.pending import note_failure, queue_session

        session = self.session
        with contextlib.suppress(MemclawError, OSError):
            queue_session(session.scope, session.id, why)
            if error:
                note_failure(
                    session.agent, {"session": session.id, "owner": session.scope.owner}, error
                )

    def join(self, wait: float) -> None:
        if self._thread is not None:
            self._thread.join(wait)

    def _start(self, messages: list[dict[str, str]], *, force: bool) -> None:
        self._extracted_upto = len(messages)
        self._thread = threading.Thread(
            target=self._run, args=(messages, force), name="memclaw-extract", daemon=True
        )
        with main_thread_signals():
            self._thread.start()

    def _run(self, messages: list[dict[str, str]], force: bool) -> None:
        from memclaw.extract.pipeline import extract_conversation

        session = self.session
        try:
            result = extract_conversation(
                session.scope,
                messages,
                session_id=session.id,
                trigger=session.trigger or "chat",
                force=force,
                model=self.model_factory(),
            )
        except MemclawError as exc:
            _log.info("extraction after chat failed: %s", exc)
            append_log(
                session.agent,
                CHAT_LOG,
                {"event": "extract-failed", "session": session.id, "error": str(exc)},
            )
            self._failed = True
            self._queue("the model failed it", error=str(exc))
            self.report(
                "memory not updated: extraction failed; queued to try again "
                f"(see memclaw log {self.session.agent.id} chat)"
            )
            return
        self._failed = False
        self.results.append(result)
        if result.files_changed and self.on_written is not None:
            self.on_written()
        self.report(receipt(session.scope, result))
