"""Run every benchmark in this folder, one process each, and say which failed.

A benchmark is any ``benchmarks/*.py`` other than this file, names starting
with ``_`` and the lanes in ``SEPARATE`` (run those by name or by their own
``make`` target); each runs as ``python benchmarks/<name>.py`` and prints its own
figures (most also write them to ``benchmarks/out/``).

Run: ``python -m benchmarks.run [NAME ...]`` (names without ``.py``; default all).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


# Not run by default: a server, and lanes that need a model or data this folder lacks.
SEPARATE = {
    "embed_server": "serves an embedding model until stopped",
    "real_models": "make test-real",
    # Paths of make test-real, run by it against a model server with an agent's name.
    "real_move": "a path of make test-real",
    "real_chat": "a path of make test-real",
    "judge_tool_write": "a path of make test-real",
    "locomo_recall": "needs --data (LoCoMo is not shipped)",
}


def discover(everything: bool = False) -> list[Path]:
    return sorted(
        p
        for p in HERE.glob("*.py")
        if p.name != "run.py"
        and not p.name.startswith("_")
        and (everything or p.stem not in SEPARATE)
    )


def main(argv: list[str] | None = None) -> int:
    wanted = set(sys.argv[1:] if argv is None else argv)
    scripts = [p for p in discover(everything=bool(wanted)) if not wanted or p.stem in wanted]
    unknown = wanted - {p.stem for p in discover(everything=True)}
    if unknown:
        print(f"no such benchmark: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    failed = []
    for script in scripts:
        print(f"== {script.stem}", flush=True)
        started = time.perf_counter()
        code = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=False)
        print(f"   ({time.perf_counter() - started:.0f} s)\n", flush=True)
        if code.returncode != 0:
            failed.append(script.stem)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
