"""The ledger against the JSON-lines logs it replaced: appends from many processes, reads.

Four processes append 250 records each (a recall record's shape) to one agent:
once through the ledger (SQLite, WAL, a transaction per record), once as the
logs were written before it (a flock, an append, an fsync per record), the
baseline of the same run. Then 10,000 records are read back from each. Every
record must be there once; the figures are records per second and the ratio.

Run: ``python -m benchmarks.bench_ledger [--workers N] [--records N]``.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RECORD = {
    "query": "when is the bluebird launch",
    "owner": None,
    "scope": "team",
    "hits": [{"file": "MEMORY.md", "line": 4, "hash": "9f1c2b3a4d5e6f70", "score": 0.82}],
}


def _append_jsonl(folder: Path, record: dict[str, object]) -> None:
    """How a log was appended before the ledger: under its lock, flushed to the disk."""
    path = folder / "logs" / "recall.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            handle.flush()
            os.fsync(handle.fileno())


def _worker(kind: str, folder: Path, writer: int, records: int) -> None:
    from memclaw.workspace import ledger

    for n in range(records):
        record = {**RECORD, "writer": writer, "n": n}
        if kind == "ledger":
            ledger.append(folder, "recall", record)
        else:
            _append_jsonl(folder, record)


def _appends(kind: str, folder: Path, workers: int, records: int) -> float:
    command = [sys.executable, "-m", "benchmarks.bench_ledger", "--worker", kind]
    started = time.perf_counter()
    procs = [
        subprocess.Popen([*command, str(folder), str(w), str(records)]) for w in range(workers)
    ]
    if any(p.wait() != 0 for p in procs):
        raise SystemExit(f"a {kind} writer failed")
    return time.perf_counter() - started


def _read_back(kind: str, folder: Path) -> tuple[list[dict[str, object]], float]:
    from memclaw.workspace import ledger

    started = time.perf_counter()
    if kind == "ledger":
        records = list(ledger.read(folder, "recall"))
    else:
        text = (folder / "logs" / "recall.jsonl").read_text(encoding="utf-8")
        records = [json.loads(line) for line in text.splitlines()]
    return records, time.perf_counter() - started


def _fill(kind: str, folder: Path, count: int) -> None:
    from memclaw.workspace import ledger

    records = [{**RECORD, "writer": 99, "n": n} for n in range(count)]
    if kind == "ledger":
        ledger.replace(folder, "recall", records)
    else:
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
        (folder / "logs" / "recall.jsonl").write_text(text, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--records", type=int, default=250, help="per worker")
    parser.add_argument("--reads", type=int, default=10_000)
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        kind, folder, writer, records = args.worker
        _worker(kind, Path(folder), int(writer), int(records))
        return 0
    total = args.workers * args.records
    seconds: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("jsonl", "ledger"):
            folder = Path(tmp) / kind
            # The ledger absorbs a logs/ folder it finds: the baseline writes elsewhere.
            folder.mkdir()
            took = _appends(kind, folder, args.workers, args.records)
            records, _ = _read_back(kind, folder)
            pairs = sorted((r["writer"], r["n"]) for r in records)
            if pairs != sorted((w, n) for w in range(args.workers) for n in range(args.records)):
                raise SystemExit(f"{kind}: {total - len(set(pairs))} records lost or doubled")
            _fill(kind, folder, args.reads)  # a long stream, as years of recall make
            _, read = _read_back(kind, folder)
            seconds[kind] = (took, read)
    (base_write, base_read), (write, read) = seconds["jsonl"], seconds["ledger"]
    print(
        f"appends: {total} records from {args.workers} processes, none lost: ledger "
        f"{total / write:.0f}/s, JSON lines + flock + fsync {total / base_write:.0f}/s "
        f"({base_write / write:.2f}x)"
    )
    print(
        f"read back {args.reads} records: ledger {read * 1000:.1f} ms, JSON lines "
        f"{base_read * 1000:.1f} ms ({base_read / read:.2f}x)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
