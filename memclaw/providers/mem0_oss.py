"""Mem0's open-source mode: its own library (``mem0ai``) in this process, on this disk.

``providers: mem0: mode: open-source`` runs ``mem0.Memory`` with three parts
configured under ``providers: mem0: oss:`` in Mem0's own ``{provider, config}``
shape, each with a default that needs nothing new:

- the embedder: an OpenAI-compatible endpoint, memclaw's own embedding settings
  (``embedding_model`` at the embedding endpoint, else the chat endpoint);
- the vector store: Mem0's default, qdrant, on disk in the agent's
  ``.memclaw/mem0/qdrant`` (never a folder another agent or /tmp shares);
- the LLM: none. Without one, ``infer`` is off and Mem0 keeps what the person
  said as they said it; with one, Mem0 distils each turn itself.

(:mod:`~memclaw.providers.mem0_oss_config` builds that configuration.)

Every owner's memories are kept apart by Mem0's ``user_id`` (the owner key)
and ``agent_id``, exactly as in the other modes, so recall, forget and sync
work unchanged. The library is imported only here, only when this mode opens a
store, with Mem0's telemetry off: it would otherwise post to Mem0's analytics
service and fetch notices from GitHub. A store is opened once per process:
qdrant on disk admits one client per folder.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.gates import redact
from memclaw.providers.mem0_api import OPEN_SOURCE, Mem0Error, Mem0Memory, memories_of
from memclaw.providers.mem0_oss_config import INSTALL_HINT, STORE_DIR, mem0_config

if TYPE_CHECKING:
    from memclaw.config import Settings
    from memclaw.workspace.agent import Agent

# A forget reads this many of an owner's memories to clean what Mem0 keeps beside them.
SCRUB_LIMIT = 1000


# --- the library, imported with its telemetry off ----------------------------------------


def _import_memory(store: Path) -> Any:
    """Mem0's ``Memory`` class. Mem0 reads its telemetry switch when first imported."""
    saved = {name: os.environ.get(name) for name in ("MEM0_TELEMETRY", "MEM0_DIR")}
    os.environ["MEM0_TELEMETRY"] = "False"
    # On import Mem0 writes an anonymous id to ~/.mem0: keep it beside the store instead.
    os.environ["MEM0_DIR"] = saved["MEM0_DIR"] or str(store)
    try:
        from mem0 import Memory
        from mem0.memory import main, telemetry
    except ImportError as exc:
        raise Mem0Error(f"Mem0's library failed to import ({exc}): {INSTALL_HINT}") from None
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    # Also when something imported Mem0 earlier with telemetry on.
    telemetry.MEM0_TELEMETRY = False
    main.MEM0_TELEMETRY = False
    # Mem0 warns about optional extras (spaCy, fastembed) it does without; not our reader's news.
    logging.getLogger("mem0").setLevel(logging.ERROR)
    return Memory


def _bounded(client: Any, settings: Settings, seconds: float) -> Any:
    """An openai client that gives up as memclaw's own do, not after the library's 10 minutes."""
    with_options = getattr(client, "with_options", None)
    if with_options is None:
        return client
    return with_options(timeout=seconds, max_retries=settings.max_retries)


def _embedding_dims(config: dict[str, Any], settings: Settings) -> int:
    """The vector size the store is made with: configured, else asked of the embedder once."""
    store, embedder = config["vector_store"]["config"], config["embedder"]["config"]
    for known in (store.get("embedding_model_dims"), embedder.get("embedding_dims")):
        if isinstance(known, int) and known > 0:
            return known
    from mem0.utils.factory import EmbedderFactory

    probe = EmbedderFactory.create(config["embedder"]["provider"], dict(embedder), None)
    if hasattr(probe, "client"):
        probe.client = _bounded(probe.client, settings, settings.mem0_timeout_ms / 1000)
    return len(probe.embed("memclaw: how long is one vector?"))


def _says(says: Callable[[str], bool], texts: tuple[Any, ...]) -> bool:
    return any(isinstance(t, str) and says(t) for t in texts)


# --- one store per process ---------------------------------------------------------------


@dataclass
class LocalMem0:
    """An open Mem0 store; every call is serialised (qdrant on disk is one client's)."""

    memory: Any
    infer: bool
    where: dict[str, Any]
    timeout_ms: int
    mode: str = OPEN_SOURCE
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def _call(self, what: str, run: Callable[[], Any]) -> Any:
        with self._lock:
            try:
                return run()
            # The library's failures share no base class (openai, qdrant, pydantic, sqlite,
            # ValueError): each becomes the one error every Mem0 caller counts and logs.
            except Exception as exc:
                raise Mem0Error(f"Mem0 {what}: {type(exc).__name__}: {redact(str(exc))}") from None

    def search(self, query: str, user_id: str, agent_id: str, top_k: int) -> list[Mem0Memory]:
        filters = {"user_id": user_id, "agent_id": agent_id}
        answer = self._call(
            "search", lambda: self.memory.search(query, filters=filters, top_k=top_k)
        )
        return memories_of(answer)[:top_k]

    def add(
        self, messages: list[dict[str, str]], user_id: str, agent_id: str, metadata: dict[str, Any]
    ) -> Any:
        if not self.infer:
            # Kept as said, one memory per message: the person's words, not the model's answer
            # (an assistant's "Noted." would be recalled as if it were something to know).
            messages = [m for m in messages if m["role"] == "user"]
        if not messages:
            return None
        return self._call(
            "add",
            lambda: self.memory.add(
                messages, user_id=user_id, agent_id=agent_id, metadata=metadata, infer=self.infer
            ),
        )

    def list(self, user_id: str, agent_id: str, limit: int = 100) -> list[Mem0Memory]:
        filters = {"user_id": user_id, "agent_id": agent_id}
        return memories_of(
            self._call("list", lambda: self.memory.get_all(filters=filters, top_k=limit))
        )

    def delete(self, memory_id: str) -> None:
        """Delete one memory, and the text Mem0's history database kept of it."""

        def run() -> None:
            try:
                self.memory.delete(memory_id)
            except ValueError as exc:
                if "not found" not in str(exc):  # a retry finding it gone has reached its goal
                    raise
            self._scrub_history(memory_id)

        self._call("delete", run)

    def _scrub_history(self, memory_id: str) -> None:
        # Mem0 records every add and delete with the memory's text: a forgotten fact would
        # stay in history.db. secure_delete overwrites the freed pages too.
        db = self.memory.db
        with db._lock:
            db.connection.execute("PRAGMA secure_delete = ON")
            with db.connection:
                db.connection.execute("DELETE FROM history WHERE memory_id = ?", (memory_id,))

    def scrub(self, user_id: str, agent_id: str, says: Callable[[str], bool]) -> int:
        """Remove what Mem0 keeps beside this owner's memories (the history of each, the
        recent messages it distils from) that says a forgotten fact; how many rows went."""
        mine = {m.id for m in self.list(user_id, agent_id, SCRUB_LIMIT)}
        # Mem0's key for one conversation's recent messages (mem0.memory.main's session scope).
        scope = "&".join(
            f"{k}={v.replace('%', '%25').replace('&', '%26').replace('=', '%3D')}"
            for k, v in (("agent_id", agent_id), ("user_id", user_id))
        )

        def run() -> int:
            db = self.memory.db
            with db._lock:
                history = db.connection.execute(
                    "SELECT id, memory_id, old_memory, new_memory FROM history"
                ).fetchall()
                messages = db.connection.execute(
                    "SELECT id, content FROM messages WHERE session_scope = ?", (scope,)
                ).fetchall()
                doomed = {
                    "history": [r[0] for r in history if r[1] in mine and _says(says, r[2:])],
                    "messages": [r[0] for r in messages if _says(says, r[1:])],
                }
                db.connection.execute("PRAGMA secure_delete = ON")
                with db.connection:
                    for table, ids in doomed.items():
                        db.connection.executemany(
                            f"DELETE FROM {table} WHERE id = ?", [(i,) for i in ids]
                        )
            return sum(len(ids) for ids in doomed.values())

        result: int = self._call("scrub", run)
        return result

    def ping(self) -> dict[str, Any]:
        """Embed a word and read the store: both ends answer."""
        self._call("embedder", lambda: self.memory.embedding_model.embed("ping", "search"))
        self.list("memclaw-status", "memclaw-status", 1)
        return {"status": "ok"}

    def describe(self) -> dict[str, Any]:
        return dict(self.where)

    def close(self) -> None:
        """Let go of the store's folder and files (qdrant would complain at interpreter exit)."""
        with self._lock:
            client = getattr(self.memory.vector_store, "client", None)
            with contextlib.suppress(Exception):  # closing is best effort, as the exit is near
                if client is not None:
                    client.close()
                self.memory.close()


def _close_all() -> None:
    with _OPENING:
        for local in _OPEN.values():
            local.close()
        _OPEN.clear()


_OPEN: dict[str, LocalMem0] = {}
_OPENING = threading.Lock()


def open_local(agent: Agent) -> LocalMem0:
    """The agent's store, opened on first use and kept for the process; raises Mem0Error.

    Process-wide on purpose: qdrant on disk locks its folder, so a chat's recall, its
    sync worker and a /forget in the same process must share one client.
    """
    settings = agent.settings
    config, infer = mem0_config(agent)
    key = json.dumps(config, sort_keys=True)
    with _OPENING:
        if key in _OPEN:
            return _OPEN[key]
        store = agent.meta_dir / STORE_DIR
        try:
            store.mkdir(parents=True, exist_ok=True)
            Memory = _import_memory(store)
            store_config = config["vector_store"]["config"]
            store_config.setdefault("embedding_model_dims", _embedding_dims(config, settings))
            memory = Memory.from_config(config)
        except Mem0Error:
            raise
        # As in LocalMem0._call: the library's start-up failures (a folder another process
        # holds, an embedder that does not answer, a config Mem0 rejects) have no common type.
        except Exception as exc:
            raise Mem0Error(
                f"Mem0 (open-source) could not open its store: {type(exc).__name__}: "
                f"{redact(str(exc))}"
            ) from None
        if hasattr(memory.embedding_model, "client"):
            memory.embedding_model.client = _bounded(
                memory.embedding_model.client, settings, settings.mem0_timeout_ms / 1000
            )
        if hasattr(memory.llm, "client"):
            memory.llm.client = _bounded(memory.llm.client, settings, settings.request_timeout)
        if not _OPEN:
            atexit.register(_close_all)
        _OPEN[key] = LocalMem0(memory, infer, _where(config, infer), settings.mem0_timeout_ms)
        return _OPEN[key]


def _where(config: dict[str, Any], infer: bool) -> dict[str, Any]:
    embedder, store, llm = config["embedder"], config["vector_store"], config["llm"]

    def at(part: dict[str, Any], *names: str) -> str:
        found = [str(part["config"][n]) for n in names if part["config"].get(n)]
        return f"{part['provider']} " + " ".join(found) if found else part["provider"]

    return {
        "mode": OPEN_SOURCE,
        "embedder": at(embedder, "model", "openai_base_url", "ollama_base_url"),
        "vector_store": at(store, "path", "url", "host", "collection_name"),
        "llm": at(llm, "model", "openai_base_url") if infer else "none (turns kept as said)",
        "history_db": config["history_db_path"],
    }
