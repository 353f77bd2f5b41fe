"""The request gate: calls in flight per client, a 429 pausing every caller, job deadlines."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from fake_openai import FakeOpenAI

from memclaw.config import Settings
from memclaw.llm import open_model
from memclaw.llm.gate import JobTimeoutError, RequestGate, job_deadline

MakeSettings = Callable[..., Settings]
USER: list[dict[str, Any]] = [{"role": "user", "content": "hello"}]


def test_no_more_calls_in_flight_than_the_setting(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    lock = threading.Lock()
    seen = {"now": 0, "most": 0}

    def slow(_request: dict[str, Any]) -> str:
        with lock:
            seen["now"] += 1
            seen["most"] = max(seen["most"], seen["now"])
        time.sleep(0.05)
        with lock:
            seen["now"] -= 1
        return "ok"

    fake_openai.default_reply = slow
    model = open_model(make_settings(max_concurrent_requests=3))
    threads = [threading.Thread(target=model.chat, args=(USER,)) for _ in range(9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(fake_openai.chat_requests()) == 9
    assert 1 <= seen["most"] <= 3


def test_a_429_pauses_every_caller_of_the_client(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    fake_openai.queue_error(429, "slow down", retry_after=30)
    model = open_model(make_settings(max_retries=1))
    told = threading.Event()
    model.on_retry = lambda _notice: told.set()  # type: ignore[attr-defined]
    failures: list[BaseException] = []

    def first() -> None:
        with job_deadline(0.5):
            try:
                model.chat(USER)
            except JobTimeoutError as exc:
                failures.append(exc)

    thread = threading.Thread(target=first)
    thread.start()
    assert told.wait(10)
    # Another job of the same client, after the 429: it must not call the server
    # during the 30 s pause; with its own short deadline it gives up instead.
    with job_deadline(0.1), pytest.raises(JobTimeoutError, match="job_timeout_seconds"):
        model.chat(USER)
    thread.join()
    assert len(fake_openai.chat_requests()) == 1
    assert len(failures) == 1


def test_a_job_out_of_time_starts_no_call() -> None:
    gate = RequestGate(2)
    with job_deadline(0.0001):
        time.sleep(0.001)
        with pytest.raises(JobTimeoutError), gate.slot():
            pass
    with job_deadline(None), gate.slot():  # no deadline: passes
        assert gate.in_flight == 1
    assert gate.in_flight == 0 and gate.most_in_flight == 1
