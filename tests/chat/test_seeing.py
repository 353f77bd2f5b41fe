"""Seeing memory in chat: recalled memories before the answer, /why, /morning."""

from datetime import date, timedelta
from typing import Any

from fake_openai import FakeOpenAI

from chat.chatkit import OpenChat, fixed_clock
from memclaw.cli.talk.interactive import _show_recalled
from memclaw.dream.run import dream_agent
from memclaw.facts.ids import fact_id
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope


def test_recalled_memories_arrive_before_the_answer(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    conversation.engine.agent.append_daily("The team standup moved to 09:30.")
    events: list[Any] = []
    conversation.turn(
        "when is the standup now?",
        on_text=lambda delta: events.append(("text", delta)),
        on_recall=lambda found: events.append(("recall", [h.text for h in found.hits])),
    )
    conversation.close(wait=5)
    assert events[0][0] == "recall" and any("09:30" in t for t in events[0][1])
    assert any(kind == "text" for kind, _ in events[1:])


class Notes:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def note(self, text: str) -> None:
        self.lines.append(text)


def test_recalled_lines_are_one_line_each_and_short(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    long = "The team standup moved to 09:30 " + "and it is a long story " * 10
    conversation.engine.agent.append_daily(long)
    result = conversation.turn("when is the standup now?")
    conversation.close(wait=5)
    view = Notes()
    _show_recalled(result.recalled, view)  # type: ignore[arg-type]
    assert view.lines and all("\n" not in line and len(line) < 110 for line in view.lines)
    assert view.lines[0].startswith("↳ The team standup moved to 09:30")
    assert "(memory/2026-11-29.md:" in view.lines[0]


def test_why_names_the_recalled_memories_and_the_files_of_the_last_answer(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    assert "no answer yet" in conversation.command("/why").text
    line = "The team standup moved to 09:30."
    conversation.engine.agent.append_daily(line)
    conversation.turn("when is the standup now?")
    reply = conversation.command("/why")
    conversation.close(wait=5)
    rows = dict(reply.rows)
    recalled = next(k for k in rows if k.startswith("recalled memory/2026-11-29.md"))
    assert f"[{fact_id(line)}]" in rows[recalled]
    assert "file MEMORY.md" in rows and "file SOUL.md" in rows


def test_why_gives_a_recalled_heading_no_fact_id(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    notes = conversation.engine.agent.path / "memory"
    notes.mkdir(exist_ok=True)
    (notes / "2026-11-29.md").write_text(
        "# 2026-11-29\n\n## Standup planning\n- The team standup moved to 09:30.\n",
        encoding="utf-8",
    )
    conversation.turn("standup planning?")
    reply = conversation.command("/why")
    conversation.close(wait=5)
    rows = dict(reply.rows)
    heading = next(v for k, v in rows.items() if k.startswith("recalled") and "##" in v)
    assert heading == "## Standup planning"  # a heading states no fact: no id to look up


def test_morning_in_chat_shows_the_card_and_takes_a_choice(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    agent = conversation.engine.agent
    offline = Workspace.open(agent.workspace.root, clock=fixed_clock)  # an offline dream
    scope = Scope(offline.agent(agent.id))
    for back in (1, 2):
        scope.append_daily(
            "- The release train leaves every Tuesday.", day=date(2026, 11, 29) - timedelta(back)
        )
    dream_agent(scope, model=None)
    card = conversation.command("/morning")
    (fid, text) = card.rows[0]
    assert "release train" in text and fid == fact_id(text)
    done = conversation.command(f"/morning confirm {fid}")
    assert f"confirmed {fid}" in done.text
    assert "no morning card" in conversation.command("/morning").text
    conversation.close(wait=5)
