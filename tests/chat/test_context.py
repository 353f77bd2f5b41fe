"""The context budget on its own: compression, the tail floor, the cache, the trims."""

from datetime import datetime, timedelta
from typing import Any

from memclaw.chat.context import ANSWER_SHARE, SUMMARY_HEADER, ContextWindow
from memclaw.config import Settings

SYSTEM = {"role": "system", "content": "sys"}


def words(text: str) -> int:
    return len(text.split())


def turns(n: int, size: int = 20) -> list[dict[str, Any]]:
    messages = []
    for i in range(n):
        messages.append({"role": "user", "content": f"question{i} " + "w " * size})
        messages.append({"role": "assistant", "content": f"answer{i} " + "w " * size})
    return messages


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 10, 0)

    def __call__(self) -> datetime:
        return self.now


def window(**settings: Any) -> tuple[ContextWindow, Clock]:
    values: dict[str, Any] = {
        "context_window_tokens": 1000,
        "compact_trigger_ratio": 0.75,
        "preserve_recent_pairs": 2,
        "min_recent_messages": 4,
        "context_summary_max_tokens": 30,
    }
    values.update(settings)
    clock = Clock()
    return ContextWindow(Settings(**values), words, clock), clock


class Summarizer:
    def __init__(self) -> None:
        self.calls: list[tuple[str | None, int]] = []

    def __call__(self, previous: str | None, messages: list[dict[str, Any]]) -> str:
        self.calls.append((previous, len(messages)))
        return f"summary of {len(messages)} messages"


NEW = [{"role": "user", "content": "now"}]


def test_under_the_threshold_everything_is_sent_as_is() -> None:
    ctx, _ = window()
    summarize = Summarizer()
    history = turns(5)  # 10 messages of ~25 tokens: far under 750
    packed = ctx.pack(SYSTEM, history, NEW, summarize=summarize)
    assert packed.messages == [SYSTEM, *history, *NEW]
    assert not packed.compressed and summarize.calls == []


def test_over_the_threshold_earlier_turns_become_a_user_summary() -> None:
    ctx, _ = window()
    summarize = Summarizer()
    history = turns(20)  # 40 messages, ~1000 tokens > 750
    packed = ctx.pack(SYSTEM, history, NEW, summarize=summarize)
    assert packed.compressed
    summary = packed.messages[1]
    assert summary["role"] == "user"
    assert summary["content"].startswith(SUMMARY_HEADER)
    assert all(m["role"] != "system" for m in packed.messages[1:])
    tail = packed.messages[2:-1]
    assert tail == history[packed.summarized :]
    assert tail[0]["role"] == "user"
    assert len(tail) >= 4
    assert packed.tokens <= 750
    assert summarize.calls == [(None, packed.summarized)]


def test_the_tail_never_drops_below_the_floor() -> None:
    # A tiny budget: the tail is the floor, max(min_recent_messages, 2 * pairs).
    ctx, _ = window(context_window_tokens=200, min_recent_messages=6, preserve_recent_pairs=2)
    packed = ctx.pack(SYSTEM, turns(10), NEW, summarize=Summarizer())
    assert packed.compressed
    assert len(packed.messages[2:-1]) == 6
    ctx, _ = window(context_window_tokens=400, min_recent_messages=2, preserve_recent_pairs=4)
    packed = ctx.pack(SYSTEM, turns(20), NEW, summarize=Summarizer())
    assert packed.compressed and packed.dropped == 0
    assert sum(1 for m in packed.messages[2:-1] if m["role"] == "user") == 4


def test_the_summary_is_cached_for_the_same_prefix_until_it_expires() -> None:
    history = turns(20)
    first, clock = window()
    summarize = Summarizer()
    packed = first.pack(SYSTEM, history, NEW, summarize=summarize)
    # A new window with the same cache: the same prefix is not summarised again.
    first.summary, first.summarized = None, 0
    again = first.pack(SYSTEM, history, NEW, summarize=summarize)
    assert again.cached and len(summarize.calls) == 1
    assert again.messages[1] == packed.messages[1]
    first.summary, first.summarized = None, 0
    clock.now += timedelta(minutes=31)
    first.pack(SYSTEM, history, NEW, summarize=summarize)
    assert len(summarize.calls) == 2


def test_the_summary_is_sticky_and_extended_incrementally() -> None:
    ctx, _ = window()
    summarize = Summarizer()
    history = turns(20)
    first = ctx.pack(SYSTEM, history, NEW, summarize=summarize)
    longer = history + turns(1)
    second = ctx.pack(SYSTEM, longer, NEW, summarize=summarize)
    if len(summarize.calls) == 1:
        assert second.summarized == first.summarized  # still under the trigger
    history = longer + turns(20)
    ctx.pack(SYSTEM, history, NEW, summarize=summarize)
    previous, _count = summarize.calls[-1]
    assert previous is not None and previous.startswith("summary of")


def test_an_overlong_summary_is_cut_to_its_budget() -> None:
    ctx, _ = window(context_summary_max_tokens=5)
    packed = ctx.pack(SYSTEM, turns(20), NEW, summarize=lambda p, m: "word " * 50)
    assert words(packed.messages[1]["content"]) <= 5 + 5  # the header adds five words


def test_emergency_keeps_the_last_two_turns_without_summary() -> None:
    ctx, _ = window()
    history = turns(6)
    packed = ctx.emergency(SYSTEM, history, NEW)
    assert packed.messages == [SYSTEM, *history[-2:], *NEW]


def test_hard_trim_drops_from_the_front_and_keeps_the_last_two() -> None:
    ctx, _ = window()
    history = turns(6)
    kept, dropped = ctx.hard_trim(history, 0)
    assert kept == history[-2:] and dropped == 10
    kept, dropped = ctx.hard_trim(history, 60)
    assert kept == history[-2:]
    kept, _ = ctx.hard_trim(history, 10_000)
    assert kept == history


def test_hard_trim_never_separates_a_tool_call_from_its_results() -> None:
    ctx, _ = window()
    call = {"id": "c1", "type": "function", "function": {"name": "memory_list", "arguments": "{}"}}
    messages = [
        *turns(3),
        {"role": "user", "content": "list"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "a " * 50},
        {"role": "tool", "tool_call_id": "c2", "content": "b " * 50},
    ]
    kept, _ = ctx.hard_trim(messages, 0)
    assert kept[0]["role"] == "assistant" and kept[0]["tool_calls"]
    assert [m["role"] for m in kept] == ["assistant", "tool", "tool"]


def test_pack_hard_trims_when_even_the_tail_exceeds_the_window() -> None:
    ctx, _ = window(context_window_tokens=100)
    history = turns(3, size=40)
    packed = ctx.pack(SYSTEM, history, NEW)  # no summariser: stage 3 only
    assert packed.dropped > 0
    assert packed.messages[-1] == NEW[0]
    assert packed.tokens <= 100 or len(packed.messages) == 3


def test_a_request_leaves_room_for_the_answer_and_another_tokenizer() -> None:
    # 446 tokens in all fit a 500-token window whole; but the answer (and a model's
    # tokenizer counting more than ours) keeps an eighth of it free.
    ctx, _ = window(context_window_tokens=500, compact_trigger_ratio=1.0)
    history = turns(2, size=104)  # four messages of 105 words and 4 of overhead
    packed = ctx.pack(SYSTEM, history, NEW)
    assert packed.dropped > 0
    assert packed.tokens <= 500 * (1 - ANSWER_SHARE)
