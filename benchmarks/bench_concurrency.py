"""Many writers on one agent: count operations done and lines lost.

Eight processes run 100 mixed operations each on one agent: ``remember`` and
``files edit`` on the same entries file, an offline extraction, an offline
dream and a snapshot import. Each process reports the lines every successful
operation wrote (and, for a dream, removed). At the end every reported line
must still be in its file, unless an operation that ended after the writer
started reported removing it. The run is done twice: as is, and with every
fsync slowed by a few milliseconds (patched in the worker processes), which
widens any window between a read and a write.

Run: ``python benchmarks/bench_concurrency.py [--workers N] [--ops N] [--slow-ms MS]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

AGENT = "bench"
ENTRIES = "entries/other.md"
MARKER = "<!-- edits land above this line -->"
SEED_ENTRIES = f"# Memory entries: other\n\nNotes a person keeps by hand.\n{MARKER}\n"
OPS = ("remember", "edit", "extract", "dream", "import")
OVERRIDES = {"profile_max_chars": 0, "memory_max_chars": 0}  # no ceiling: every line stays


def seed(root: Path) -> None:
    from memclaw.workspace import Workspace

    ws = Workspace.open(root, env={}, overrides=OVERRIDES)
    agent, _ = ws.init_agent(AGENT)
    agent.write(ENTRIES, SEED_ENTRIES)
    today = ws.clock().date()
    facts = ["Maya reviews pull requests every morning", "The staging database is PostgreSQL 16"]
    for back in range(1, 4):  # recurring facts, so the dream has something to promote
        agent.append_daily("\n".join(f"- {fact}." for fact in facts), day=today - timedelta(back))


# --- one worker process ---------------------------------------------------------------


def _slow_fsync(ms: float) -> None:
    real = os.fsync

    def fsync(fd: int) -> None:
        time.sleep(ms / 1000)
        real(fd)

    os.fsync = fsync  # every fsync of this process, the atomic writes' among them


def _snapshot(tag: str, serial: int) -> tuple[bytes, str, str]:
    import hashlib
    import io
    import zipfile

    rel = f"memory/{date(2000, 1, 1) + timedelta(serial):%Y-%m-%d}.md"
    line = f"- imported {tag}"
    data = f"# imported\n\n{line}\n".encode()
    manifest = {
        "format": "memclaw-snapshot",
        "format_version": 1,
        "memclaw_version": "0.1.0",
        "agent": AGENT,
        "created": "2026-11-28T10:00:00+00:00",
        "files": [{"path": rel, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}],
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("manifest.json", json.dumps(manifest))
        archive.writestr(rel, data)
    return buffer.getvalue(), rel, line


Lines = list[list[str]]


def _one(kind: str, worker: int, i: int, root: Path) -> tuple[Lines, Lines, str]:
    """Run one operation; return the (file, line) pairs it reported writing and removing."""
    from memclaw.dream.run import DreamStatus, dream_agent
    from memclaw.entries.memories import Action, remember
    from memclaw.extract.pipeline import extract_conversation
    from memclaw.snapshot import import_snapshot, read_snapshot
    from memclaw.workspace import Scope, Workspace
    from memclaw.workspace.files import edit_file

    ws = Workspace.open(root, env={}, overrides=OVERRIDES)
    agent = ws.agent(AGENT)
    scope = Scope(agent)
    tag = f"w{worker}x{i}"
    if kind == "remember":
        text = f"Crate {tag} holds kiwi{tag} and papaya{tag}"
        result = remember(scope, text, category="other")
        return ([[ENTRIES, text]] if result.action is Action.ADDED else []), [], result.action
    if kind == "edit":
        line = f"edit {tag}"
        edit_file(agent, ENTRIES, MARKER, f"{line}\n{MARKER}")
        return [[ENTRIES, line]], [], "edited"
    if kind == "extract":
        said = f"We decided to name the {tag} server Brisket{tag}."
        messages = [{"role": "user", "content": said}, {"role": "assistant", "content": "Noted."}]
        extracted = extract_conversation(scope, messages * 2, force=True)
        wrote = []
        for fact in extracted.facts:
            for name in extracted.files_changed:
                if name.startswith("memory/"):
                    wrote.append([name, f"- [{fact.category}] {fact.text}"])
                else:
                    wrote.append([name, f"- {fact.text}"])
        return wrote, [], extracted.status
    if kind == "dream":
        dreamt = dream_agent(scope)
        if dreamt.status is not DreamStatus.UPDATED:
            return [], [], dreamt.status
        lines = dreamt.diff.splitlines()
        # (the header is "--- a" and "+++ b"; a removed list item is "-- As of ...")
        body = lines[2:] if lines[:1] and lines[0].startswith("---") else lines
        added = [line[1:] for line in body if line.startswith("+")]
        gone = [line[1:] for line in body if line.startswith("-")]
        wrote = [["MEMORY.md", a] for a in added if a.strip()]
        return wrote, [["MEMORY.md", g] for g in gone], dreamt.status
    data, rel, line = _snapshot(tag, worker * 1000 + i)
    import_snapshot(ws, AGENT, read_snapshot(data))
    return [[rel, line]], [], "imported"


def worker_main(root: Path, worker: int, ops: int, slow_ms: float) -> None:
    if slow_ms:
        _slow_fsync(slow_ms)
    import random

    rng = random.Random(worker)
    kinds = [OPS[n % len(OPS)] for n in range(ops)]
    rng.shuffle(kinds)
    print("ready", flush=True)
    sys.stdin.readline()  # start together
    for i, kind in enumerate(kinds):
        start = time.monotonic_ns()  # one clock for every process on this machine
        try:
            wrote, removed, outcome = _one(kind, worker, i, root)
            ok, error = True, ""
        except Exception as exc:  # counted as failed; a busy lock is a refusal, not a loss
            wrote, removed, outcome, ok, error = (
                [],
                [],
                "failed",
                False,
                f"{type(exc).__name__}: {exc}",
            )
        record = {"op": kind, "ok": ok, "error": error, "wrote": wrote, "removed": removed}
        record["outcome"] = f"{kind} {outcome}"
        record.update(start=start, end=time.monotonic_ns())
        print(json.dumps(record), flush=True)


# --- the parent -----------------------------------------------------------------------


def run(workers: int, ops: int, slow_ms: float, base: Path | None = None) -> dict[str, Any]:
    """One round on a fresh agent; returns the figures and the lost lines."""
    parent = base or (Path("/dev/shm") if Path("/dev/shm").is_dir() else None)
    root = Path(tempfile.mkdtemp(prefix="memclaw-bench-", dir=parent))
    try:
        seed(root)
        rest = ["--ops", str(ops), "--slow-ms", str(slow_ms)]
        procs = [
            subprocess.Popen(
                [sys.executable, __file__, "--worker", str(w), "--root", str(root), *rest],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for w in range(workers)
        ]
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        started = time.perf_counter()
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        records: list[dict[str, Any]] = []
        for proc in procs:
            out, err = proc.communicate(timeout=600)
            if proc.returncode != 0:
                raise RuntimeError(f"a worker failed: {err[-2000:]}")
            records.extend(json.loads(line) for line in out.splitlines() if line.strip())
        seconds = time.perf_counter() - started
        return {**check(root, records), "seconds": seconds}
    finally:
        shutil.rmtree(root, ignore_errors=True)


def check(root: Path, records: list[dict[str, Any]]) -> dict[str, Any]:
    from memclaw.workspace.entries import parse_entries

    folder = root / AGENT
    files: dict[str, set[str]] = {}

    def lines(rel: str) -> set[str]:
        if rel not in files:
            path = folder / rel
            text = path.read_text(encoding="utf-8") if path.exists() else ""
            files[rel] = {line.rstrip() for line in text.splitlines()}
        return files[rel]

    for path in (folder / "entries").glob("*.md"):
        parse_entries(path.read_text(encoding="utf-8"))  # every entries file still parses
    removals: dict[tuple[str, str], list[int]] = {}
    for record in records:
        for rel, line in record["removed"]:
            removals.setdefault((rel, line.rstrip()), []).append(record["end"])
    lost = []
    written = 0
    for record in records:
        for rel, line in record["wrote"]:
            written += 1
            line = line.rstrip()
            if line in lines(rel):
                continue
            if any(end > record["start"] for end in removals.get((rel, line), [])):
                continue  # removed by an operation that may have come later
            lost.append(f"{rel}: {line}")
    done = [r for r in records if r["ok"]]
    failed = [r for r in records if not r["ok"]]
    outcomes: dict[str, int] = {}
    for record in records:
        outcomes[record["outcome"]] = outcomes.get(record["outcome"], 0) + 1
    return {
        "operations": len(done),
        "failed": len(failed),
        "errors": sorted({r["error"] for r in failed})[:5],
        "lines_written": written,
        "lines_lost": len(lost),
        "lost": lost[:10],
        "outcomes": dict(sorted(outcomes.items())),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--ops", type=int, default=100)
    parser.add_argument("--slow-ms", type=float, default=3.0)
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        worker_main(args.root, args.worker, args.ops, args.slow_ms)
        return 0
    bad = False
    for mode, slow in (("normal", 0.0), (f"slow fsync ({args.slow_ms:g} ms)", args.slow_ms)):
        figures = run(args.workers, args.ops, slow)
        print(
            f"{mode}: {args.workers} processes x {args.ops} operations in "
            f"{figures['seconds']:.1f} s; failed {figures['failed']}; "
            f"lines written {figures['lines_written']}"
        )
        print("  " + ", ".join(f"{k}: {v}" for k, v in figures["outcomes"].items()))
        for error in figures["errors"]:
            print(f"  failure: {error}")
        for line in figures["lost"]:
            print(f"  lost: {line}")
        print(f"operations: {figures['operations']}, lines lost: {figures['lines_lost']}")
        bad = bad or figures["lines_lost"] > 0
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
