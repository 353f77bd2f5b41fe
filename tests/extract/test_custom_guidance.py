"""extract_instructions and custom categories: in the prompt, in the tools, validated."""

from pathlib import Path
from types import MappingProxyType

import pytest
from fake_openai import FakeOpenAI

from extract.extractkit import CHAT, model_agent
from memclaw.chat.schemas import tool_schemas
from memclaw.config import load_settings
from memclaw.entries.memories import remember
from memclaw.errors import ConfigError, UsageError
from memclaw.extract.pipeline import extract_conversation
from memclaw.workspace.entries import BUILTIN_CATEGORIES, categories
from memclaw.workspace.scope import Scope

NOTHING = {
    "should_update": False,
    "reason": "nothing new",
    "daily_entry": "",
    "memory_update": "",
    "profile_update": "",
}


def test_instructions_and_custom_categories_reach_the_extraction_prompt(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(
        tmp_path,
        fake_openai.base_url,
        extract_instructions="Keep every mention of a customer's SLA.",
        categories={"health": "conditions, allergies and medication"},
    )
    fake_openai.queue_json(NOTHING)
    extract_conversation(Scope(agent), CHAT, force=True)
    system = fake_openai.chat_requests()[-1].body["messages"][0]["content"]
    assert system.rstrip().endswith("Keep every mention of a customer's SLA.")
    assert "- health: conditions, allergies and medication" in system
    assert "- preference:" in system  # extending keeps the built-in kinds


def test_without_custom_guidance_the_prompt_is_unchanged(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = model_agent(tmp_path, fake_openai.base_url)
    fake_openai.queue_json(NOTHING)
    extract_conversation(Scope(agent), CHAT, force=True)
    system = fake_openai.chat_requests()[-1].body["messages"][0]["content"]
    assert "Additional instructions" not in system and "kinds of facts" not in system


def test_categories_extend_or_replace_the_built_in_ones(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    extended = load_settings(root, {}, {"categories": '{"health": "allergies"}'})
    assert list(categories(extended)) == [*BUILTIN_CATEGORIES, "health"]
    (root / "memclaw.yaml").write_text(
        "categories:\n  health: allergies and medication\n  travel: trips and visas\n"
        "categories_replace: true\n",
        encoding="utf-8",
    )
    replaced = load_settings(root, {})
    assert categories(replaced) == {
        "health": "allergies and medication",
        "travel": "trips and visas",
    }


def test_custom_categories_in_tools_and_remember(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = model_agent(
        tmp_path, fake_openai.base_url, categories={"health": "allergies"}, categories_replace=True
    )
    store = next(t for t in tool_schemas(Scope(agent)) if t["function"]["name"] == "memory_store")
    assert store["function"]["parameters"]["properties"]["category"]["enum"] == ["health"]
    kept = remember(Scope(agent), "Maya is allergic to peanuts", category="health")
    assert kept.entry is not None and kept.entry.category == "health"
    guessed = remember(Scope(agent), "Maya prefers tea over coffee")
    assert guessed.entry is not None and guessed.entry.category == "health"
    with pytest.raises(UsageError, match="unknown category 'preference'"):
        remember(Scope(agent), "Maya likes jazz", category="preference")


@pytest.mark.parametrize(
    ("yaml_text", "message"),
    [
        ("categories: health\n", "must map names to descriptions"),
        ("categories:\n  Health: x\n", "lower-case letters"),
        ("categories:\n  health: ''\n", "needs a description"),
        ("categories_replace: true\n", "no 'categories' are set"),
        ("extract_instructions: " + "x" * 4001 + "\n", "keep it under 4000"),
    ],
)
def test_bad_guidance_is_one_clear_error(tmp_path: Path, yaml_text: str, message: str) -> None:
    (tmp_path / "memclaw.yaml").write_text(yaml_text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        load_settings(tmp_path, {})


def test_settings_keep_categories_read_only(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, {}, {"categories": '{"health": "allergies"}'})
    assert isinstance(settings.categories, MappingProxyType)
