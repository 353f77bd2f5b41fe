"""Recall of evidence lines on hand-written multi-session conversations (LoCoMo-like).

Each file in ``benchmarks/conversations/<half>/`` is one conversation between
two or three people over several months: sessions headed by their date and
time, one turn per line, then questions, each with the turns that answer it
(a fragment that occurs in exactly one turn). The questions were written in
other words than their evidence, and some need the turn before the evidence,
a date ("on 3 June, 2023", "in March 2023", "last week", "yesterday": today
is the day after the last session), or whose fact it is.

The conversation is written the way memclaw keeps it: one daily note per
session date, one bullet per turn (``- Ana: ...``) under a heading with the
time and the speakers. The conversations of both halves share one agent, as
one person's chats with several friends would, so every question has the
other conversations' turns as distractors. We report, per half (``dev`` is for tuning;
``heldout`` was written and committed before any tuning and is run once at
the end):

* recall@5 and recall@10: the share of a question's evidence lines among the
  lines of the first 5 / 10 hits, averaged over questions; MRR of the first
  hit holding evidence;
* recall at a character budget (1k, 2k, 4k, 8k): hits are handed over in
  rank order, whole, until the budget is spent; the share of evidence lines
  handed over in full. ``memclaw --budget`` fills the budget itself
  (``search --budget``: whole hits best first, then the lines around them).

``memclaw, agent each`` ranks each conversation alone in its own agent, as
LoCoMo is kept (``locomo_recall``): there the speakers' names are in half the
turns and tell nothing apart.

Baselines: plain BM25 over lines (lower-cased word tokens, no stemming) and
plain BM25 over whole files (a file is handed over from its start: only the
budget figures mean anything for it).

Run: ``python benchmarks/conversation_recall.py [--half dev|heldout|both] [--json]``.
``--embeddings real`` (or an embedding server's URL) compares keyword with hybrid
search instead: recall, seconds of search and of the first build, side by side.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE / "conversations"
OUT = HERE / "out"
BUDGETS = (1000, 2000, 4000, 8000)
_SESSION = re.compile(r"## (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})$")
_TURN = re.compile(r"([A-Z][\w' ]*?): (.+)$")


@dataclass
class Question:
    text: str
    fragments: list[str]
    evidence: set[tuple[str, int]] = field(default_factory=set)


@dataclass
class Conversation:
    name: str
    sessions: list[tuple[str, str, list[tuple[str, str]]]]  # date, time, turns
    questions: list[Question]

    @property
    def today(self) -> date:
        return date.fromisoformat(self.sessions[-1][0]) + timedelta(days=1)


def parse(path: Path) -> Conversation:
    sessions: list[tuple[str, str, list[tuple[str, str]]]] = []
    questions: list[Question] = []
    in_questions = False
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or (line.startswith("# ") and line != "# questions"):
            continue
        if line == "# questions":
            in_questions = True
            continue
        if in_questions:
            text, _, evidence = line.partition(" | ")
            questions.append(Question(text.strip(), [e.strip() for e in evidence.split(" || ")]))
            continue
        session = _SESSION.match(line)
        if session:
            sessions.append((session.group(1), session.group(2), []))
            continue
        turn = _TURN.match(line)
        if not turn or not sessions:
            raise SystemExit(f"{path.name}:{number}: not a session heading or a turn: {line}")
        sessions[-1][2].append((turn.group(1), turn.group(2)))
    return Conversation(path.stem, sessions, questions)


AGENT = "chat"


Place = tuple[str, int]  # (file relative to the agent, line number)


def write(
    convs: list[Conversation], root: Path, agent: str = AGENT
) -> dict[tuple[str, int, int], Place]:
    """Every conversation in one agent's memory: one daily note per session date.

    Conversations of both halves share the workspace, as one person's chats with
    several friends would, so each question has the others' turns as distractors.
    Returns where each turn landed, by (conversation, session index, turn index).
    """
    folder = root / agent / "memory"
    folder.mkdir(parents=True)
    by_day: dict[str, list[tuple[str, Conversation, int, list[tuple[str, str]]]]] = {}
    for conv in convs:
        for number, (day, time, turns) in enumerate(conv.sessions):
            by_day.setdefault(day, []).append((time, conv, number, turns))
    where: dict[tuple[str, str], list[Place]] = {}
    at: dict[tuple[str, int, int], Place] = {}
    for day, sessions in sorted(by_day.items()):
        lines = [f"# {day}"]
        for time, conv, number, turns in sorted(sessions, key=lambda s: s[0]):
            speakers = list(dict.fromkeys(s for s, _ in turns))
            lines += ["", f"## {time} {' and '.join(speakers)}"]
            for turn, (speaker, text) in enumerate(turns):
                lines.append(f"- {speaker}: {text}")
                where.setdefault((conv.name, text), []).append((f"memory/{day}.md", len(lines)))
                at[(conv.name, number, turn)] = (f"memory/{day}.md", len(lines))
        (folder / f"{day}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for conv in convs:
        for q in conv.questions:
            for fragment in q.fragments:
                found = [
                    loc
                    for (name, text), locs in where.items()
                    if name == conv.name and fragment in text
                    for loc in locs
                ]
                if len(found) != 1:
                    raise SystemExit(f"{conv.name}: evidence {fragment!r} is in {len(found)} turns")
                q.evidence.add(found[0])
    return at


# --- baselines: plain BM25 -------------------------------------------------------------------

_PLAIN = re.compile(r"\w+")


class BM25:
    """Okapi BM25 (k1 1.2, b 0.75) over documents that are line ranges of files."""

    def __init__(self, docs: list[tuple[str, int, int, str]]) -> None:
        self.docs = [
            (f, a, b, text, Counter(_PLAIN.findall(text.lower()))) for f, a, b, text in docs
        ]
        df: Counter[str] = Counter()
        for doc in self.docs:
            df.update(doc[4].keys())
        n = len(self.docs)
        self.avgdl = sum(sum(d[4].values()) for d in self.docs) / n
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def search(self, query: str, k: int) -> list[Hit]:
        terms = set(_PLAIN.findall(query.lower()))
        scored = []
        for file, first, last, text, tf in self.docs:
            length = sum(tf.values())
            s = sum(
                self.idf[t] * tf[t] * 2.2 / (tf[t] + 1.2 * (0.25 + 0.75 * length / self.avgdl))
                for t in terms
                if tf.get(t)
            )
            if s > 0:
                scored.append((-s, file, first, last, text))
        scored.sort()
        return [Hit(f, a, b, text) for _, f, a, b, text in scored[:k]]


@dataclass
class Hit:
    file: str
    line: int
    end_line: int
    text: str


def _docs(folder: Path, whole_files: bool) -> list[tuple[str, int, int, str]]:
    docs = []
    for path in sorted(folder.rglob("*.md")):
        rel = path.relative_to(folder).as_posix()
        lines = path.read_text(encoding="utf-8").splitlines()
        if whole_files:
            docs.append((rel, 1, len(lines), "\n".join(lines)))
        else:
            docs += [(rel, n, n, line) for n, line in enumerate(lines, 1) if line.strip()]
    return docs


# --- scoring ---------------------------------------------------------------------------------


def _lines(hits: list[Hit]) -> list[set[tuple[str, int]]]:
    return [{(h.file, n) for n in range(h.line, h.end_line + 1)} for h in hits]


def rank_scores(hits: list[Hit], evidence: set[tuple[str, int]]) -> dict[str, float]:
    lines = _lines(hits)
    out: dict[str, float] = {}
    for k in (5, 10):
        seen = set().union(*lines[:k]) if lines else set()
        out[f"recall@{k}"] = len(evidence & seen) / len(evidence)
    first = next((i for i, got in enumerate(lines, 1) if got & evidence), 0)
    out["mrr"] = 1 / first if first else 0.0
    return out


def budget_scores(hits: list[Hit], evidence: set[tuple[str, int]]) -> dict[str, float]:
    """Evidence lines handed over whole when hits are given in order until the budget is spent."""
    out: dict[str, float] = {}
    for budget in BUDGETS:
        spent, got = 0, set()
        for hit in hits:
            for offset, line in enumerate(hit.text.split("\n")):
                spent += len(line) + 1
                if spent > budget:
                    break
                got.add((hit.file, hit.line + offset))
            if spent > budget:
                break
        out[f"{budget // 1000}k"] = len(evidence & got) / len(evidence)
    return out


System = Callable[[str, int], list[Hit]]


def _memclaw(
    root: Path,
    conv: Conversation,
    overrides: dict[str, Any],
    context: int = 0,
    agent: str = AGENT,
    **kw: Any,
) -> System:
    from memclaw.index import search
    from memclaw.workspace import Workspace

    now = datetime.combine(conv.today, datetime.min.time(), tzinfo=UTC) + timedelta(hours=12)
    ws = Workspace.open(root, env={}, overrides=overrides, clock=lambda: now)

    def run(query: str, k: int) -> list[Hit]:
        found = search(ws, query, agents=[agent], limit=k, log=False, **kw)
        if not context:
            return [Hit(h.file, h.line, h.end_line, h.text) for h in found]
        from memclaw.index.query.context import around

        hits = []
        for h in found:  # the hit with its neighbour lines, as `--context` hands them over
            near = around(ws, h, context)
            lines = [t for _, t in near.before] + h.text.split("\n") + [t for _, t in near.after]
            first = near.before[0][0] if near.before else h.line
            hits.append(Hit(h.file, first, first + len(lines) - 1, "\n".join(lines)))
        return hits

    return run


def _memclaw_budget(root: Path, conv: Conversation) -> Callable[[str, int], list[Hit]]:
    """memclaw handing over what fits a budget itself (``search --budget``): hits, then
    the lines around them. Only the budget figures compare."""
    from memclaw.index import search
    from memclaw.index.query.context import BUDGET_LIMIT, within_budget
    from memclaw.workspace import Workspace

    now = datetime.combine(conv.today, datetime.min.time(), tzinfo=UTC) + timedelta(hours=12)
    ws = Workspace.open(root, env={}, clock=lambda: now)

    def run(query: str, budget: int) -> list[Hit]:
        found = search(ws, query, agents=[AGENT], limit=BUDGET_LIMIT, log=False)
        kept, near = within_budget(ws, found, budget)
        hits = []
        for h, around in zip(kept, near, strict=True):
            lines = (
                [t for _, t in around.before] + h.text.split("\n") + [t for _, t in around.after]
            )
            first = around.before[0][0] if around.before else h.line
            hits.append(Hit(h.file, first, first + len(lines) - 1, "\n".join(lines)))
        assert sum(len(h.text) + 1 for h in hits) <= budget, "over budget"
        return hits

    return run


VARIANTS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "memclaw search": ({}, {}),
    # Each hit with the turn before and after it: only the budget figures compare.
    "memclaw --context 1": ({}, {"context": 1}),
}


def evaluate(
    halves: tuple[str, ...], trust: tuple[float, ...] = ()
) -> dict[str, dict[str, dict[str, float]]]:
    convs = {
        half: [parse(p) for p in sorted((DATA / half).glob("*.txt"))] for half in ("dev", "heldout")
    }
    tmp = Path(tempfile.mkdtemp(prefix="memclaw-conv-"))
    try:
        write([c for half in convs.values() for c in half], tmp)
        folder = tmp / AGENT
        lines, files = BM25(_docs(folder, False)), BM25(_docs(folder, True))
        report: dict[str, dict[str, dict[str, float]]] = {}
        for half in halves:
            totals: dict[str, Counter[str]] = {}
            count = 0
            for conv in convs[half]:
                systems: dict[str, System] = {
                    "plain BM25, lines": lines.search,
                    "plain BM25, files": files.search,
                }
                for name, (overrides, kw) in VARIANTS.items():
                    systems[name] = _memclaw(tmp, conv, overrides, **kw)
                for weight in trust:  # no fact here was confirmed or rejected: decay alone
                    name = f"memclaw, trust {weight:g}"
                    systems[name] = _memclaw(tmp, conv, {"trust_weight": weight})
                for name, system in systems.items():
                    sums = totals.setdefault(name, Counter())
                    for q in conv.questions:
                        for key, value in rank_scores(system(q.text, 10), q.evidence).items():
                            sums[key] += value
                        for key, value in budget_scores(system(q.text, 200), q.evidence).items():
                            sums[key] += value
                # The conversation alone in its own agent, as LoCoMo keeps each one (its
                # evidence is where this copy put it, so it is parsed again).
                solo = parse(DATA / half / f"{conv.name}.txt")
                write([solo], tmp, agent=f"solo-{conv.name}")
                alone = _memclaw(tmp, solo, {}, agent=f"solo-{conv.name}")
                sums = totals.setdefault("memclaw, agent each", Counter())
                for q in solo.questions:
                    for key, value in rank_scores(alone(q.text, 10), q.evidence).items():
                        sums[key] += value
                budgeted = _memclaw_budget(tmp, conv)
                sums = totals.setdefault("memclaw --budget", Counter())
                for q in conv.questions:
                    for budget in BUDGETS:  # (all of it fits: every line counts)
                        got = budget_scores(budgeted(q.text, budget), q.evidence)
                        sums[f"{budget // 1000}k"] += got[f"{budget // 1000}k"]
                count += len(conv.questions)
            report[half] = {
                name: {k: v / count for k, v in sums.items()} | {"questions": count}
                for name, sums in totals.items()
            }
        return report
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def compare_hybrid(halves: tuple[str, ...], url: str) -> None:
    """Print keyword against hybrid recall and seconds, per half (see ``_hybrid_lane``)."""
    from benchmarks._hybrid_lane import (
        HEAD,
        ask,
        lanes,
        packing_error,
        throughput,
        vector_size,
    )

    convs = {
        half: [parse(p) for p in sorted((DATA / half).glob("*.txt"))] for half in ("dev", "heldout")
    }
    tmp = Path(tempfile.mkdtemp(prefix="memclaw-conv-"))
    try:
        write([c for half in convs.values() for c in half], tmp)
        for half in halves:
            print(f"conversation recall, {half}: keyword against hybrid")
            print(HEAD)
            for lane, overrides in lanes(url):
                for conv in convs[half]:
                    now = datetime.combine(conv.today, datetime.min.time(), tzinfo=UTC)
                    ask(lane, tmp, AGENT, now + timedelta(hours=12), conv.questions, overrides)
                print(lane.row(), flush=True)
            print(vector_size(tmp, [AGENT]), flush=True)
        dev = convs["dev"]
        turns = [text for c in dev for _, _, said in c.sessions for _, text in said]
        print(packing_error(url, [q.text for c in dev for q in c.questions], turns), flush=True)
        print(throughput(url, list(dict.fromkeys(turns))[:640]), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=("dev", "heldout", "both"), default="dev")
    parser.add_argument(
        "--trust", default="", help="also rank with these trust_weight values, e.g. 0.2,0.5"
    )
    parser.add_argument(
        "--embeddings",
        default="",
        help="compare keyword with hybrid search: an embedding server's URL, or 'real' to "
        "start multilingual-e5-small on loopback (benchmarks.embed_server)",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(HERE.parent))
    halves = ("dev", "heldout") if args.half == "both" else (args.half,)
    if args.embeddings:
        from benchmarks._hybrid_lane import embedding_url

        with embedding_url(args.embeddings) as url:
            compare_hybrid(halves, url)
        return
    report = evaluate(halves, tuple(float(w) for w in args.trust.split(",") if w))
    for half, results in report.items():
        n = int(next(iter(results.values()))["questions"])
        print(f"conversation recall, {half}: {n} questions")
        head = " ".join(f"{f'@{b // 1000}k':>6}" for b in BUDGETS)
        print(f"  {'system':<26} {'R@5':>6} {'R@10':>6} {'MRR':>6}   budget {head}")
        for name, r in results.items():
            ranked = (
                "   n/a    n/a    n/a"
                if "files" in name or "context" in name or "budget" in name
                else (f"{r['recall@5']:>6.3f} {r['recall@10']:>6.3f} {r['mrr']:>6.3f}")
            )
            budget = " ".join(
                f"{r[f'{b // 1000}k']:>6.3f}" if f"{b // 1000}k" in r else f"{'n/a':>6}"
                for b in BUDGETS
            )
            print(f"  {name:<26} {ranked}          {budget}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "conversation_recall.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
