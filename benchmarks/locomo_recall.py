"""Recall on LoCoMo, the public multi-session conversation benchmark: a held-out check.

LoCoMo is not shipped here (its licence forbids redistribution in a product); point
``--data`` at a copy of its conversations: the ``locomo10.json`` file of the
original release, or the folder of per-conversation ``<id>.json`` files. Never
tune on it: tune on ``benchmarks/conversations/dev`` and look here once.

Each conversation becomes one agent, stored as memclaw keeps a chat: one daily
note per session date, one bullet per turn (``- Caroline: ...``, a shared photo
as ``[photo: caption]``) under a heading with the time and the speakers. A
question counts as recalled at k when a hit among the first k names a line of
one of its evidence turns (the share of evidence lines found, averaged, as in
``conversation_recall``). Category 5 (questions with no answer in the
conversation) is left out. Figures per category: 1 multi-hop, 2 temporal,
3 open-domain, 4 single-hop.

    python -m benchmarks.locomo_recall --data build/locomo/locomo10.json
    python -m benchmarks.locomo_recall --data DIR --embeddings real  # keyword against hybrid
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.conversation_recall import (
    BM25,
    Conversation,
    Question,
    _docs,
    _memclaw,
    rank_scores,
    write,
)

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_STAMP = re.compile(r"(\d{1,2}):(\d{2})\s*([ap]m) on (\d{1,2}) (\w+),? (\d{4})", re.I)
_DIA = re.compile(r"D(\d+):(\d+)$")


def load(data: Path) -> list[dict[str, Any]]:
    """The conversations, from ``locomo10.json`` or a folder of per-conversation files."""
    if data.is_dir():
        items = []
        for path in sorted(data.glob("*.json"), key=lambda p: (len(p.stem), p.stem)):
            item = json.loads(path.read_text(encoding="utf-8"))
            items.append({"sample_id": path.stem, "conversation": item, "qa": item["qa"]})
        return items
    raw = json.loads(data.read_text(encoding="utf-8"))
    return [raw] if isinstance(raw, dict) else list(raw)


def _when(stamp: str) -> tuple[str, str]:
    m = _STAMP.search(stamp)
    if not m:
        raise SystemExit(f"unreadable session time: {stamp!r}")
    hour, minute, half, day, month, year = m.groups()
    parsed = datetime.strptime(f"{day} {month} {year} {hour}:{minute} {half}", "%d %B %Y %I:%M %p")
    return parsed.date().isoformat(), parsed.strftime("%H:%M")


def convert(item: dict[str, Any]) -> tuple[Conversation, dict[str, tuple[int, int]], list[Any]]:
    """One LoCoMo sample as a Conversation, where each dia id is, and its questions."""
    talk = item["conversation"]
    numbers = sorted(
        int(k.split("_")[1]) for k in talk if re.fullmatch(r"session_\d+", k) and talk[k]
    )
    sessions = []
    dia: dict[str, tuple[int, int]] = {}
    for index, number in enumerate(numbers):
        day, clock = _when(talk[f"session_{number}_date_time"])
        turns = []
        for position, turn in enumerate(talk[f"session_{number}"]):
            text = " ".join(str(turn.get("text", "")).split())
            if turn.get("blip_caption"):
                text += f" [photo: {turn['blip_caption']}]"
            turns.append((str(turn["speaker"]), text))
            dia[str(turn["dia_id"])] = (index, position)
        sessions.append((day, clock, turns))
    qa = item["qa"]
    if isinstance(qa, str):  # the per-conversation files keep it as a Python literal
        qa = ast.literal_eval(qa)
    return Conversation(str(item.get("sample_id", "locomo")), sessions, []), dia, qa


def _questions(number: int, item: dict[str, Any], tmp: Path) -> tuple[str, Conversation]:
    """One conversation written as agent ``c<number>`` under ``tmp``, its questions set."""
    conv, dia, qa = convert(item)
    agent = f"c{number}"
    at = write([conv], tmp, agent)
    for entry in qa:
        category = int(entry.get("category", 0))
        places = {
            at[(conv.name, *dia[e])]
            for e in (entry.get("evidence") or [])
            if isinstance(e, str) and e.strip() in dia
        }
        if category in CATEGORIES and places:
            conv.questions.append(Question(str(entry["question"]), [CATEGORIES[category]], places))
    return agent, conv


def evaluate(data: Path, overrides: dict[str, Any], limit: int = 0) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="memclaw-locomo-"))
    sums: dict[str, Counter[str]] = {}
    counts: Counter[str] = Counter()
    seconds = {"memclaw": 0.0}
    try:
        for number, item in enumerate(load(data)[: limit or None]):
            agent, conv = _questions(number, item, tmp)
            systems = {
                "plain BM25, lines": BM25(_docs(tmp / agent, False)).search,
                "memclaw search": _memclaw(tmp, conv, overrides, agent=agent),
            }
            systems["memclaw search"]("warm the index", 1)  # the first build is not timed
            for name, system in systems.items():
                for q in conv.questions:
                    started = time.perf_counter()
                    hits = system(q.text, 10)
                    if name == "memclaw search":
                        seconds["memclaw"] += time.perf_counter() - started
                    got = rank_scores(hits, q.evidence)
                    for key in ("all", q.fragments[0]):
                        sums.setdefault(f"{name}|{key}", Counter()).update(got)
            for q in conv.questions:
                counts["all"] += 1
                counts[q.fragments[0]] += 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    report: dict[str, Any] = {"questions": dict(counts), "search seconds": seconds["memclaw"]}
    for key, got in sums.items():
        name, part = key.split("|")
        report.setdefault(name, {})[part] = {k: v / counts[part] for k, v in got.items()}
    return report


def compare_hybrid(data: Path, url: str, limit: int = 0) -> None:
    """Print keyword against hybrid recall (all and per category) and seconds."""
    from benchmarks._hybrid_lane import HEAD, ask, lanes, vector_size

    tmp = Path(tempfile.mkdtemp(prefix="memclaw-locomo-"))
    try:
        convs = [_questions(n, item, tmp) for n, item in enumerate(load(data)[: limit or None])]
        print(
            f"LoCoMo: keyword against hybrid ({sum(len(c.questions) for _, c in convs)} questions)"
        )
        print(HEAD + "".join(f" {p[:11]:>11}" for p in CATEGORIES.values()))
        for lane, overrides in lanes(url):
            for agent, conv in convs:
                now = datetime.combine(conv.today, datetime.min.time(), tzinfo=UTC)
                ask(
                    lane,
                    tmp,
                    agent,
                    now + timedelta(hours=12),
                    conv.questions,
                    overrides,
                    part=lambda q: str(q.fragments[0]),
                )
            print(
                lane.row() + "".join(f" {lane.part(p):>11.3f}" for p in CATEGORIES.values()),
                flush=True,
            )
        print(vector_size(tmp, [agent for agent, _ in convs]), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="locomo10.json or its folder")
    parser.add_argument("--limit", type=int, default=0, help="only the first N conversations")
    parser.add_argument(
        "--embeddings",
        default="",
        help="compare keyword with hybrid search: an embedding server's URL serving "
        "multilingual-e5-small, or 'real' to start one (benchmarks.embed_server)",
    )
    args = parser.parse_args()
    if not args.data.exists():
        raise SystemExit(f"no LoCoMo data at {args.data}: pass --data PATH (see the docstring)")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    if args.embeddings:
        from benchmarks._hybrid_lane import embedding_url

        with embedding_url(args.embeddings) as url:
            compare_hybrid(args.data, url, args.limit)
        return
    report = evaluate(args.data, {}, args.limit)
    counts = report["questions"]
    print(f"LoCoMo recall ({counts['all']} questions, category 5 left out)")
    parts = ["all", *CATEGORIES.values()]
    print(f"  {'system':<22} " + " ".join(f"{p + ' R@10':>17}" for p in parts))
    for name in ("plain BM25, lines", "memclaw search"):
        row = " ".join(f"{report[name][p]['recall@10']:>17.3f}" for p in parts if p in counts)
        print(f"  {name:<22} {row}")
    print(f"  memclaw search time: {report['search seconds']:.1f} s for {counts['all']} queries")


if __name__ == "__main__":
    main()
