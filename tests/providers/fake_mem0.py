"""A local HTTP server that speaks Mem0's REST API (self-hosted and platform paths).

It keeps what it is sent, answers searches from it filtered by user_id and
agent_id as the real servers do, and can be told to fail (``down``) or to hold
every answer until released (``hold``), so a test can show that a slow Mem0
does not hold a chat turn.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class FakeMem0:
    server: ThreadingHTTPServer
    requests: list[Seen] = field(default_factory=list)
    memories: list[dict[str, Any]] = field(default_factory=list)
    fail_status: int = 0
    hold: threading.Event | None = None

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def add_memory(self, text: str, user_id: str, agent_id: str, score: float = 0.9) -> None:
        self.memories.append(
            {
                "id": f"m{len(self.memories)}",
                "memory": text,
                "user_id": user_id,
                "agent_id": agent_id,
                "score": score,
            }
        )

    def deleted(self) -> list[str]:
        return [r.path for r in self.requests if r.method == "DELETE"]

    def posted(self, path: str) -> list[Seen]:
        return [r for r in self.requests if r.method == "POST" and r.path == path]

    def close(self) -> None:
        if self.hold is not None:
            self.hold.set()
        self.server.shutdown()
        self.server.server_close()


def _matches(memory: dict[str, Any], filters: dict[str, Any]) -> bool:
    if "AND" in filters:
        return all(_matches(memory, f) for f in filters["AND"])
    return all(memory.get(k) == v for k, v in filters.items())


def _memory_id(path: str) -> str:
    """The id of ``DELETE /memories/{id}`` (self-hosted) or ``/v1/memories/{id}/`` (platform)."""
    for pattern in (r"/memories/([^/]+)", r"/v1/memories/([^/]+)/"):
        found = re.fullmatch(pattern, path)
        if found:
            return unquote(found.group(1))
    return ""


def start_fake_mem0() -> FakeMem0:
    fake: FakeMem0

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _answer(self, status: int, data: Any) -> None:
            raw = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def _handle(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            body = json.loads(raw) if raw else None
            url = urlparse(self.path)
            headers = {k.lower(): v for k, v in self.headers.items()}
            fake.requests.append(Seen(method, url.path, headers, body))
            if fake.hold is not None:
                fake.hold.wait(30)
            if fake.fail_status:
                self._answer(fake.fail_status, {"detail": "upstream error"})
                return
            if method == "POST" and url.path in ("/search", "/v3/memories/search/"):
                found = [m for m in fake.memories if _matches(m, body.get("filters") or {})]
                self._answer(200, {"results": found[: body.get("top_k") or 10]})
            elif method == "POST" and url.path in ("/memories", "/v3/memories/add/"):
                text = " / ".join(m["content"] for m in body["messages"])
                fake.add_memory(text, body.get("user_id"), body.get("agent_id"))
                self._answer(200, {"results": [{"event": "ADD", "memory": text}]})
            elif method == "GET" and url.path == "/memories":
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                filters = {k: v for k, v in query.items() if k in ("user_id", "agent_id")}
                self._answer(200, {"results": [m for m in fake.memories if _matches(m, filters)]})
            elif method == "POST" and url.path == "/v3/memories/":
                found = [m for m in fake.memories if _matches(m, body.get("filters") or {})]
                self._answer(200, {"count": len(found), "results": found})
            elif method == "DELETE" and _memory_id(url.path):
                wanted = _memory_id(url.path)
                kept = [m for m in fake.memories if m["id"] != wanted]
                if len(kept) == len(fake.memories):
                    self._answer(404, {"detail": "Memory not found"})
                    return
                fake.memories[:] = kept
                self._answer(200, {"message": "Memory deleted successfully!"})
            elif method == "GET" and url.path == "/v1/ping/":
                self._answer(200, {"status": "ok", "org_id": "o", "project_id": "p"})
            else:
                self._answer(404, {"detail": "Not Found"})

        def do_GET(self) -> None:
            self._handle("GET")

        def do_POST(self) -> None:
            self._handle("POST")

        def do_DELETE(self) -> None:
            self._handle("DELETE")

    class Server(ThreadingHTTPServer):
        def handle_error(self, request: Any, client_address: Any) -> None:
            pass  # a client that gave up waiting (the slow-server test) is expected

    server = Server(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    fake = FakeMem0(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return fake
