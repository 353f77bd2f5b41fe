"""The context budget of a chat: what of the conversation still fits the model's window.

Three stages, every threshold from settings:

1. Compression. When the estimate passes ``compact_trigger_ratio`` of
   ``context_window_tokens``, earlier turns are summarised by the model into at
   most ``context_summary_max_tokens``. The recent tail stays verbatim: at
   least ``preserve_recent_pairs`` turns and never fewer than
   ``min_recent_messages`` messages, more when the token budget allows. The
   summary is cached for ``summary_cache_minutes`` under the hash of the
   summarised prefix (in ``.memclaw/summaries/<session>.json`` when the chat
   names a session, so one ``chat -m`` call after another reuses it), and it
   reaches the model as a *user* message: old user text must never be
   promoted to system-level instructions.
2. Emergency. If the model still answers "context too large", only the last
   two turns are kept and the request is retried once.
3. Hard trim. If even that is refused (or the estimate exceeds the window),
   messages are dropped from the front, always keeping the last two.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from memclaw.chat.session import Message, iter_turns
from memclaw.config import Settings

SUMMARY_HEADER = "[Summary of our earlier conversation]"
# Of the window, what a request leaves free: room for the answer, and for the model's
# own tokenizer counting more than ours (Gemma's counted 2,050 of what we made 2,048).
ANSWER_SHARE = 0.125
# Role, separators and name of each message, as chat templates add them.
MESSAGE_OVERHEAD = 4
Summarize = Callable[[str | None, list[Message]], str]

SUMMARY_INSTRUCTIONS = """\
You compress the earlier part of a conversation between a person and their
assistant so the assistant can continue it without the full text. Keep what
the rest of the conversation may need: facts about the person, decisions and
their reasons, names, numbers, dates, open questions, promises the assistant
made, and what tools found or changed. Leave out greetings and repetition.
Write plain sentences in the third person ("The person said ..."), in the
language of the conversation. Never copy credentials. Stay under {limit} tokens."""


def message_text(message: Message) -> str:
    """Everything of a message that costs tokens: its text and any tool calls."""
    parts: list[str] = []
    content = message.get("content")
    if isinstance(content, str):
        parts.append(content)
    elif content is not None:
        parts.append(json.dumps(content, ensure_ascii=False))
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        parts.append(f"{function.get('name', '')} {function.get('arguments', '')}")
    return "\n".join(parts)


@dataclass(frozen=True)
class Budget:
    """The numbers of the context policy, taken from settings."""

    window: int
    trigger: int
    summary_max: int
    keep_turns: int
    keep_messages: int
    cache: timedelta

    @classmethod
    def from_settings(cls, settings: Settings) -> Budget:
        return cls(
            window=settings.context_window_tokens,
            trigger=int(settings.compact_trigger_ratio * settings.context_window_tokens),
            summary_max=settings.context_summary_max_tokens,
            keep_turns=settings.preserve_recent_pairs,
            keep_messages=max(settings.min_recent_messages, 2 * settings.preserve_recent_pairs),
            cache=timedelta(minutes=settings.summary_cache_minutes),
        )


@dataclass
class Packed:
    """The messages of one request and how they were made to fit."""

    messages: list[Message]
    tokens: int
    fixed_tokens: int
    summary_tokens: int = 0
    summarized: int = 0  # history messages covered by the summary
    compressed: bool = False  # a summary was made or taken from the cache for this request
    cached: bool = False
    dropped: int = 0  # messages removed by the hard trim
    notes: list[str] = field(default_factory=list)


def summary_request(
    previous: str | None, messages: list[Message], limit: int, max_chars: int = 2000
) -> list[Message]:
    """The request that asks the model to summarise ``messages`` (after ``previous``)."""
    lines = []
    if previous:
        lines.append(f"Summary so far:\n{previous}\n")
    lines.append("Conversation to add to the summary:")
    for message in messages:
        text = " ".join(message_text(message).split())
        if not text:
            continue
        if len(text) > max_chars:
            text = text[:max_chars] + " …"
        role = message["role"]
        label = {"user": "Person", "assistant": "Assistant", "tool": "Tool result"}.get(role, role)
        lines.append(f"{label}: {text}")
    return [
        {"role": "system", "content": SUMMARY_INSTRUCTIONS.format(limit=limit)},
        {"role": "user", "content": "\n".join(lines)},
    ]


def _units(messages: list[Message]) -> list[list[Message]]:
    """Messages grouped so that a tool call never travels without its results."""
    units: list[list[Message]] = []
    for message in messages:
        if message["role"] == "tool" and units:
            units[-1].append(message)
        else:
            units.append([message])
    return units


class ContextWindow:
    """Decides, request by request, what of the conversation the model is sent."""

    def __init__(
        self,
        settings: Settings,
        count: Callable[[str], int],
        clock: Callable[[], datetime],
        store: Path | None = None,
    ) -> None:
        self.budget = Budget.from_settings(settings)
        self.count = count
        self.clock = clock
        self.summary: str | None = None
        self.summarized = 0
        self.store = store  # where the cache outlives this process; a rebuildable cache
        self._cache: dict[str, tuple[datetime, str]] = self._load()

    # --- counting -------------------------------------------------------------------

    def tokens(self, messages: list[Message]) -> int:
        return sum(self.count(message_text(m)) + MESSAGE_OVERHEAD for m in messages)

    def summary_message(self) -> Message | None:
        if not self.summary:
            return None
        return {"role": "user", "content": f"{SUMMARY_HEADER}\n{self.summary}"}

    # --- stage 1 ----------------------------------------------------------------------

    def pack(
        self,
        system: Message,
        history: list[Message],
        current: list[Message],
        *,
        tools_tokens: int = 0,
        summarize: Summarize | None = None,
    ) -> Packed:
        """System message, summary, the history that fits, and the turn in progress."""
        if self.summarized > len(history):  # a different (shorter) history: start over
            self.summary, self.summarized = None, 0
        fixed = self.tokens([system]) + tools_tokens
        current_tokens = self.tokens(current)
        packed = Packed([], 0, fixed)
        total = fixed + self._body_tokens(history) + current_tokens
        if total > self.budget.trigger and summarize is not None:
            boundary = self._boundary(history, fixed, current_tokens)
            if boundary > self.summarized:
                packed.cached = self._summarize(history, boundary, summarize)
                packed.compressed = True
        summary = self.summary_message()
        body = ([summary] if summary else []) + history[self.summarized :] + current
        packed.summary_tokens = self.tokens([summary]) if summary else 0
        packed.summarized = self.summarized
        room = self.budget.window - int(self.budget.window * ANSWER_SHARE) - fixed
        if self.tokens(body) > room:
            body, packed.dropped = self.hard_trim(body, room)
            packed.notes.append(f"dropped {packed.dropped} early messages to fit the window")
        packed.messages = [system, *body]
        packed.tokens = fixed + self.tokens(body)
        return packed

    def _body_tokens(self, history: list[Message]) -> int:
        summary = self.summary_message()
        return self.tokens(([summary] if summary else []) + history[self.summarized :])

    def _boundary(self, history: list[Message], fixed: int, current_tokens: int) -> int:
        """Where the verbatim tail starts: as long as the budget allows, never below the floor.

        Only a user message may start the tail, so a tool call is never cut from
        its results and the tail reads as a conversation.
        """
        budget = self.budget
        tail_budget = max(0, budget.trigger - fixed - budget.summary_max - current_tokens) // 2
        starts = [i for i, m in enumerate(history) if m["role"] == "user" and i > self.summarized]
        valid = []
        for start in starts:
            tail = history[start:]
            turns = sum(1 for m in tail if m["role"] == "user")
            if len(tail) >= budget.keep_messages and turns >= budget.keep_turns:
                valid.append(start)
        if not valid:
            return self.summarized
        for start in valid:  # ascending: the first that fits keeps the longest tail
            if self.tokens(history[start:]) <= tail_budget:
                return start
        return valid[-1]

    def _summarize(self, history: list[Message], boundary: int, summarize: Summarize) -> bool:
        """Summarise ``history[:boundary]``; True when the cache already had it."""
        key = hashlib.sha256(
            json.dumps(history[:boundary], sort_keys=True, ensure_ascii=False).encode()
        ).hexdigest()
        now = self.clock()
        self._cache = {k: v for k, v in self._cache.items() if v[0] > now}
        hit = self._cache.get(key)
        if hit is not None:
            self.summary, self.summarized = hit[1], boundary
            return True
        text = summarize(self.summary, history[self.summarized : boundary])
        text = self.cut(text.strip(), self.budget.summary_max)
        self._cache[key] = (now + self.budget.cache, text)
        self.summary, self.summarized = text, boundary
        self._save()
        return False

    def _load(self) -> dict[str, tuple[datetime, str]]:
        """The cache a previous process of this session left (unreadable: none)."""
        from memclaw.text import jsonsafe

        if self.store is None:
            return {}
        try:
            data = jsonsafe.loads(self.store.read_text(encoding="utf-8"))
            return {
                str(key): (datetime.fromisoformat(str(until)), str(text))
                for key, (until, text) in dict(data).items()
            }
        except (OSError, ValueError, TypeError, AttributeError):
            return {}

    def _save(self) -> None:
        if self.store is None:
            return
        from memclaw.gates import redact
        from memclaw.workspace.atomic import atomic_write

        data = {k: [until.isoformat(), redact(text)] for k, (until, text) in self._cache.items()}
        atomic_write(self.store, json.dumps(data, ensure_ascii=False))

    def cut(self, text: str, limit: int) -> str:
        """``text`` shortened to at most ``limit`` tokens (a model may overrun its budget)."""
        if self.count(text) <= limit:
            return text
        marker = " …"
        low, high = 0, len(text)
        while low < high:  # the longest prefix that fits, found by bisection
            middle = (low + high + 1) // 2
            if self.count(text[:middle] + marker) <= limit:
                low = middle
            else:
                high = middle - 1
        return text[:low].rstrip() + marker

    # --- stages 2 and 3 ---------------------------------------------------------------

    def emergency(self, system: Message, history: list[Message], current: list[Message]) -> Packed:
        """Only the last two turns (the turn in progress counts as one), and no summary."""
        turns = list(iter_turns(history[self.summarized :] + current))
        kept = [m for turn in turns[-2:] for m in turn]
        fixed = self.tokens([system])
        return Packed(
            [system, *kept],
            fixed + self.tokens(kept),
            fixed,
            notes=["the model refused the context as too large: kept only the last 2 turns"],
        )

    def hard_trim(self, messages: list[Message], room: int) -> tuple[list[Message], int]:
        """Drop whole messages from the front until ``room`` tokens suffice; keep the last 2."""
        units = _units(messages)
        protected = 0  # units holding the last two messages are never dropped
        seen = 0
        for unit in reversed(units):
            protected += 1
            seen += len(unit)
            if seen >= 2:
                break
        dropped = 0
        while len(units) > protected and self.tokens([m for u in units for m in u]) > room:
            dropped += len(units.pop(0))
        return [m for u in units for m in u], dropped

    def last_resort(self, packed: Packed) -> Packed:
        """The last two messages and the system message: what stage 3 ends with."""
        system, body = packed.messages[0], packed.messages[1:]
        kept, dropped = self.hard_trim(body, 0)
        return Packed(
            [system, *kept],
            packed.fixed_tokens + self.tokens(kept),
            packed.fixed_tokens,
            dropped=dropped,
            notes=[f"the model still refused: dropped {dropped} more messages, kept the last 2"],
        )


def schema_tokens(tools: list[dict[str, Any]], count: Callable[[str], int]) -> int:
    """What tool definitions cost: endpoints send them to the model as text."""
    return count(json.dumps(tools, ensure_ascii=False)) if tools else 0
