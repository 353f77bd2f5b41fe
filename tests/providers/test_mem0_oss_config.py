"""Mem0's open-source mode, configured: what Mem0's library is given (no library needed)."""

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.config import load_settings
from memclaw.errors import ConfigError
from memclaw.providers.base import TurnContext
from memclaw.providers.mem0 import Mem0Provider
from memclaw.providers.mem0_api import Mem0Error, Mem0Memory
from memclaw.providers.mem0_connect import connector
from memclaw.providers.mem0_oss_config import mem0_config
from memclaw.workspace import Workspace
from memclaw.workspace.agent import Agent
from memclaw.workspace.scope import Scope

LOCAL = "http://127.0.0.1:8080/v1"


def _agent(root: Path, **settings: Any) -> Agent:
    ws = Workspace.open(root, overrides={"mem0_mode": "open-source", **settings})
    return ws.agent("pal") if (root / "pal").is_dir() else ws.init_agent("pal")[0]


def test_defaults_use_memclaws_embedding_endpoint_and_the_agents_own_folder(
    isolated_env: Path,
) -> None:
    agent = _agent(isolated_env, base_url=LOCAL, embedding_model="nomic-embed-text")
    config, infer = mem0_config(agent)
    assert config["embedder"] == {
        "provider": "openai",
        "config": {"model": "nomic-embed-text", "openai_base_url": LOCAL, "api_key": "not-needed"},
    }
    store = config["vector_store"]
    assert store["provider"] == "qdrant"  # Mem0's own default store, on disk
    assert store["config"]["path"] == str(agent.meta_dir / "mem0" / "qdrant")
    assert store["config"]["on_disk"] is True
    assert config["history_db_path"] == str(agent.meta_dir / "mem0" / "history.db")
    # No LLM configured: Mem0 keeps turns as said, and the LLM it insists on building
    # points at the local endpoint, never at a host on the internet.
    assert infer is False
    assert config["llm"]["config"]["openai_base_url"] == LOCAL


def test_the_oss_block_nests_in_memclaw_yaml_and_relative_paths_stay_in_the_agent(
    isolated_env: Path,
) -> None:
    (isolated_env / "memclaw.yaml").write_text(
        "base_url: http://127.0.0.1:9999/v1\n"
        "api_key: sk-chat\n"
        "model: qwen2.5:3b\n"
        "providers:\n"
        "  mem0:\n"
        "    mode: open-source\n"
        "    oss:\n"
        "      embedder:\n"
        "        provider: openai\n"
        f"        config: {{model: bge-m3, openai_base_url: '{LOCAL}', api_key: emb-key}}\n"
        "      vector_store:\n"
        "        config: {path: mem0-store, collection_name: pal_memories}\n"
        "      llm: {provider: openai}\n"
        "      history_db_path: mem0-history.db\n",
        encoding="utf-8",
    )
    agent = Workspace.open(isolated_env).init_agent("pal")[0]
    config, infer = mem0_config(agent)
    assert config["embedder"]["config"] == {
        "model": "bge-m3",
        "openai_base_url": LOCAL,
        "api_key": "emb-key",
    }
    assert config["vector_store"]["config"]["path"] == str(agent.path / "mem0-store")
    assert config["vector_store"]["config"]["collection_name"] == "pal_memories"
    assert config["history_db_path"] == str(agent.path / "mem0-history.db")
    # An LLM named without details is memclaw's own chat endpoint, and Mem0 then infers.
    assert infer is True
    assert config["llm"] == {
        "provider": "openai",
        "config": {
            "model": "qwen2.5:3b",
            "openai_base_url": "http://127.0.0.1:9999/v1",
            "api_key": "sk-chat",
        },
    }


def test_a_store_on_disk_never_falls_back_to_mem0s_tmp_folder(isolated_env: Path) -> None:
    faiss = {"provider": "faiss", "config": {"embedding_model_dims": 384}}
    agent = _agent(isolated_env, base_url=LOCAL, embedding_model="e5", mem0_oss_vector_store=faiss)
    store = mem0_config(agent)[0]["vector_store"]["config"]
    assert store["path"] == str(agent.meta_dir / "mem0" / "faiss")
    server = {"provider": "qdrant", "config": {"host": "localhost", "port": 6333}}
    agent = _agent(isolated_env, base_url=LOCAL, embedding_model="e5", mem0_oss_vector_store=server)
    assert "path" not in mem0_config(agent)[0]["vector_store"]["config"]


def test_keys_inside_the_oss_block_are_masked_in_config_show(isolated_env: Path) -> None:
    key = "emb-" + "secret-value-123"
    (isolated_env / "memclaw.yaml").write_text(
        "categories: {token: 'access tokens the team uses'}\n"
        "providers:\n  mem0:\n    oss:\n"
        f"      embedder: {{provider: openai, config: {{model: m, api_key: {key}}}}}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["config", "show", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert key not in result.stdout
    rows = {r["key"]: r["value"] for r in json.loads(result.stdout)["settings"]}
    assert rows["mem0_oss_embedder"]["config"] == {"model": "m", "api_key": "…"}
    # Masking is for the blocks that hold credentials: a category's name is just a name.
    assert rows["categories"] == {"token": "access tokens the team uses"}


def test_config_set_writes_a_part_that_loads_back(isolated_env: Path) -> None:
    llm = '{"provider": "openai", "config": {"model": "qwen2.5:3b"}}'
    result = CliRunner().invoke(
        app, ["config", "set", "providers.mem0.oss.llm", llm], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    settings = load_settings(isolated_env, env={})
    assert settings.mem0_oss_llm["config"]["model"] == "qwen2.5:3b"
    assert settings.source("mem0_oss_llm").endswith("memclaw.yaml:1")


@pytest.mark.parametrize(
    "value",
    ["openai", "{provider: openai, model: x}", "{provider: [a], config: {}}", "{config: 3}"],
)
def test_a_part_not_in_mem0s_shape_is_one_clear_error(isolated_env: Path, value: str) -> None:
    (isolated_env / "memclaw.yaml").write_text(
        f"providers:\n  mem0:\n    oss:\n      embedder: {value}\n", encoding="utf-8"
    )
    with pytest.raises(ConfigError, match=r"memclaw.yaml:4: 'providers.mem0.oss.embedder' takes"):
        load_settings(isolated_env, env={})


def test_open_source_mode_without_an_embedding_model_says_what_to_set(
    isolated_env: Path,
) -> None:
    agent = _agent(isolated_env, base_url=LOCAL)
    with pytest.raises(Mem0Error, match="needs an embedding model: set embedding_model"):
        connector(agent.settings)


def test_open_source_mode_without_the_library_says_how_to_install_it(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "mem0", None)  # as if memclaw[mem0] were not installed
    agent = _agent(isolated_env, base_url=LOCAL, embedding_model="e5")
    with pytest.raises(Mem0Error, match=r"pip install 'memclaw\[mem0\]'"):
        connector(agent.settings)


_SEARCH = """
import json, sys
from memclaw.cli import fast
status = fast.run_search(fast.parse_search(sys.argv[1:]))
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
sys.exit(status)
"""


def test_search_never_imports_mem0s_library(isolated_env: Path) -> None:
    (isolated_env / "memclaw.yaml").write_text(
        f"base_url: {LOCAL}\nembedding_model: e5\nproviders:\n  mem0:\n    mode: open-source\n",
        encoding="utf-8",
    )
    agent = Workspace.open(isolated_env).init_agent("pal")[0]
    agent.write("MEMORY.md", "# Memory\n- Maya is allergic to peanuts.\n")
    done = subprocess.run(
        [sys.executable, "-c", _SEARCH, "search", "peanuts", "--agent", "pal", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "peanuts" in done.stdout
    loaded = set(json.loads(done.stderr.splitlines()[-1]))
    assert not {m for m in loaded if m == "mem0" or m.startswith(("mem0.", "qdrant_client"))}
    assert "memclaw.providers.mem0_oss" not in loaded


class _SlowToOpen:
    """A store that takes longer to open than one search may take (the library's import)."""

    mode = "open-source"
    timeout_ms = 100

    def connect(self, agent: Agent) -> Any:
        time.sleep(0.5)
        return self

    def search(self, query: str, user_id: str, agent_id: str, top_k: int) -> list[Mem0Memory]:
        return [Mem0Memory("m1", f"{user_id} is allergic to peanuts", 0.9)]


def test_the_first_turn_waits_for_the_store_to_open_then_only_timeout_ms(
    isolated_env: Path,
) -> None:
    agent = _agent(isolated_env, base_url=LOCAL, embedding_model="e5")
    store = _SlowToOpen()
    provider = Mem0Provider(store.connect, timeout_ms=100)
    block = provider.recall(TurnContext(Scope.resolve(agent, "user:maya"), "s1", "dinner?"))
    assert block.lines == ("- user:maya is allergic to peanuts",)
    assert provider.stats.recall_failures == 0


def test_only_the_open_source_runtime_imports_mem0_and_only_inside_a_function() -> None:
    import ast

    import memclaw

    found = []
    for path in sorted(Path(memclaw.__file__).parent.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside = {
            id(node)
            for func in ast.walk(tree)
            if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef)
            for node in ast.walk(func)
        }
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            if any(n == "mem0" or n.startswith("mem0.") for n in names):
                found.append((path.name, id(node) in inside))
    assert found and set(found) == {("mem0_oss.py", True)}


def test_what_a_forget_left_in_a_transcript_is_never_sent_to_mem0() -> None:
    from memclaw.providers.mem0 import turn_messages

    assert turn_messages("[forgotten]", "Noted.") == [{"role": "assistant", "content": "Noted."}]
    assert turn_messages("I moved to Porto. [forgotten]", "") == [
        {"role": "user", "content": "I moved to Porto."}
    ]
