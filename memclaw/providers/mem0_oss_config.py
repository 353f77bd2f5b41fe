"""Open-source Mem0's configuration: the ``Memory.from_config`` dictionary for one agent.

Built from ``providers.mem0.oss.*`` (each part in Mem0's own ``{provider,
config}`` shape) with defaults that need nothing new: memclaw's embedding
endpoint, qdrant in the agent's ``.memclaw/mem0/``, no LLM (infer off).
Nothing here imports Mem0's library.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.providers.mem0_api import Mem0Error

if TYPE_CHECKING:
    from memclaw.config import Settings
    from memclaw.workspace.agent import Agent

STORE_DIR = "mem0"  # inside the agent's .memclaw/
COLLECTION = "memclaw"
# Mem0's vector stores that keep their data in a local folder when given no server.
ON_DISK = ("qdrant", "chroma", "faiss")
# Local servers take any key, but the openai client refuses to start without one.
NO_KEY = "not-needed"
INSTALL_HINT = "pip install 'memclaw[mem0]'"


# --- the configuration Mem0 is given ----------------------------------------------------


def _plain(part: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """A settings part as a fresh plain (provider, config): Mem0 may mutate what it gets."""
    config = json.loads(json.dumps(dict(part.get("config") or {}), default=dict))
    return str(part.get("provider") or ""), config


def _embedding_endpoint(settings: Settings) -> tuple[str, str]:
    # The embedding-only endpoint settings (issue 26's embedding work) win where present.
    url = str(getattr(settings, "embedding_base_url", "") or settings.base_url)
    key = str(getattr(settings, "embedding_api_key", "") or settings.api_key)
    return url, key


def embedder_part(settings: Settings) -> dict[str, Any]:
    """The embedder Mem0 is given; a Mem0Error says what is missing."""
    provider, config = _plain(settings.mem0_oss_embedder)
    provider = provider or "openai"
    if provider != "openai":
        return {"provider": provider, "config": config}
    url, key = _embedding_endpoint(settings)
    config.setdefault("model", settings.embedding_model)
    if not config["model"]:
        raise Mem0Error(
            "Mem0 open-source mode needs an embedding model: set embedding_model "
            "(e.g. nomic-embed-text) or providers.mem0.oss.embedder"
        )
    if url and "openai_base_url" not in config:
        config["openai_base_url"] = url
    if key and "api_key" not in config:
        config["api_key"] = key
    if not config.get("openai_base_url") and not config.get("api_key"):
        raise Mem0Error(
            "Mem0 open-source mode embeds through an OpenAI-compatible endpoint: set base_url "
            "(e.g. http://localhost:11434/v1) or an API key, or providers.mem0.oss.embedder"
        )
    config.setdefault("api_key", NO_KEY)
    return {"provider": provider, "config": config}


def _local_path(agent: Agent, configured: str, default: Path) -> str:
    if not configured:
        return str(default)
    path = Path(configured).expanduser()
    return str(path if path.is_absolute() else agent.path / path)


def vector_store_part(settings: Settings, agent: Agent) -> dict[str, Any]:
    """The vector store: qdrant in the agent's own folder unless configured otherwise."""
    provider, config = _plain(settings.mem0_oss_vector_store)
    provider = provider or "qdrant"
    # A store on disk without a path would land in Mem0's default, /tmp/<provider>:
    # one folder for every agent and every user of the machine.
    if provider in ON_DISK and not any(config.get(k) for k in ("host", "url", "client")):
        config["path"] = _local_path(
            agent, str(config.get("path") or ""), agent.meta_dir / STORE_DIR / provider
        )
        if provider == "qdrant":
            config.setdefault("on_disk", True)
    if provider in ON_DISK:
        config.setdefault("collection_name", COLLECTION)
    return {"provider": provider, "config": config}


def llm_part(settings: Settings) -> dict[str, Any] | None:
    """The LLM Mem0 distils turns with, or None: then turns are kept as said."""
    if not settings.mem0_oss_llm:
        return None
    provider, config = _plain(settings.mem0_oss_llm)
    provider = provider or "openai"
    if provider == "openai":
        config.setdefault("model", settings.model)
        if settings.base_url:
            config.setdefault("openai_base_url", settings.base_url)
        config.setdefault("api_key", settings.api_key or NO_KEY)
    return {"provider": provider, "config": config}


def history_path(settings: Settings, agent: Agent) -> str:
    default = agent.meta_dir / STORE_DIR / "history.db"
    return _local_path(agent, settings.mem0_oss_history_db_path, default)


def mem0_config(agent: Agent) -> tuple[dict[str, Any], bool]:
    """Mem0's ``Memory.from_config`` dictionary for ``agent``, and whether it infers."""
    settings = agent.settings
    embedder = embedder_part(settings)
    llm = llm_part(settings)
    # Mem0 builds an LLM client even when it never calls it (infer off): give it the
    # embedding endpoint, so that even a stray call could not leave for the internet.
    quiet = {"api_key": NO_KEY, "openai_base_url": embedder["config"].get("openai_base_url")}
    config = {
        "embedder": embedder,
        "vector_store": vector_store_part(settings, agent),
        "llm": llm or {"provider": "openai", "config": {k: v for k, v in quiet.items() if v}},
        "history_db_path": history_path(settings, agent),
    }
    return config, llm is not None


def check_open_source(settings: Settings) -> None:
    """Fail now, in one line, when open-source mode cannot start (nothing is imported)."""
    if importlib.util.find_spec("mem0") is None:
        raise Mem0Error(f"Mem0 open-source mode needs Mem0's library: {INSTALL_HINT}")
    embedder_part(settings)
