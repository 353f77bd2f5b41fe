"""A small model's window: the memory files are cut to their share, the tools left out."""

from pathlib import Path

from chat.chatkit import model_settings
from fake_openai import FakeOpenAI

from memclaw.chat import Conversation
from memclaw.prompt import assemble_prompt
from memclaw.prompt.fit import PROMPT_SHARE
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope


def test_files_are_cut_to_fit_a_small_window_and_say_so(demo_agent: Path) -> None:
    root = demo_agent.parent
    whole = assemble_prompt(Scope(Workspace.open(root).agent("demo")))
    small = Workspace.open(root, overrides={"context_window_tokens": 2048})
    fitted = assemble_prompt(Scope(small.agent("demo")))

    assert whole.total_tokens > 2048 * PROMPT_SHARE  # the demo's files alone do not fit
    assert fitted.total_tokens <= 2048 * PROMPT_SHARE + 60  # headers and markers aside
    assert "left out to fit a 2048-token context" in fitted.text
    assert "cut to fit a 2048-token context" in fitted.notes[-1]
    # The first lines of each file stay, and nothing on disk changed.
    memory = (demo_agent / "MEMORY.md").read_text()
    assert memory.splitlines()[0] in fitted.text
    assert assemble_prompt(Scope(Workspace.open(root).agent("demo"))).text == whole.text


def test_a_small_window_chats_without_tools(demo_agent: Path, fake_openai: FakeOpenAI) -> None:
    settings = model_settings(fake_openai, context_window_tokens=2048)
    ws = Workspace.open(demo_agent.parent, overrides=settings)
    conversation = Conversation.open(Scope(ws.agent("demo")))
    fake_openai.queue_text("Saturday the 12th.")
    result = conversation.turn("When is the cutover?")
    body = fake_openai.chat_requests()[-1].body
    assert isinstance(body, dict) and "tools" not in body
    assert any("answered without them" in note for note in result.notes)
    conversation.close(wait=1)


def _too_large(fake: FakeOpenAI) -> None:
    fake.queue_error(
        400, "This model's maximum context length is 2048 tokens.", code="context_length_exceeded"
    )


def test_extract_and_dream_fall_back_to_offline_when_the_prompt_does_not_fit(
    demo_agent: Path, fake_openai: FakeOpenAI
) -> None:
    from memclaw.dream.run import dream_agent
    from memclaw.extract.pipeline import extract_conversation
    from memclaw.extract.transcripts import load_session

    settings = model_settings(fake_openai, context_window_tokens=2048)
    scope = Scope(Workspace.open(demo_agent.parent, overrides=settings).agent("demo"))
    before = (demo_agent / "PROFILE.md").read_text()

    _too_large(fake_openai)
    messages = load_session(scope, "2026-11-28-demo")
    done = extract_conversation(scope, messages, session_id="2026-11-28-demo", force=True)
    assert str(done.status) != "failed" and str(done.engine) == "offline"
    assert any("offline engine used" in note for note in done.notes)
    assert before.splitlines()[1] in (demo_agent / "PROFILE.md").read_text()

    # The dream's contradiction judge meets the small window first, then the rewrite does.
    for _ in range(2):
        _too_large(fake_openai)
    dreamed = dream_agent(scope)
    assert str(dreamed.status) != "failed", dreamed.reason
    assert dreamed.engine.startswith("offline")


def test_a_memory_file_past_its_ceiling_is_injected_up_to_it(demo_agent: Path) -> None:
    memory = demo_agent / "MEMORY.md"
    lines = [f"- Build host h{n} serves artifact cache {n * 7}" for n in range(20_000)]
    memory.write_text(memory.read_text() + "\n".join(lines) + "\n")
    ws = Workspace.open(demo_agent.parent, overrides={"memory_max_chars": 6000})
    assembled = assemble_prompt(Scope(ws.agent("demo")))

    block = next(b for b in assembled.blocks if b.source == "MEMORY.md")
    assert len(block.text) < 6100 and "h0 " in block.text and "h19999" not in block.text
    assert "over its ceiling (memory_max_chars 6,000)" in assembled.notes[0]
    # The file itself is as it was; search still finds what was not injected.
    assert "h19999" in memory.read_text()
