"""Offline dream time against the length of the daily note: 1k, 4k, 16k and 64k lines.

Each size gets a fresh agent whose note of yesterday has that many lines, drawn
from a pool of facts (people, places, times, versions, amounts) about a quarter
as large as the note, so most facts come back several times, reworded or
verbatim; the three days before hold a short note restating a few of them, so
some facts recur across days and get promoted. Prints seconds, lines per second,
how many mentions the dream weighed of how many the notes hold (past the
dream_max_mentions cap only the most salient are weighed), and what it did
(offline engine, real run: lock, write, diary, log).

Run: ``python benchmarks/bench_dream_scale.py [--sizes 1000 4000 16000 64000]
[--max-mentions N]``.
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from memclaw.dream.run import dream_agent
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope
from memclaw.workspace.templates import MEMORY_MD

TODAY = date(2026, 11, 28)


def _words(text: str, sep: str = " ") -> list[str]:
    return text.split(sep)


PEOPLE = _words("Maya Jonas Priya Tomas Elin Kenji Farah Sara Knut Ingrid Lars Astrid Omar Lena")
PLACES = _words("Osaka Majorna Fjordby Lindholmen Bergen Kyoto Gdansk Tromsø Aarhus Porto")
THINGS = _words(
    "cutover window, replica lag, index migration, backfill job, rollback plan, "
    "staging database, release branch, deploy pipeline, cache cluster, PgBouncer pool, "
    "kayak permit, ferry ticket, vet visit, physio session, sourdough starter, "
    "bike helmet, lease renewal, heater repair, parkrun route, team offsite",
    ", ",
)
VERBS = _words("moved planned booked reviewed tested measured postponed approved ordered fixed")
FILLER = _words("again, still, probably, as agreed, after the standup, before lunch, for now", ", ")


def fact(rnd: random.Random) -> str:
    who, where, thing = rnd.choice(PEOPLE), rnd.choice(PLACES), rnd.choice(THINGS)
    shape = rnd.randrange(5)
    if shape == 0:
        verb = rnd.choice(VERBS)
        hour, minute = rnd.randrange(7, 19), rnd.choice(("00", "15", "30", "45"))
        return f"{who} {verb} the {thing} to {hour:02d}:{minute}."
    if shape == 1:
        version = f"{rnd.randrange(2, 17)}.{rnd.randrange(10)}"
        return f"The {thing} in {where} needs version {version} first."
    if shape == 2:
        when = rnd.choice(("Mondays", "Fridays", "weekends"))
        return f"{who} prefers the {thing} on {when} in {where}."
    if shape == 3:
        return f"Budget for the {thing}: {rnd.randrange(2, 90) * 100} EUR, {who} approved it."
    day = TODAY + timedelta(days=rnd.randrange(1, 60))
    return f"{who} and {rnd.choice(PEOPLE)} meet about the {thing} in {where} on {day}."


def reword(line: str, rnd: random.Random) -> str:
    if rnd.random() < 0.5:
        return line
    return f"{line[:-1]}, {rnd.choice(FILLER)}."


def note(lines: int, pool: list[str], rnd: random.Random, day: date) -> str:
    out = [f"# {day}", ""]
    for n in range(lines):
        if n % 40 == 0:
            out += [f"## {9 + n // 40 % 10}:00", ""]
        text = reword(rnd.choice(pool), rnd)
        out.append(f"- {text}" if n % 5 else text)  # mostly list items, some prose lines
    return "\n".join(out) + "\n"


def make_agent(
    root: Path, lines: int, seed: int = 1, overrides: dict[str, Any] | None = None
) -> Workspace:
    rnd = random.Random(seed)
    folder = root / "scale"
    (folder / "memory").mkdir(parents=True)
    (folder / "MEMORY.md").write_text(MEMORY_MD, encoding="utf-8")
    pool = list(dict.fromkeys(fact(rnd) for _ in range(max(lines // 4, 10))))
    yesterday = TODAY - timedelta(days=1)
    (folder / "memory" / f"{yesterday}.md").write_text(
        note(lines, pool, rnd, yesterday), encoding="utf-8"
    )
    for back in range(2, 5):
        day = TODAY - timedelta(days=back)
        (folder / "memory" / f"{day}.md").write_text(note(12, pool[:30], rnd, day), "utf-8")
    clock = datetime(2026, 11, 28, 3, 0).astimezone
    return Workspace.open(root, env={}, overrides=overrides, clock=lambda: clock())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 4000, 16000, 64000])
    parser.add_argument(
        "--max-mentions", type=int, help="dream_max_mentions for this run (0 = no cap)"
    )
    args = parser.parse_args(argv)
    overrides = {} if args.max_mentions is None else {"dream_max_mentions": args.max_mentions}
    print(f"{'lines':>7}  {'weighed/mentions':>16}  {'seconds':>8}  {'lines/s':>8}  result")
    for size in args.sizes:
        tmp = Path(tempfile.mkdtemp(prefix="memclaw-dream-scale-"))
        try:
            ws = make_agent(tmp, size, overrides=overrides)
            started = time.perf_counter()
            result = dream_agent(Scope(ws.agent("scale")), trigger="cron")
            elapsed = time.perf_counter() - started
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        report = result.report
        weighed = sum(len(c.mentions) for c in report.candidates) if report else 0
        mentions = f"{weighed}/{weighed + report.skipped}" if report else "-"
        promoted = len(report.promoted) if report else 0
        print(
            f"{size:>7}  {mentions:>16}  {elapsed:>8.2f}  {size / elapsed:>8.0f}  "
            f"{result.status}, {promoted} promoted ({result.reason})",
            flush=True,
        )


if __name__ == "__main__":
    main()
