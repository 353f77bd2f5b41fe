"""A whole chat: session, engine, background extraction and the quiet notices between them.

This is what front ends (the terminal chat, one-shot scripts, tests) drive:
``Conversation.open`` checks the model first, so an unconfigured endpoint
fails before anything is created, then ``turn`` and ``command`` until
``close``, which runs the final extraction and waits for it a bounded time.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memclaw.chat.background import EXIT_WAIT_SECONDS, BackgroundExtractor, Report
from memclaw.chat.commands import Reply, run_command
from memclaw.chat.engine import ChatEngine
from memclaw.chat.session import ChatSession
from memclaw.chat.turn import OnText, OnTool, TurnResult

if TYPE_CHECKING:
    from memclaw.chat.recall import Recalled
    from memclaw.extract.result import ExtractionResult
    from memclaw.llm import ChatModel
    from memclaw.workspace.agent import Agent
    from memclaw.workspace.scope import Scope


@dataclass
class Conversation:
    engine: ChatEngine
    extractor: BackgroundExtractor
    notices: queue.SimpleQueue[str] = field(default_factory=queue.SimpleQueue)

    @classmethod
    def open(
        cls,
        scope: Scope,
        *,
        session_id: str | None = None,
        resume: bool = False,
        subagent: bool = False,
        trigger: str | None = None,
        model: str | None = None,
        recall: bool = True,
        capture: bool = True,
        chat_model: ChatModel | None = None,
    ) -> Conversation:
        """Open (or resume) a session; raises ModelNotConfiguredError when no model is set."""
        from memclaw.llm import open_model

        settings = scope.agent.settings
        chosen = chat_model or open_model(settings, model=model)
        session = ChatSession.open(
            scope,
            session_id=session_id,
            resume=resume,
            subagent=subagent,
            trigger=trigger,
        )
        try:
            engine = ChatEngine(session, chosen, recall=recall, capture=capture)
        except BaseException:
            session.close()
            raise
        notices: queue.SimpleQueue[str] = queue.SimpleQueue()

        def extraction_model() -> ChatModel:
            # A model of its own: the extraction thread must not share a stream in flight.
            return open_model(settings, model=model or chosen.name)

        extractor = BackgroundExtractor(
            session,
            extraction_model,
            notices.put,
            enabled=capture,
            on_written=engine.note_own_writes,
        )
        if extractor.active and not extractor.one_slot:
            # (A server that answers one request at a time leaves them to the dream.)
            _extract_pending(session.agent, extraction_model, notices.put)
        return cls(engine, extractor, notices)

    @property
    def session(self) -> ChatSession:
        return self.engine.session

    def turn(
        self,
        text: str,
        *,
        on_text: OnText | None = None,
        on_tool: OnTool | None = None,
        on_recall: Callable[[Recalled], None] | None = None,
        keep_unanswered: bool = True,
    ) -> TurnResult:
        result = self.engine.turn(
            text,
            on_text=on_text,
            on_tool=on_tool,
            on_recall=on_recall,
            keep_unanswered=keep_unanswered,
        )
        self.extractor.after_turn()
        return result

    def command(self, line: str, *, ask: Callable[[str], bool] | None = None) -> Reply:
        return run_command(self.engine, line, ask=ask)

    def drain(self) -> list[str]:
        """Notices from background work since the last call, oldest first."""
        found = []
        while True:
            try:
                found.append(self.notices.get_nowait())
            except queue.Empty:
                return found

    def close(self, wait: float = EXIT_WAIT_SECONDS) -> ExtractionResult | None:
        """Final extraction (bounded wait), then release the session."""
        try:
            for note in self.engine.close_providers(self.session.agent.settings.mem0_flush_seconds):
                self.notices.put(note)
            return self.extractor.finish(wait)
        finally:
            self.session.close()


def _extract_pending(agent: Agent, model: Callable[[], ChatModel], report: Report) -> None:
    """Extract, off the input path, conversations an earlier cooldown held back."""
    from memclaw.chat.background import describe, main_thread_signals
    from memclaw.extract.later import extract_pending
    from memclaw.extract.pending import pending_sessions

    if not pending_sessions(agent):
        return

    def run() -> None:
        for result in extract_pending(agent, model()):
            report(f"earlier conversation: {describe(result)}")

    thread = threading.Thread(target=run, name="memclaw-pending", daemon=True)
    with main_thread_signals():
        thread.start()
