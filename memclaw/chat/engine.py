"""One turn of a chat: prompt, recall, context budget, streaming, tools, transcript.

Every turn re-reads the workspace: the system prompt is assembled afresh, so a
file edited on disk (by hand, by another process, by extraction) is what the
model sees next. The request is: one system message (prompt, the subagent
preamble when there is one, recalled memories), the summary of earlier turns
as a user message, the recent messages, the new message.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from memclaw.chat.context import ContextWindow, Packed, schema_tokens, summary_request
from memclaw.chat.recall import SUBAGENT_PREAMBLE, Recalled
from memclaw.chat.tools import ToolBox
from memclaw.chat.turn import (
    TOOL_MARKUP_NOTE,
    OnText,
    OnTool,
    TurnResult,
    close_interrupted,
    close_unanswered,
    tool_call_message,
    without_tool_markup,
)
from memclaw.chat.workspace_provider import WorkspaceProvider
from memclaw.errors import ContextTooLargeError, MemclawError, ModelError, UsageError
from memclaw.facts.judge import Judge
from memclaw.gates import is_automated_session, redact
from memclaw.llm import ChatResult, open_model_no_retry
from memclaw.prompt import assemble_prompt, token_counter
from memclaw.providers import RecallBlock, TurnContext, compose_recall, external_providers
from memclaw.providers.mem0_state import mark_uncaptured

if TYPE_CHECKING:
    from memclaw.chat.session import ChatSession, Message
    from memclaw.llm import ChatModel
    from memclaw.prompt import AssembledPrompt
    from memclaw.providers import MemoryProvider

MAX_TOOL_ROUNDS = 8
# Of the context window, what the tool definitions may take before chat goes without them.
TOOLS_SHARE = 0.25
FileState = dict[str, tuple[int, float]]


class _SummaryFailed(Exception):
    """Summarising earlier turns failed; the turn goes on with a hard trim instead."""


class ChatEngine:
    """Runs the turns of one session against one model."""

    def __init__(
        self,
        session: ChatSession,
        model: ChatModel,
        *,
        recall: bool = True,
        capture: bool = True,
        max_rounds: int = MAX_TOOL_ROUNDS,
    ) -> None:
        self.session = session
        self.scope = session.scope
        self.agent = session.agent
        self.owner = session.owner
        self.model = model
        self.max_rounds = max_rounds
        settings = self.agent.settings
        automated = is_automated_session(session.trigger, session.id)
        # Scheduled runs neither recall nor capture: they are the agent talking to itself.
        self.recall_enabled = recall and settings.recall_enabled and not automated
        # --no-capture keeps the chat out of every memory, an external provider's too.
        self.capture = capture and session.captures
        # A write the offline rules are unsure of gets the chat's own model's opinion, as
        # extraction's does (a client of its own: no retries, a person is waiting).
        judge = Judge(partial(open_model_no_retry, settings, model=model.name))
        self.tools = ToolBox(self.scope, session.id, read_only=session.subagent, judge=judge)
        # The workspace files first, then every external provider the settings switch on.
        self.providers: list[MemoryProvider] = [WorkspaceProvider(), *external_providers(settings)]
        for provider in self.providers:
            self.tools.add_tools(provider.tools())
        # One session's summaries outlive this process: `chat -m` calls share them.
        summaries = self.scope.summaries() / f"{session.id}.json"
        self.context = ContextWindow(settings, token_counter().count, self.agent.now, summaries)
        self.memory_operations: list[dict[str, Any]] = []
        self.last_packed: Packed | None = None
        self.last_recalled = Recalled()
        self.last_prompt: AssembledPrompt | None = None
        self._files_lock = threading.Lock()
        self._files = self._file_state()
        self._partial: list[str] = []

    # --- the files the model sees ----------------------------------------------------

    def _file_state(self) -> FileState:
        """Size and mtime of every memory file this chat may see (never other owners')."""
        state: FileState = {}
        for info in self.agent.list_files():
            state[info.name] = (info.size, info.modified)
        prefix = self.scope.prefix
        if prefix:
            for info in self.scope.list_files():
                state[prefix + info.name] = (info.size, info.modified)
        folder = self.agent.workspace.global_dir
        if folder.is_dir():
            for path in sorted(folder.glob("*.md")):
                stat = path.stat()
                state[f"global/{path.name}"] = (stat.st_size, stat.st_mtime)
        return state

    def changed_files(self) -> list[str]:
        """Files changed on disk since this chat last looked (its own writes excluded)."""
        with self._files_lock:
            now = self._file_state()
            names = now.keys() | self._files.keys()
            changed = sorted(n for n in names if now.get(n) != self._files.get(n))
            self._files = now
        return changed

    def note_own_writes(self) -> None:
        """Accept the current files as known: what memclaw itself just wrote is no news."""
        with self._files_lock:
            self._files = self._file_state()

    # --- prompt -------------------------------------------------------------------------

    def system_message(
        self, query: str, notes: list[str] | None = None
    ) -> tuple[Message, AssembledPrompt, Recalled]:
        prompt = assemble_prompt(self.scope)
        found = Recalled()
        blocks: list[RecallBlock] = []
        turn = self._turn_context(query, prompt)
        if self.recall_enabled and query:
            for provider in self.providers:
                try:
                    block = provider.recall(turn)
                except MemclawError as exc:  # a broken index must not stop the conversation
                    if notes is not None:
                        notes.append(f"recall skipped ({provider.name}): {exc}")
                    continue
                blocks.append(block)
                if isinstance(block.detail, Recalled):
                    found = block.detail
        parts = [prompt.text]
        parts += [b for b in (p.system_block(self.scope) for p in self.providers) if b]
        if self.session.subagent:
            parts.append(SUBAGENT_PREAMBLE)
        parts += compose_recall(blocks, self.agent.settings.recall_max_chars)
        # Memory files are hand-editable, so they can hold a credential the gate never saw;
        # memclaw's own additions to the request never carry one.
        content = redact("\n\n".join(parts))
        return {"role": "system", "content": content}, prompt, found

    def _turn_context(self, query: str, prompt: AssembledPrompt | None = None) -> TurnContext:
        return TurnContext(
            self.scope,
            self.session.id,
            query,
            captures=self.capture,
            turn_index=sum(1 for m in self.session.messages if m["role"] == "user"),
            prompt=prompt,
        )

    def close_providers(self, wait: float) -> list[str]:
        """Let providers finish background work for at most ``wait`` seconds in all."""
        notes: list[str] = []
        for provider in self.providers:
            notes += provider.close(wait)
        return notes

    def tools_tokens(self) -> int:
        return schema_tokens(self.tools.schemas, token_counter().count)

    def offered_tools(self) -> tuple[list[dict[str, Any]] | None, int]:
        """The tool definitions and their tokens; none when they would overfill the window.

        A small local model (a 2048-token context) cannot hold them beside memory and
        the conversation; it answers without tools rather than not at all.
        """
        tokens = self.tools_tokens()
        if tokens <= self.agent.settings.context_window_tokens * TOOLS_SHARE:
            return self.tools.schemas, tokens
        return None, 0

    # --- a turn -------------------------------------------------------------------------

    def turn(
        self,
        user_text: str,
        *,
        on_text: OnText | None = None,
        on_tool: OnTool | None = None,
        on_recall: Callable[[Recalled], None] | None = None,
        keep_unanswered: bool = True,
    ) -> TurnResult:
        """Answer ``user_text``; the turn is appended to the transcript once complete.

        Ctrl-C (KeyboardInterrupt) during the answer ends the turn early: what was
        said so far is kept, marked as interrupted, and the session goes on. When the
        model fails, the person's words are kept all the same (``keep_unanswered``),
        marked as never answered, and the error is raised.
        """
        text = user_text.strip()
        if not text:
            raise UsageError("the message is empty")
        result = TurnResult("", self.session.id, changed_files=self.changed_files())
        system, self.last_prompt, result.recalled = self.system_message(text, result.notes)
        self.last_recalled = result.recalled
        if on_recall is not None:  # shown before the answer streams
            on_recall(result.recalled)
        history = list(self.session.messages)
        current: list[Message] = [{"role": "user", "content": text}]
        self.tools.said = text  # a correction of a person's line is only ever the person's
        try:
            self._rounds(system, history, current, result, on_text, on_tool)
        except KeyboardInterrupt:
            result.interrupted = True
            result.text = close_interrupted(current, "".join(self._partial))
        except ModelError:
            # The model failed (unreachable, refused, too small a window): what the person
            # typed is still kept, for the extraction that follows, before the error is told.
            if keep_unanswered:
                close_unanswered(current)
                self._keep(text, current)
            raise
        turn = self._keep(text, current)
        # Each provider returns at once (slow work is on its own worker) and never raises.
        for provider in self.providers:
            provider.after_turn(turn, text, result.text)
        return result

    def _keep(self, text: str, current: list[Message]) -> TurnContext:
        """Append the turn to the transcript (marked uncaptured when capture is off)."""
        turn = self._turn_context(text)  # before the append: its index counts earlier turns
        self.session.append(current)
        if not self.capture:
            # Marked whether or not Mem0 is on now: a later `mem0 sync` must not send it.
            mark_uncaptured(self.scope, self.session.id, turn.turn_index)
        self.note_own_writes()
        return turn

    def _rounds(
        self,
        system: Message,
        history: list[Message],
        current: list[Message],
        result: TurnResult,
        on_text: OnText | None,
        on_tool: OnTool | None,
    ) -> None:
        for _ in range(self.max_rounds):
            answer = self._call(system, history, current, result, on_text)
            result.add_usage(answer.usage)
            result.notes.extend(n for n in answer.notes if n not in result.notes)
            if not answer.tool_calls:
                text, marked = without_tool_markup(answer.text)
                if marked:  # kept out of the transcript, and so out of extraction
                    result.notes.append(TOOL_MARKUP_NOTE)
                current.append({"role": "assistant", "content": text})
                result.text = text
                if not answer.text.strip():
                    # A small model's grammar or template can end the answer at once.
                    result.notes.append(
                        f"the model gave an empty answer (finish reason: {answer.finish_reason})"
                    )
                return
            current.append(tool_call_message(answer))
            for call in answer.tool_calls:
                record = self.tools.run(call)
                current.append({"role": "tool", "tool_call_id": call.id, "content": record.result})
                result.tool_calls.append(record)
                if record.operation is not None:
                    result.memory_operations.append(record.operation)
                    self.memory_operations.append(record.operation)
                    self.note_own_writes()
                if on_tool is not None:
                    on_tool(record)
        # The model kept calling tools: ask once more with none offered, so the person
        # gets an answer from what the tools returned instead of silence.
        result.notes.append(
            f"stopped after {self.max_rounds} rounds of tool calls; answered without tools"
        )
        answer = self._call(system, history, current, result, on_text, offer_tools=False)
        result.add_usage(answer.usage)
        current.append({"role": "assistant", "content": answer.text})
        result.text = answer.text

    # --- model calls with the three context stages ------------------------------------

    def _call(
        self,
        system: Message,
        history: list[Message],
        current: list[Message],
        result: TurnResult,
        on_text: OnText | None,
        offer_tools: bool = True,
    ) -> ChatResult:
        tools, tools_tokens = self.offered_tools() if offer_tools else (None, 0)
        if tools is None and offer_tools:
            note = "the memory tools do not fit this model's context window: answered without them"
            if note not in result.notes:
                result.notes.append(note)
        try:
            packed = self.context.pack(
                system, history, current, tools_tokens=tools_tokens, summarize=self._summarize
            )
        except _SummaryFailed as exc:
            result.notes.append(f"could not summarise earlier turns ({exc}); trimmed instead")
            packed = self.context.pack(system, history, current, tools_tokens=tools_tokens)
        result.compressed = result.compressed or packed.compressed
        try:
            return self._send(packed, tools, result, on_text)
        except ContextTooLargeError:
            packed = self.context.emergency(system, history, current)
        try:
            return self._send(packed, tools, result, on_text)
        except ContextTooLargeError:
            packed = self.context.last_resort(packed)
        return self._send(packed, tools, result, on_text)

    def _send(
        self,
        packed: Packed,
        tools: list[dict[str, Any]] | None,
        result: TurnResult,
        on_text: OnText | None,
    ) -> ChatResult:
        self.last_packed = packed
        result.context_tokens = packed.tokens
        result.notes.extend(n for n in packed.notes if n not in result.notes)
        self._partial = []

        def deliver(delta: str) -> None:
            self._partial.append(delta)
            if on_text is not None:
                on_text(delta)

        return self.model.stream(packed.messages, tools=tools, on_text=deliver)

    def _summarize(self, previous: str | None, messages: list[Message]) -> str:
        limit = self.agent.settings.context_summary_max_tokens
        try:
            answer = self.model.chat(summary_request(previous, messages, limit), max_tokens=limit)
        except ModelError as exc:
            raise _SummaryFailed(str(exc)) from exc
        return answer.text

    # --- reporting --------------------------------------------------------------------

    def token_report(self, query: str = "") -> dict[str, Any]:
        """Where the next request's tokens go, and how full the window is."""
        count = token_counter().count
        system, prompt, found = self.system_message(query)
        history = self.session.messages
        summary = self.context.summary_message()
        recent = history[self.context.summarized :] if summary else history
        budget = self.context.budget
        rows: list[dict[str, Any]] = [{"part": b.label, "tokens": b.tokens} for b in prompt.blocks]
        extra = count(system["content"]) - count(prompt.text)
        if extra > 0:
            rows.append({"part": "recall and preamble", "tokens": extra})
        rows.append({"part": "tool definitions", "tokens": self.tools_tokens()})
        if summary:
            summary_tokens = self.context.tokens([summary])
            rows.append({"part": "summary of earlier turns", "tokens": summary_tokens})
        recent_tokens = self.context.tokens(recent)
        rows.append({"part": f"recent messages ({len(recent)})", "tokens": recent_tokens})
        total = sum(int(row["tokens"]) for row in rows)
        return {
            "rows": rows,
            "total": total,
            "window": budget.window,
            "trigger": budget.trigger,
            "used": total / budget.window if budget.window else 0.0,
            "exact": prompt.exact_tokens,
            "counter": prompt.counter,
            "recalled": len(found.hits),
        }
