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
