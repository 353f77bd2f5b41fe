"""A pass-through proxy that counts a model server's chat requests, by status.

The lane's table says how many chat requests each path made. llama-cpp-python's server
logs every request with its status; llama.cpp's ``llama-server`` logs none (its request
logger is switched off in its source). So memclaw talks to that server through this
proxy, on another loopback port in a thread of the lane's own process: each request is
forwarded as it is, the answer streamed back as it comes (a streamed chat's events are
not held back), and the status of every ``POST …/chat/completions`` is kept in order.
"""

from __future__ import annotations

import contextlib
import http.client
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

# Hop-by-hop headers, and the framing the proxy redoes: it ends each answer by closing.
NOT_FORWARDED = {"connection", "keep-alive", "transfer-encoding", "content-length", "host"}
# The longest a forwarded request may take: the lane's own request timeout is 900 s.
UPSTREAM_TIMEOUT = 3600


class _Counting(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, upstream: str) -> None:
        super().__init__(("127.0.0.1", 0), _Forward)
        where = urlsplit(upstream)
        self.upstream = (where.hostname or "127.0.0.1", where.port or 80)
        self.statuses: list[str] = []
        self.lock = threading.Lock()


class _Forward(BaseHTTPRequestHandler):
    server: _Counting

    def do_GET(self) -> None:
        self._forward(b"")

    def do_POST(self) -> None:
        self._forward(self.rfile.read(int(self.headers.get("Content-Length") or 0)))

    def _forward(self, body: bytes) -> None:
        upstream = http.client.HTTPConnection(*self.server.upstream, timeout=UPSTREAM_TIMEOUT)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in NOT_FORWARDED}
        try:
            upstream.request(self.command, self.path, body or None, headers)
            answer = upstream.getresponse()
        except OSError as exc:
            self._count(502)
            self.send_error(502, f"the model server did not answer: {exc}")
            return
        self._count(answer.status)
        self.send_response(answer.status)
        for key, value in answer.getheaders():
            if key.lower() not in NOT_FORWARDED:
                self.send_header(key, value)
        self.send_header("Connection", "close")
        self.end_headers()
        with contextlib.suppress(OSError):  # the client went away: nothing left to do
            while chunk := answer.read1(65536):
                self.wfile.write(chunk)
                self.wfile.flush()
        upstream.close()

    def _count(self, status: int) -> None:
        if self.command == "POST" and self.path.rstrip("/").endswith("/chat/completions"):
            with self.server.lock:
                self.server.statuses.append(str(status))

    def log_message(self, format: str, *args: object) -> None:
        pass  # the statuses are the log


@contextlib.contextmanager
def counting(upstream: str) -> Iterator[tuple[str, list[str]]]:
    """``upstream`` (a ``.../v1`` URL) behind the proxy: its URL, and the statuses seen."""
    server = _Counting(upstream)
    thread = threading.Thread(target=server.serve_forever, name="counting-proxy", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", server.statuses
    finally:
        server.shutdown()
        server.server_close()
