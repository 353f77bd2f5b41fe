"""The summary cache outlives one process: `chat -m` after `chat -m` on one session reuses it."""

from pathlib import Path

from chat.test_context import NEW, SYSTEM, Clock, Summarizer, turns, words
from memclaw.chat.context import ContextWindow
from memclaw.config import Settings

SETTINGS = Settings(
    context_window_tokens=1000,
    compact_trigger_ratio=0.75,
    preserve_recent_pairs=2,
    min_recent_messages=4,
    context_summary_max_tokens=30,
)


def test_a_second_window_on_the_same_store_reuses_the_summary(tmp_path: Path) -> None:
    store = tmp_path / "summaries" / "team-s1.json"
    clock, summarize = Clock(), Summarizer()
    history = turns(20)
    first = ContextWindow(SETTINGS, words, clock, store).pack(
        SYSTEM, history, NEW, summarize=summarize
    )
    again = ContextWindow(SETTINGS, words, clock, store)  # the next `chat -m` process
    second = again.pack(SYSTEM, history, NEW, summarize=summarize)
    assert first.compressed and second.cached and len(summarize.calls) == 1
    assert second.messages == first.messages
    clock.now = clock.now.replace(hour=23)  # past summary_cache_minutes: made again
    ContextWindow(SETTINGS, words, clock, store).pack(SYSTEM, history, NEW, summarize=summarize)
    assert len(summarize.calls) == 2


def test_a_damaged_store_is_only_a_cold_cache(tmp_path: Path) -> None:
    store = tmp_path / "s.json"
    store.write_text("{not json")
    summarize = Summarizer()
    ContextWindow(SETTINGS, words, Clock(), store).pack(SYSTEM, turns(20), NEW, summarize=summarize)
    assert len(summarize.calls) == 1 and store.read_text().startswith("{")
