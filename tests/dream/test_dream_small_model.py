"""A dream against a model whose context cannot hold the prompt says it dreamed offline."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from fake_openai import FakeOpenAI
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.workspace import Workspace

FACT = "Maya prefers uv over Poetry for every Python project."


def test_a_dream_that_fell_back_to_the_offline_engine_says_so(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    agent, _ = Workspace.open(isolated_env).init_agent("demo")
    for offset in (3, 2, 1):
        agent.append_daily(f"- {FACT}", day=date.today() - timedelta(days=offset))
    # What llama-cpp-python's server answers to a prompt longer than its n_ctx.
    message = "Requested tokens (2400) exceed context window of 2048"
    fake_openai.queue_error(400, message, code="context_length_exceeded")
    result = CliRunner().invoke(
        app,
        ["--set", f"base_url={fake_openai.base_url}", "--set", "api_key=test", "dream", "demo"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert "demo: dreamed offline (the prompt did not fit the model's context)" in result.output
    assert FACT in (isolated_env / "demo" / "MEMORY.md").read_text()


def test_a_dream_whose_model_answer_is_not_the_json_asked_for_dreams_offline(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    agent, _ = Workspace.open(isolated_env).init_agent("demo")
    for offset in (3, 2, 1):
        agent.append_daily(f"- {FACT}", day=agent.now().date() - timedelta(days=offset))
    fake_openai.queue_text('{"memory": "# Memory\n- invented"}')  # not the keys asked for
    result = CliRunner().invoke(
        app,
        ["--set", f"base_url={fake_openai.base_url}", "--set", "api_key=test", "dream", "demo"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert "demo: dreamed offline (the model's answer was not the JSON asked for)" in result.output
    memory = (isolated_env / "demo" / "MEMORY.md").read_text()
    assert FACT in memory and "invented" not in memory


def test_a_dream_whose_model_gives_the_prompts_template_back_dreams_offline_or_says_nothing(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    import json

    agent, _ = Workspace.open(isolated_env).init_agent("demo")
    for offset in (3, 2, 1):
        agent.append_daily(f"- {FACT}", day=agent.now().date() - timedelta(days=offset))
    # A small model copies the answer's description instead of answering it.
    template = {
        "should_update": True,
        "reason": "one or two sentences on what you changed and why",
        "memory_content": "the complete new MEMORY.md, or an empty string when should_update "
        "is false",
    }
    fake_openai.queue_text(json.dumps(template))
    args = ["--set", f"base_url={fake_openai.base_url}", "--set", "api_key=test", "dream", "demo"]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "demo: dreamed offline (the model's answer was not the JSON asked for)" in result.output
    memory = (isolated_env / "demo" / "MEMORY.md").read_text()
    assert FACT in memory and "complete new MEMORY.md" not in memory
    # Its own content with the template as its reason: the reason is not shown to anyone.
    wiki = "Maya moved the team wiki to Outline."
    for offset in (3, 2, 1):
        agent.append_daily(f"- {wiki}", day=agent.now().date() - timedelta(days=offset))
    fake_openai.queue_text(json.dumps({**template, "memory_content": memory + f"- {wiki}\n"}))
    again = CliRunner().invoke(app, args, catch_exceptions=False)
    assert again.exit_code == 0 and "offline" not in again.output, again.output
    assert len(fake_openai.chat_requests()) == 2
    assert wiki in (isolated_env / "demo" / "MEMORY.md").read_text()
    dreams = (isolated_env / "demo" / "DREAMS.md").read_text()
    assert "the model gave no reason" in dreams
    assert "one or two sentences on what you changed" not in dreams


def test_a_consolidation_whose_model_answer_was_not_json_merges_offline_and_says_so(
    isolated_env: Path, fake_openai: FakeOpenAI
) -> None:
    from memclaw.workspace.entries import Entry, format_entries

    agent, _ = Workspace.open(isolated_env).init_agent("demo")
    texts = [f"Maya owns project number {n} of the lotsen team." for n in range(8)]
    entries = [Entry(f"m-{i}", t, "project") for i, t in enumerate(texts)]
    agent.write("entries/project.md", format_entries(entries, "Projects"))
    before = (isolated_env / "demo" / "entries" / "project.md").read_text()
    fake_openai.queue_text("Sure! Here are the merged entries: project 1, project 2.")
    result = CliRunner().invoke(
        app,
        [
            "--set",
            f"base_url={fake_openai.base_url}",
            "--set",
            "api_key=test",
            "consolidate",
            "demo",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    said = "demo: merged offline (the model's answer was not the JSON asked for)"
    assert said in result.output and "failed" not in result.output
    # Eight entries of one shape, none the same fact: the offline merge keeps them all.
    assert (isolated_env / "demo" / "entries" / "project.md").read_text() == before
