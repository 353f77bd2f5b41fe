"""A small client of Mem0's REST API, in both of its shapes.

Matched against mem0 2.0.18 (github.com/mem0ai/mem0 at 8d5b786):

- self-hosted, ``server/main.py``: ``POST /memories`` (messages, user_id,
  agent_id, metadata), ``POST /search`` (query, ``filters`` {user_id,
  agent_id}, top_k), ``GET /memories?user_id=&agent_id=``; the key goes in
  the ``X-API-Key`` header (``server/auth.py``); ``DELETE /memories/{id}``.
- platform, ``mem0/client/main.py`` (``MemoryClient``): ``POST
  /v3/memories/add/`` (entity ids at the top level), ``POST
  /v3/memories/search/`` and ``POST /v3/memories/`` (entity ids only inside
  ``filters``, combined with ``AND``), ``GET /v1/ping/``; the key goes in
  ``Authorization: Token <key>``; the host defaults to https://api.mem0.ai;
  ``DELETE /v1/memories/{id}/`` (``MemoryClient.delete``).

Only the standard library is used: a provider that is off costs no import.
Every call is bounded by ``timeout_ms`` and raises :class:`Mem0Error` on any
failure, which callers count and log rather than let into a chat turn.

The third mode, open-source, runs Mem0's own library in this process
(:mod:`~memclaw.providers.mem0_oss`); :class:`Mem0Backend` is what both
offer, and :func:`~memclaw.providers.mem0_connect.connector` picks one.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from memclaw.errors import MemclawError

if TYPE_CHECKING:
    from memclaw.config import Settings
    from memclaw.workspace.agent import Agent

PLATFORM = "platform"
SELF_HOSTED = "self-hosted"
OPEN_SOURCE = "open-source"
PLATFORM_URL = "https://api.mem0.ai"
MAX_ANSWER_BYTES = 4_000_000


def mem0_configured(settings: Settings) -> bool:
    """Mem0 is on once it has an address or a key (or runs in-process); a half setting is an
    error, not off."""
    return settings.mem0_mode == OPEN_SOURCE or bool(
        settings.mem0_base_url or settings.mem0_api_key
    )


class Mem0Error(MemclawError):
    """Mem0 could not be reached or refused a request."""


@dataclass(frozen=True)
class Mem0Memory:
    id: str
    text: str
    score: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "memory": self.text, "score": self.score}


class Mem0Backend(Protocol):
    """What memclaw asks of Mem0, over HTTP or in-process. Every call raises only Mem0Error."""

    @property
    def mode(self) -> str: ...

    @property
    def timeout_ms(self) -> int: ...

    def search(self, query: str, user_id: str, agent_id: str, top_k: int) -> list[Mem0Memory]: ...

    def add(
        self, messages: list[dict[str, str]], user_id: str, agent_id: str, metadata: dict[str, Any]
    ) -> Any: ...

    def list(self, user_id: str, agent_id: str, limit: int = 100) -> list[Mem0Memory]: ...

    def delete(self, memory_id: str) -> None: ...

    def scrub(self, user_id: str, agent_id: str, says: Callable[[str], bool]) -> int:
        """Remove what this Mem0 keeps on this machine beside one owner's memories that
        ``says`` a forgotten fact."""
        ...

    def ping(self) -> dict[str, Any]: ...

    def describe(self) -> dict[str, Any]:
        """Where this Mem0 is, for ``mem0 status`` (never a key)."""
        ...


Connect = Callable[["Agent"], Mem0Backend]


@dataclass(frozen=True)
class Mem0Client:
    mode: str
    base_url: str
    api_key: str
    timeout_ms: int

    @classmethod
    def from_settings(cls, settings: Settings) -> Mem0Client:
        """The client the settings describe; a Mem0Error says what is missing."""
        mode, url, key = settings.mem0_mode, settings.mem0_base_url, settings.mem0_api_key
        if mode == PLATFORM:
            if not key:
                raise Mem0Error(
                    "Mem0 platform mode needs an API key: set providers.mem0.api_key or "
                    "MEM0_API_KEY (or mem0_mode: self-hosted with a base_url)"
                )
            url = url or PLATFORM_URL
        elif not url:
            raise Mem0Error(
                "self-hosted Mem0 needs its address: set providers.mem0.base_url, "
                "e.g. http://localhost:8888"
            )
        return cls(mode, url.rstrip("/"), key, settings.mem0_timeout_ms)

    @property
    def platform(self) -> bool:
        return self.mode == PLATFORM

    def describe(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "base_url": self.base_url,
            "api_key": "set" if self.api_key else "not set",
        }

    # --- the calls ---------------------------------------------------------------------

    def search(self, query: str, user_id: str, agent_id: str, top_k: int) -> list[Mem0Memory]:
        if self.platform:
            body = {
                "query": query,
                "filters": {"AND": [{"user_id": user_id}, {"agent_id": agent_id}]},
                "top_k": top_k,
            }
            answer = self._call("POST", "/v3/memories/search/", body)
        else:
            body = {
                "query": query,
                "filters": {"user_id": user_id, "agent_id": agent_id},
                "top_k": top_k,
            }
            answer = self._call("POST", "/search", body)
        return memories_of(answer)[:top_k]

    def add(
        self,
        messages: list[dict[str, str]],
        user_id: str,
        agent_id: str,
        metadata: dict[str, Any],
    ) -> Any:
        body = {
            "messages": messages,
            "user_id": user_id,
            "agent_id": agent_id,
            "metadata": metadata,
        }
        return self._call("POST", "/v3/memories/add/" if self.platform else "/memories", body)

    def list(self, user_id: str, agent_id: str, limit: int = 100) -> list[Mem0Memory]:
        if self.platform:
            filters = {"AND": [{"user_id": user_id}, {"agent_id": agent_id}]}
            answer = self._call("POST", "/v3/memories/", {"filters": filters})
        else:
            query = urllib.parse.urlencode(
                {"user_id": user_id, "agent_id": agent_id, "top_k": limit}
            )
            answer = self._call("GET", f"/memories?{query}")
        return memories_of(answer)[:limit]

    def delete(self, memory_id: str) -> None:
        """Delete one memory by its id; one already gone (404) counts as deleted."""
        quoted = urllib.parse.quote(memory_id, safe="")
        path = f"/v1/memories/{quoted}/" if self.platform else f"/memories/{quoted}"
        try:
            self._call("DELETE", path)
        except Mem0Error as exc:
            # A retry after a partial run finds some ids gone already: that is its goal.
            if "HTTP 404" not in str(exc):
                raise

    def scrub(self, user_id: str, agent_id: str, says: Callable[[str], bool]) -> int:
        return 0  # a Mem0 server keeps nothing on this machine; its copies go by id

    def ping(self) -> dict[str, Any]:
        """Check the address and the key: what the server says about us."""
        if self.platform:
            answer = self._call("GET", "/v1/ping/")
            return answer if isinstance(answer, dict) else {}
        # The server has no health route; an authenticated read of nothing proves both.
        query = urllib.parse.urlencode({"user_id": "memclaw-status", "top_k": 1})
        self._call("GET", f"/memories?{query}")
        return {"status": "ok"}

    # --- the wire ------------------------------------------------------------------------

    def headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            if self.platform:
                headers["Authorization"] = f"Token {self.api_key}"
            else:
                headers["X-API-Key"] = self.api_key
        return headers

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        request = urllib.request.Request(
            self.base_url + path, data=data, method=method, headers=self.headers()
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_ms / 1000) as response:
                raw = response.read(MAX_ANSWER_BYTES + 1)
        except urllib.error.HTTPError as exc:
            detail = _detail(exc)
            hint = " (check providers.mem0.api_key)" if exc.code in (401, 403) else ""
            raise Mem0Error(f"Mem0 {method} {path}: HTTP {exc.code}{detail}{hint}") from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", exc)
            raise Mem0Error(f"Mem0 at {self.base_url} unreachable: {reason}") from None
        if len(raw) > MAX_ANSWER_BYTES:
            raise Mem0Error(f"Mem0 {method} {path}: answer larger than {MAX_ANSWER_BYTES} bytes")
        if not raw.strip():
            return None
        try:
            return json.loads(raw)
        except ValueError:
            raise Mem0Error(f"Mem0 {method} {path}: the answer is not JSON") from None


def _detail(exc: urllib.error.HTTPError) -> str:
    try:
        text = exc.read(2000).decode("utf-8", "replace")
        found = json.loads(text).get("detail")
    except (OSError, ValueError, AttributeError):
        return ""
    return f": {str(found)[:200]}" if found else ""


def memories_of(answer: Any) -> list[Mem0Memory]:
    """Search and list answers are ``{"results": [...]}`` (older servers: a bare list)."""
    rows = answer.get("results", []) if isinstance(answer, dict) else answer
    found = []
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, dict):
            continue
        text = row.get("memory") or row.get("text") or ""
        if not isinstance(text, str) or not text.strip():
            continue
        score = row.get("score")
        number = float(score) if isinstance(score, int | float) else None
        found.append(Mem0Memory(str(row.get("id", "")), text, number))
    return found
