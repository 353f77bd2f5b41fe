"""Search speed on a synthetic workspace of 10,000 daily notes (about a million lines).

In one run: full index build (MB/s), one-file incremental sync, warm query
latency from Python (p50/p95), a cold ``memclaw search`` process against a bare
``python -c "import sqlite3"``, and the same queries answered by a full scan of
the files (``grep -riF`` and a grep-like Python scan). Ratios are printed
against the targets of issue 3.

Run: ``python benchmarks/search_speed.py [--notes 10000] [--lines 100] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"
PY = sys.executable


def _words(text: str) -> list[str]:
    return text.split()


EN = _words(
    "the a we she he it was is to of and in on for with at after before about from "
    "today tomorrow yesterday morning evening again still maybe really"
)
NOUNS = _words(
    "cutover window replica index migration backfill rollback dashboard alert deploy "
    "review script query cluster bouncer upgrade cache runner budget invoice meeting "
    "standup roadmap ticket release branch pipeline container schema latency timeout "
    "knee run interval parkrun marathon pace shoes stretch physio walk dog vet vaccine "
    "kayak permit harbour ferry train bike helmet lock garden tomato basil sourdough "
    "oven recipe dinner lunch coffee tea bakery flat lease landlord heater window"
)
VERBS = _words(
    "checked fixed moved planned booked cancelled reviewed wrote tested measured "
    "started finished discussed postponed approved rejected ordered cleaned bought"
)
NAMES = _words("Maya Jonas Priya Tomas Elin Kenji Farah Sara Knut Ingrid Lars Astrid")
SV = [
    "Vi pratade om flytten till den nya lägenheten i Majorna.",
    "Knut behöver vaccin på torsdag, veterinären öppnar 08:15.",
    "Glöm inte att boka tvättstugan på lördag förmiddag.",
    "Löprundan längs älven blev tolv kilometer i lugnt tempo.",
    "Mötet med hyresvärden flyttades till nästa vecka.",
]
DE = [
    "Die Straße am Hafen ist wegen Bauarbeiten gesperrt.",
    "Wir haben die Übergabe der Datenbank auf Samstag verschoben.",
    "Der Tierarzt empfiehlt einen Termin im Frühling.",
    "Das Brot aus der Bäckerei war heute besonders gut.",
]
JA = [
    "東京の会議は来週の火曜日に延期されました。",
    "新しいサーバーの設定を確認してください。",
    "犬の散歩は毎朝七時に行きます。",
    "データベースの移行作業が終わりました。",
]
ZH = [
    "我们明天在上海开会讨论数据库迁移。",
    "周末去公园跑步，天气很好。",
    "请检查新服务器的配置文件。",
]
KO = [
    "서울에서 친구를 만나서 커피를 마셨다.",
    "다음 주에 데이터베이스 이전 작업을 한다.",
]
QUERIES = [  # some common, most specific, several languages
    "cutover window",
    "kayak permit",
    "vet vaccine Knut",
    "sourdough recipe",
    "{rare1}",
    "{rare2} {mid1}",
    "{mid2}",
    "Göteborgsvarvet",
    "bib number 4985",
    "hyresvärden",
    "Straße gesperrt",
    "東京 会議",
    "データベース",
    "서울 친구",
    "bouncer upgrade latency",
    "parkrun pace",
    "2019-03-14",
    "08:15",
    "Maya",
    "heater landlord",
]
NEEDLE = "Göteborgsvarvet 2027: goal under 1:50, bib number {n}"


def _pseudo_words(rng: random.Random, n: int) -> list[str]:
    syllables = _words("ka lo mi ne ru sa to vi be da fe gu ho ja ke li mo nu pa qi re su ti zo")
    words: set[str] = set()
    while len(words) < n:
        words.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def build_workspace(root: Path, notes: int, lines: int, seed: int = 7) -> dict[str, str]:
    """Write ``notes`` daily notes of about ``lines`` lines each; return query fill-ins.

    Words follow Zipf's law over a vocabulary of 20,000 pseudo-words and 3,000
    topic words (the real nouns above sit at ranks spread over those 3,000), so
    some query words are common and most are not, as in real notes.
    """
    rng = random.Random(seed)
    tail = _pseudo_words(rng, 23000)
    topics = tail[20000:]
    for i, noun in enumerate(NOUNS):
        topics[5 + i * 39] = noun
    tail = tail[:20000]
    cum_tail = list(itertools.accumulate(1.0 / (r + 1) for r in range(len(tail))))
    cum_topic = list(itertools.accumulate(1.0 / (r + 1) for r in range(len(topics))))
    agent = root / "bench"
    (agent / "memory").mkdir(parents=True)
    (agent / "MEMORY.md").write_text("# MEMORY.md\n\n- Maya trains for Göteborgsvarvet.\n")
    start = date(2026, 11, 28) - timedelta(days=notes - 1)
    for i in range(notes):
        day = start + timedelta(days=i)
        out = [f"# {day.isoformat()}", ""]
        while len(out) < lines:
            if rng.random() < 0.12:
                out += ["", f"## {rng.randint(6, 22):02d}:{rng.choice(['00', '15', '30', '45'])}"]
            roll = rng.random()
            if roll < 0.70:
                words = rng.choices(tail, cum_weights=cum_tail, k=rng.randint(2, 4))
                words += rng.choices(topics, cum_weights=cum_topic, k=rng.randint(1, 2))
                words += [rng.choice(EN) for _ in range(rng.randint(2, 4))]
                words.append(rng.choice(VERBS))
                if rng.random() < 0.5:
                    words.append(rng.choice(NAMES))
                rng.shuffle(words)
                out.append("- " + " ".join(words).capitalize() + ".")
            elif roll < 0.80:
                out.append(f"- {rng.choice(SV)} ({rng.choice(tail[:2000])})")
            elif roll < 0.88:
                out.append(f"- {rng.choice(DE)} ({rng.choice(tail[:2000])})")
            elif roll < 0.93:
                out.append("- " + rng.choice(JA))
            elif roll < 0.97:
                out.append("- " + rng.choice(ZH))
            else:
                out.append("- " + rng.choice(KO))
        if i % 997 == 0:
            out.append("- " + NEEDLE.format(n=i))
        (agent / "memory" / f"{day.isoformat()}.md").write_text("\n".join(out) + "\n")
    return {"rare1": tail[5000], "rare2": tail[12000], "mid1": tail[40], "mid2": tail[3]}


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _timed(fn: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return times


def python_scan(folder: Path, query: str) -> list[tuple[str, int]]:
    """A grep-like full scan: every line containing any query word, case-insensitively."""
    terms = [t.casefold() for t in query.split()]
    found = []
    for path in folder.rglob("*.md"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            low = line.casefold()
            if any(t in low for t in terms):
                found.append((path.name, number))
    return found


def grep_scan(folder: Path, query: str) -> None:
    args = ["grep", "-r", "-i", "-F", "-n", "--include=*.md"]
    for term in query.split():
        args += ["-e", term]
    subprocess.run([*args, str(folder)], stdout=subprocess.DEVNULL, check=False)


def _process_ms(cmd: list[str], repeat: int, env: dict[str, str]) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def run(notes: int, lines: int, keep: Path | None) -> dict[str, float]:
    from memclaw.index import Searcher, reindex, search, sync_agent
    from memclaw.workspace import Workspace

    tmp = Path(tempfile.mkdtemp(prefix="memclaw-bench-")) if keep is None else keep
    root = tmp / "workspaces"
    if root.exists():
        shutil.rmtree(root)
    figures: dict[str, float] = {}
    try:
        started = time.perf_counter()
        fills = build_workspace(root, notes, lines)
        figures["generate_s"] = time.perf_counter() - started
        agent_dir = root / "bench"
        size = sum(p.stat().st_size for p in agent_dir.rglob("*.md"))
        figures["files"] = notes + 1
        figures["lines"] = sum(1 for p in agent_dir.rglob("*.md") for _ in p.open("rb"))
        figures["megabytes"] = size / 1e6
        ws = Workspace.open(root, env={})
        agent = ws.agent("bench")
        build = reindex(agent)
        figures["build_s"] = build.seconds
        figures["build_mb_s"] = size / 1e6 / build.seconds
        figures["blocks"] = build.blocks
        figures["index_mb"] = (agent_dir / ".memclaw" / "index.sqlite").stat().st_size / 1e6
        time.sleep(2.1)  # let every file's timestamp settle (see store._RACY_NS)
        sync_agent(agent)
        figures["noop_sync_ms"] = statistics.median(_timed(lambda: sync_agent(agent), 9)) * 1000
        last = sorted((agent_dir / "memory").glob("*.md"))[-1]

        def one_file() -> None:
            with open(last, "a", encoding="utf-8") as handle:
                handle.write("- one more line about the kayak permit\n")
            stats = sync_agent(agent)
            assert stats.changed == [f"memory/{last.name}"], stats.changed

        figures["one_file_sync_ms"] = statistics.median(_timed(one_file, 9)) * 1000
        queries = [q.format(**fills) for q in QUERIES]
        searcher = Searcher(ws)
        for q in queries:  # warm the page cache and SQLite
            searcher.search(q, log=False)
        per_query = {
            q: _timed(lambda q=q: searcher.search(q, sync=False, log=False), 15) for q in queries
        }
        hot = [t for times in per_query.values() for t in times]
        searcher.close()
        fresh = [t for q in queries for t in _timed(lambda q=q: search(ws, q, log=False), 5)]
        figures["warm_p50_ms"] = _pct(hot, 0.5) * 1000
        figures["warm_p95_ms"] = _pct(hot, 0.95) * 1000
        figures["fresh_p50_ms"] = _pct(fresh, 0.5) * 1000
        figures["fresh_p95_ms"] = _pct(fresh, 0.95) * 1000
        for q, times in per_query.items():
            figures[f"query_ms[{q}]"] = statistics.median(times) * 1000
        grep = [t for q in queries for t in _timed(lambda q=q: grep_scan(agent_dir, q), 3)]
        scan = [t for q in queries[:6] for t in _timed(lambda q=q: python_scan(agent_dir, q), 1)]
        figures["grep_p50_ms"] = _pct(grep, 0.5) * 1000
        figures["pyscan_p50_ms"] = _pct(scan, 0.5) * 1000
        env = {**os.environ, "MEMCLAW_ROOT": str(root)}
        figures["bare_python_ms"] = _process_ms([PY, "-c", "import sqlite3"], 15, env)
        memclaw = [PY, "-m", "memclaw", "search", "kayak permit", "--agent", "bench"]
        figures["cold_json_ms"] = _process_ms([*memclaw, "--json"], 15, env)
        figures["cold_plain_ms"] = _process_ms(memclaw, 15, env)
        # "-n10" is valid for typer but not for the fast lane, so this run goes through typer.
        figures["cold_typer_ms"] = _process_ms([*memclaw, "-n10", "--json"], 5, env)
    finally:
        if keep is None:
            shutil.rmtree(tmp, ignore_errors=True)
    return figures


def report(f: dict[str, float]) -> list[tuple[str, str, str]]:
    scan = min(f["grep_p50_ms"], f["pyscan_p50_ms"])
    bare = f["bare_python_ms"]
    sizes = f"{f['files']:.0f} files, {f['lines']:,.0f} lines, {f['megabytes']:.1f} MB"
    build = f"{f['build_s']:.1f} s, {f['build_mb_s']:.2f} MB/s"
    index = f"{f['blocks']:,.0f} blocks, index {f['index_mb']:.0f} MB"
    one = f"{f['build_s'] * 1000 / f['one_file_sync_ms']:.0f}x faster than rebuild (>= 100x)"
    warm = f"{f['warm_p50_ms']:.2f} / {f['warm_p95_ms']:.2f} ms"
    fresh = f"{f['fresh_p50_ms']:.1f} / {f['fresh_p95_ms']:.1f} ms"

    def x(value: float, target: str = "") -> str:
        return f"{value:.1f}x bare python{target}"

    scan_x = f"p50 {scan / f['warm_p50_ms']:.0f}x faster than scan (>= 50x)"
    return [
        ("workspace", sizes, ""),
        ("full build", build, index),
        ("no-op sync (stat every file)", f"{f['noop_sync_ms']:.1f} ms", ""),
        ("one-file sync", f"{f['one_file_sync_ms']:.1f} ms", one),
        ("warm query p50 / p95 (Searcher)", warm, scan_x),
        ("search() incl. open + freshness", fresh, f"p50 {scan / f['fresh_p50_ms']:.0f}x faster"),
        ("full scan: grep -riF p50", f"{f['grep_p50_ms']:.0f} ms", ""),
        ("full scan: Python p50", f"{f['pyscan_p50_ms']:.0f} ms", ""),
        ("bare python -c 'import sqlite3'", f"{bare:.0f} ms", ""),
        (
            "cold memclaw search --json",
            f"{f['cold_json_ms']:.0f} ms",
            x(f["cold_json_ms"] / bare, " (<= 6x)"),
        ),
        (
            "cold memclaw search, piped",
            f"{f['cold_plain_ms']:.0f} ms",
            x(f["cold_plain_ms"] / bare),
        ),
        ("cold search through typer", f"{f['cold_typer_ms']:.0f} ms", x(f["cold_typer_ms"] / bare)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=10000)
    parser.add_argument("--lines", type=int, default=100)
    parser.add_argument("--keep", type=Path, help="build the workspace here and keep it")
    args = parser.parse_args()
    figures = run(args.notes, args.lines, args.keep)
    rows = report(figures)
    width = max(len(r[0]) for r in rows)
    print("search speed")
    for label, value, note in rows:
        print(f"  {label:<{width}}  {value:<24} {note}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "search_speed.json").write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
