"""Recall quality of ``memclaw search`` on generated multi-session conversations.

A seeded generator writes months of dated chat sessions as daily notes: people
with homes, jobs, birthdays and allergies, pets, appointments, preferences that
change over time, facts said once and facts that recur, small talk that shares
their words, and a share of Swedish, German, Japanese and Chinese. Every
question knows the lines that answer it. For each question we report whether
an answering line is in the top 5 / top 10 (recall@5, recall@10) and the
reciprocal rank of the first one (MRR), for memclaw and for a plain BM25 over
raw lines (lower-cased word tokens, no stemming, no CJK handling).

Run: ``python benchmarks/search_quality.py [--seed 11] [--days 180]``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import shutil
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "out"
USER = "Maya"
PEOPLE = [
    "Ingrid", "Jonas", "Priya", "Tomas", "Elin", "Kenji", "Farah", "Lars", "Astrid", "Oskar",
    "Sofia", "Mateo", "Hanna", "Yusuf", "Clara", "Viktor", "Amira", "Erik", "Nora", "Felix",
]  # fmt: skip
CITIES = [
    "Bergen", "Oslo", "Malmö", "Uppsala", "Lyon", "Porto", "Leipzig", "Tampere", "Gdansk",
    "Bilbao", "Aarhus", "Graz", "Turin", "Utrecht", "Cork", "Brno", "Lund", "Umeå",
]  # fmt: skip
JOBS = [
    "nurse", "carpenter", "data engineer", "pharmacist", "teacher", "architect",
    "translator", "electrician", "chef", "photographer", "lawyer", "pilot",
]  # fmt: skip
FOODS = ["peanuts", "shellfish", "gluten", "lactose", "kiwi", "sesame", "eggs", "soy"]
BREEDS = ["Finnish Lapphund", "Border Collie", "Shiba Inu", "Dachshund", "Vizsla", "Beagle"]
PETS = ["Knut", "Saga", "Pixel", "Bamse", "Mochi", "Ruffe"]
MONTHS = [
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
]  # fmt: skip
DOMAINS = [
    ("Python packaging", ["Poetry", "uv", "pip-tools", "Hatch"]),
    ("note taking", ["Obsidian", "Logseq", "Notion", "plain text files"]),
    ("running shoes", ["Hoka Clifton", "Brooks Ghost", "Asics Novablast", "Saucony Ride"]),
    ("coffee", ["espresso", "pour-over", "AeroPress", "oat flat white"]),
    ("editor", ["Neovim", "VS Code", "Helix", "Emacs"]),
    ("commute", ["bike", "tram", "electric scooter", "walking"]),
]
APPOINTMENTS = ["dentist", "physiotherapist", "optician", "vet", "barber", "dermatologist"]
SMALL_TALK = [
    "Had coffee with {p} near the station in {c}.",
    "{p} sent a photo from a weekend trip to {c}.",
    "We talked about the weather in {c} and {p}'s new flat.",
    "Maybe visit {p} in {c} next spring.",
    "{p} recommended a podcast about working as a {j}.",
    "Long week; {p} and I both need a holiday.",
    "Talked with {p} about the train strike and the {j} shortage.",
    "Cooked dinner for {p}; no {f} in anything, just to be safe.",
]
ASSISTANT = [
    "Noted.",
    "Got it, I will remember that.",
    "Thanks for telling me.",
    "Understood.",
    "Sounds good.",
]


@dataclass
class Question:
    text: str
    category: str
    evidence: set[tuple[str, int]] = field(default_factory=set)
    language: str = "en"


@dataclass
class World:
    rng: random.Random
    days: dict[date, list[str]] = field(default_factory=lambda: defaultdict(list))
    questions: list[Question] = field(default_factory=list)
    pending: list[tuple[date, str, Question | None]] = field(default_factory=list)

    def say(self, day: date, line: str, question: Question | None = None) -> None:
        self.pending.append((day, line, question))


def _fact_people(w: World, start: date, span: int) -> None:
    rng = w.rng
    cities, jobs = rng.sample(CITIES, len(CITIES)), JOBS * 2
    for i, person in enumerate(PEOPLE):
        city, job, food = cities[i % len(cities)], jobs[i], rng.choice(FOODS)
        bday = f"{rng.randint(1, 28)} {rng.choice(MONTHS)}"
        facts = [
            (
                f"{person} lives in {city} these days.",
                rng.choice([f"Where does {person} live?", f"Which city is {person} living in?"]),
                "once",
            ),
            (
                f"{person} works as a {job}.",
                rng.choice([f"What is {person}'s job?", f"What does {person} work as?"]),
                "once",
            ),
            (
                f"{person}'s birthday is on {bday}.",
                f"When is {person}'s birthday?",
                "once",
            ),
            (
                f"{person} is allergic to {food}.",
                rng.choice(
                    [f"What is {person} allergic to?", f"Which allergy does {person} have?"]
                ),
                "once",
            ),
        ]
        for line, text, category in facts:
            q = Question(text, category)
            w.questions.append(q)
            w.say(start + timedelta(days=rng.randrange(span)), f"- {USER}: {line}", q)


def _fact_other_languages(w: World, start: date, span: int) -> None:
    rng = w.rng
    for person in rng.sample(PEOPLE, 12):
        city = rng.choice(CITIES)
        lang = rng.choice(["sv", "de", "ja", "zh"])
        line, text = {
            "sv": (f"{person} har flyttat till {city} och trivs där.", f"Var bor {person} nu?"),
            "de": (f"{person} ist nach {city} umgezogen.", f"Wohin ist {person} gezogen?"),
            "ja": (
                f"{person}さんは{city}に引っ越しました。",
                f"{person}さんはどこに引っ越しましたか",
            ),
            "zh": (f"{person}搬到了{city}，很喜欢那里。", f"{person}搬到哪里了"),
        }[lang]
        q = Question(text, "non-English", language=lang)
        w.questions.append(q)
        w.say(start + timedelta(days=rng.randrange(span)), f"- {USER}: {line}", q)
    extra = [
        (
            "ja",
            "- Maya: 来週の火曜日に東京で歯医者の予約があります。",
            "東京の歯医者の予約はいつですか",
        ),
        ("zh", "- Maya: 我下个月去上海参加数据库会议。", "数据库会议在哪里"),
        (
            "sv",
            "- Maya: Knut ska vaccineras hos veterinären på torsdag.",
            "När ska Knut vaccineras?",
        ),
        (
            "de",
            "- Maya: Die Übergabe der Datenbank ist am Samstag.",
            "Wann ist die Übergabe der Datenbank?",
        ),
    ]
    for lang, line, text in extra:
        q = Question(text, "non-English", language=lang)
        w.questions.append(q)
        w.say(start + timedelta(days=rng.randrange(span)), line, q)


def _fact_changes(w: World, start: date, span: int) -> None:
    rng = w.rng
    for domain, options in DOMAINS:
        first, second = rng.sample(options, 2)
        t1 = start + timedelta(days=rng.randrange(span // 3))
        t2 = start + timedelta(days=span // 2 + rng.randrange(span // 2))
        w.say(t1, f"- {USER}: For {domain} I use {first}, nothing else.")
        w.say(t1 + timedelta(days=3), f"- {USER}: Still happy with {first} for {domain}.")
        q = Question(
            rng.choice(
                [f"What does {USER} use for {domain} now?", f"Current choice for {domain}?"]
            ),
            "changed",
        )
        w.questions.append(q)
        w.say(t2, f"- {USER}: I switched from {first} to {second} for {domain}.", q)


def _fact_recurring(w: World, start: date, span: int) -> None:
    rng = w.rng
    pet, breed = rng.choice(PETS), rng.choice(BREEDS)
    q = Question(f"What breed is {pet}?", "once")
    w.questions.append(q)
    w.say(start + timedelta(days=rng.randrange(span)), f"- {USER}: {pet} is a {breed}.", q)
    habits = [
        ("Ran {n} km along the river before work.", "How far does Maya run along the river?"),
        ("Swimming at the lake, {n} lengths today.", "How many lengths does Maya swim?"),
        ("Evening Swedish class, lesson {n}.", "When is the Swedish class?"),
        ("Climbing gym with Oskar, route grade {n}.", "Who does Maya go climbing with?"),
    ]
    for template, text in habits:
        q = Question(text, "recurring")
        w.questions.append(q)
        for _ in range(rng.randint(4, 9)):
            line = template.format(n=rng.randint(3, 15))
            w.say(start + timedelta(days=rng.randrange(span)), f"- {USER}: {line}", q)
    for kind in APPOINTMENTS:
        when = f"{rng.choice(MONTHS)} {rng.randint(1, 28)} at {rng.randint(8, 17):02d}:15"
        q = Question(
            rng.choice([f"When is the {kind} appointment?", f"When do I see the {kind}?"]), "once"
        )
        w.questions.append(q)
        w.say(
            start + timedelta(days=rng.randrange(span)),
            f"- {USER}: Booked the {kind} for {when}.",
            q,
        )


def _small_talk(w: World, start: date, span: int) -> None:
    rng = w.rng
    for offset in range(span):
        day = start + timedelta(days=offset)
        for _ in range(rng.randint(8, 20)):
            line = rng.choice(SMALL_TALK).format(
                p=rng.choice(PEOPLE), c=rng.choice(CITIES), j=rng.choice(JOBS), f=rng.choice(FOODS)
            )
            w.say(day, f"- {USER}: {line}")
            w.say(day, f"- assistant: {rng.choice(ASSISTANT)}")


def generate(root: Path, seed: int, span: int) -> list[Question]:
    """Write the daily notes under ``root/<agent>/memory`` and return the questions."""
    w = World(random.Random(seed))
    start = date(2026, 1, 5)
    _small_talk(w, start, span)
    _fact_people(w, start, span)
    _fact_other_languages(w, start, span)
    _fact_changes(w, start, span)
    _fact_recurring(w, start, span)
    by_day: dict[date, list[tuple[str, Question | None]]] = defaultdict(list)
    for day, line, question in w.pending:
        by_day[day].append((line, question))
    folder = root / "chat" / "memory"
    folder.mkdir(parents=True)
    for day, items in sorted(by_day.items()):
        w.rng.shuffle(items)
        lines = [f"# {day.isoformat()}", ""]
        rel = f"memory/{day.isoformat()}.md"
        for index, (line, question) in enumerate(items):
            if index % 6 == 0:
                lines += ["", f"## {w.rng.randint(7, 22):02d}:{w.rng.choice(['05', '20', '40'])}"]
            lines.append(line)
            if question is not None:
                question.evidence.add((rel, len(lines)))
        (folder / f"{day.isoformat()}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return w.questions


# --- the baseline: plain BM25 over raw lines ---------------------------------------------------

_PLAIN = re.compile(r"\w+")


class LineBM25:
    """Okapi BM25 (k1 1.2, b 0.75) with each line of each file a document."""

    def __init__(self, folder: Path) -> None:
        self.docs: list[tuple[str, int, Counter[str], int]] = []
        df: Counter[str] = Counter()
        for path in sorted(folder.rglob("*.md")):
            rel = path.relative_to(folder).as_posix()
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                terms = Counter(_PLAIN.findall(line.lower()))
                if terms:
                    self.docs.append((rel, number, terms, sum(terms.values())))
                    df.update(terms.keys())
        n = len(self.docs)
        self.avgdl = sum(d[3] for d in self.docs) / n
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def search(self, query: str, k: int = 10) -> list[tuple[str, int]]:
        terms = set(_PLAIN.findall(query.lower()))
        scored = []
        for rel, number, tf, length in self.docs:
            score = 0.0
            for t in terms:
                f = tf.get(t)
                if f:
                    norm = f + 1.2 * (0.25 + 0.75 * length / self.avgdl)
                    score += self.idf[t] * f * 2.2 / norm
            if score > 0:
                scored.append((score, rel, number))
        scored.sort(key=lambda s: (-s[0], s[1], s[2]))
        return [(rel, number) for _, rel, number in scored[:k]]


# --- scoring ----------------------------------------------------------------------------------


def _rank_of_first(hits: list[list[tuple[str, int]]], evidence: set[tuple[str, int]]) -> int:
    """1-based rank of the first hit covering an evidence line, 0 if none."""
    for rank, lines in enumerate(hits, 1):
        if any(line in evidence for line in lines):
            return rank
    return 0


def score(ranks: list[int]) -> dict[str, float]:
    n = len(ranks) or 1
    return {
        "recall@5": sum(1 for r in ranks if 0 < r <= 5) / n,
        "recall@10": sum(1 for r in ranks if 0 < r <= 10) / n,
        "mrr": sum(1 / r for r in ranks if r) / n,
    }


def evaluate(
    seed: int, span: int, trust: tuple[float, ...] = ()
) -> dict[str, dict[str, dict[str, float]]]:
    from memclaw.index import search
    from memclaw.workspace import Workspace

    tmp = Path(tempfile.mkdtemp(prefix="memclaw-quality-"))
    try:
        questions = generate(tmp, seed, span)
        baseline = LineBM25(tmp / "chat")
        systems = {
            "plain BM25 over lines": lambda q: [[h] for h in baseline.search(q)],
        }
        variants: dict[str, dict[str, Any]] = {
            "memclaw search": {},
            "memclaw, recency 60 d": {"recency_half_life_days": 60},
        }
        for weight in trust:
            variants[f"memclaw, trust {weight:g}"] = {"trust_weight": weight}
        for name, overrides in variants.items():
            ws = Workspace.open(tmp, env={}, overrides=overrides, clock=_clock)

            def run(q: str, ws: Workspace = ws) -> list[list[tuple[str, int]]]:
                hits = search(ws, q, agents=["chat"], limit=10, log=False)
                return [[(h.file, n) for n in range(h.line, h.end_line + 1)] for h in hits]

            systems[name] = run
        results: dict[str, dict[str, dict[str, float]]] = {}
        for name, system in systems.items():
            per: dict[str, list[int]] = defaultdict(list)
            for q in questions:
                rank = _rank_of_first(system(q.text), q.evidence)
                per[q.category].append(rank)
                per[f"lang:{q.language}"].append(rank)
                per["all"].append(rank)
            results[name] = {cat: score(ranks) for cat, ranks in per.items()}
            for cat, ranks in per.items():
                results[name][cat]["questions"] = len(ranks)
        return results
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _clock():  # type: ignore[no-untyped-def]
    from datetime import UTC, datetime

    return datetime(2026, 7, 31, 12, 0, tzinfo=UTC)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--days", type=int, default=180)
    parser.add_argument(
        "--trust", default="", help="also rank with these trust_weight values, e.g. 0.2,0.5"
    )
    args = parser.parse_args()
    results = evaluate(args.seed, args.days, tuple(float(w) for w in args.trust.split(",") if w))
    total = int(next(iter(results.values()))["all"]["questions"])
    print(f"search quality: {total} questions, seed {args.seed}, {args.days} days of sessions")
    print(f"  {'system':<24} {'recall@5':>8} {'recall@10':>9} {'MRR':>6}")
    for name, cats in results.items():
        a = cats["all"]
        print(f"  {name:<24} {a['recall@5']:>8.3f} {a['recall@10']:>9.3f} {a['mrr']:>6.3f}")
    first = next(iter(results.values()))
    categories = sorted(c for c in first if c != "all" and not c.startswith("lang:"))
    print("  recall@5 by category: " + ", ".join(categories))
    for name, cats in results.items():
        row = " ".join(f"{cats[c]['recall@5']:>6.2f}" for c in categories)
        print(f"  {name:<24} {row}")
    languages = sorted(c for c in first if c.startswith("lang:"))
    print(
        "  recall@5 / recall@10 by language (questions): "
        + ", ".join(f"{c[5:]} ({int(first[c]['questions'])})" for c in languages)
    )
    for name, cats in results.items():
        row = " ".join(f"{cats[c]['recall@5']:>5.2f}/{cats[c]['recall@10']:.2f}" for c in languages)
        print(f"  {name:<24} {row}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "search_quality.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
