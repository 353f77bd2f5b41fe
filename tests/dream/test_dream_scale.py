"""Dreams stay near-linear and bounded: same answers as the pairwise scan, a cap, a time limit."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dream.dreamkit import Clock, day, note, tree, workspace
from memclaw.cli.app import app
from memclaw.dream.budget import Deadline, StoppedEarly, most_salient
from memclaw.dream.candidates import Candidate, _known_by, _says_it, recurring_terms
from memclaw.dream.clusters import (
    NEAR_COPY,
    SAME_FACT,
    Mention,
    cluster,
    corrects,
    extract_mentions,
)
from memclaw.dream.lookup import Corrections, MemoryLines
from memclaw.dream.memory_md import known
from memclaw.dream.run import DreamStatus, dream_agent, lock_path
from memclaw.dream.salience import Salience
from memclaw.index.recall_log import RecallIndex
from memclaw.text.likeness import Fingerprint
from memclaw.workspace.atomic import file_lock
from memclaw.workspace.logs import read_log
from memclaw.workspace.scope import Scope

PEOPLE = ["Maya", "Jonas", "Priya Nair", "Kenji", "Tomasz Wójcik"]
PLACES = ["Osaka", "Majorna", "Fly.io", "Heroku", "Lund"]
THINGS = [
    "atlas billing service",
    "cutover window",
    "staging database",
    "kayak permit",
    "vet visit",
]
VERBS = ["moved", "booked", "reviewed", "approved", "postponed"]


def _line(rnd: random.Random) -> str:
    who, where, what = rnd.choice(PEOPLE), rnd.choice(PLACES), rnd.choice(THINGS)
    shape = rnd.randrange(6)
    if shape == 0:
        time = f"{rnd.randrange(7, 12):02d}:{rnd.choice(('00', '30'))}"
        return f"{who} {rnd.choice(VERBS)} the {what} to {time}."
    if shape == 1:
        return f"The {what} in {where} needs version {rnd.randrange(14, 17)} first."
    if shape == 2:
        return f"Actually the {what} moved to {where}, {who} said."
    if shape == 3:
        return f"{who} owns the {what} since 2026-11-{rnd.randrange(10, 28)}."
    if shape == 4:
        return f"{who} and {rnd.choice(PEOPLE)} talked about the {what} in {where}."
    return f"The {what} of {who} is no longer in {where}."


def _mentions(seed: int, days: int = 6, per_day: int = 40) -> list[Mention]:
    rnd = random.Random(seed)
    pool = [_line(rnd) for _ in range(60)]
    found: list[Mention] = []
    for offset in range(days, 0, -1):
        rel = f"memory/{day(offset)}.md"
        lines = [f"- {rnd.choice(pool)}" for _ in range(per_day)]
        found += extract_mentions("\n".join(lines), rel, day(offset))
    return found


def _salience(mentions: Sequence[Mention], memory: Sequence[str] = ()) -> Salience:
    return Salience.of(
        [(m.text, m.fp.tokens, m.day) for m in mentions]
        + [(line, Fingerprint.of(line).tokens, None) for line in memory]
    )


def pairwise_cluster(mentions: Sequence[Mention], salience: Salience) -> list[list[Mention]]:
    """The clustering as it was: every mention against every member of every cluster."""
    clusters: list[list[Mention]] = []
    for mention in sorted(mentions, key=lambda m: m.order):
        home, best = None, SAME_FACT
        for group in clusters:
            likeness = [salience.similarity(mention.fp.tokens, m.fp.tokens) for m in group]
            if any(
                other.file == mention.file and score < NEAR_COPY
                for other, score in zip(group, likeness, strict=True)
            ):
                continue
            average = sum(likeness) / len(likeness)
            if average >= best and not any(corrects(mention, other) for other in group):
                home, best = group, average
        if home is None:
            clusters.append([mention])
        else:
            home.append(mention)
    return clusters


def _keys(groups: list[list[Mention]]) -> list[list[tuple[str, int, str]]]:
    return [[(m.file, m.line, m.text) for m in group] for group in groups]


@pytest.mark.parametrize("seed", range(6))
def test_clusters_are_the_ones_the_pairwise_scan_finds(seed: int) -> None:
    mentions = _mentions(seed)
    salience = _salience(mentions)
    expected = pairwise_cluster(mentions, salience)
    assert any(len(group) > 3 for group in expected)  # the input does cluster
    assert _keys(cluster(mentions, salience)) == _keys(expected)


def test_a_line_pasted_a_hundred_times_clusters_as_before() -> None:
    """Big clusters sum their likeness per distinct wording instead of per member."""
    text = "\n".join(["- Maya moved the cutover window to 09:30 in Osaka."] * 150)
    mentions = extract_mentions(text, f"memory/{day(1)}.md", day(1))
    mentions += _mentions(1, days=2, per_day=30)
    salience = _salience(mentions)
    assert _keys(cluster(mentions, salience)) == _keys(pairwise_cluster(mentions, salience))


@pytest.mark.parametrize("seed", range(4))
def test_corrections_and_known_lines_match_the_full_scan(seed: int) -> None:
    mentions = _mentions(seed)
    rnd = random.Random(seed + 100)
    memory = [_line(rnd) for _ in range(30)]
    salience = _salience(mentions, memory)
    groups = cluster(mentions, salience)
    everyone = [m for m in mentions if m.correction or m.fp.values]
    index = Corrections(mentions)
    lines = [(f"MEMORY.md: {e}", Fingerprint.of(e)) for e in memory]
    found_correction = found_known = 0
    for group in groups:
        newest = max(group, key=lambda m: m.order)
        expected = next((m for m in everyone if m not in group and corrects(m, newest)), None)
        assert index.first_correcting(newest, group) == expected
        found_correction += expected is not None
        cand = Candidate(group)
        full_scan = _known_by_full_scan(cand.fp, group, lines, salience, cand.text)
        assert _known_by(cand, MemoryLines(lines), salience) == full_scan
        found_known += full_scan is not None
    assert found_correction and found_known  # both paths were exercised


def _known_by_full_scan(
    fp: Fingerprint,
    group: list[Mention],
    lines: list[tuple[str, Fingerprint]],
    salience: Salience,
    text: str,
) -> str | None:
    core = recurring_terms(group)
    best, best_share = None, 0.7
    for source, other in lines:
        if known(fp, [other]):
            if _says_it(source, text):
                return source
            continue
        share = salience.coverage(fp.tokens, other.tokens)
        if len(core) >= 2:
            share = max(share, salience.coverage(core, other.tokens))
        if share >= best_share and _says_it(source, text):
            best, best_share = source, share
    return best


def test_the_cap_keeps_recalled_and_recurring_mentions_and_few_copies() -> None:
    today, earlier = day(1), day(3)
    text = "\n".join(
        ["- Lars painted the garden fence."]
        + ["- Jonas checked the ferry ticket queue again."] * 50
        + ["- Maya booked the kayak permit for Majorna.", "- Kenji fixed the Osaka runner."]
    )
    big = extract_mentions(text, "memory/big.md", today)
    old = extract_mentions("- Maya booked the kayak permit for Majorna.", "memory/old.md", earlier)
    mentions = old + big
    salience = _salience(mentions)
    recall = RecallIndex({("memory/big.md", 53): ["osaka runner"]})
    assert most_salient(mentions, salience, recall, 0) == mentions
    assert most_salient(mentions, salience, recall, len(mentions)) == mentions
    kept = most_salient(mentions, salience, recall, 10)
    assert kept == [m for m in mentions if m in kept]  # in note order
    texts = [m.text for m in kept]
    assert texts[-1] == "Kenji fixed the Osaka runner."  # recalled by a search
    assert texts.count("Maya booked the kayak permit for Majorna.") == 2  # recurs on two days
    # The oldest, weakest line still beats the sixth copy of a newer one.
    assert "Lars painted the garden fence." in texts
    assert texts.count("Jonas checked the ferry ticket queue again.") == 6


def test_a_deadline_stops_once_its_time_is_up() -> None:
    now = [100.0]
    deadline = Deadline(5, clock=lambda: now[0])
    deadline.check()
    now[0] = 104.9
    deadline.check()
    now[0] = 105.0
    with pytest.raises(StoppedEarly, match="longer than 5 s"):
        deadline.check()
    unlimited = Deadline(0, clock=lambda: now[0])
    now[0] = 1e9
    unlimited.check()


RECURRING = "Knut's vet appointment is at the Majorna clinic on Fridays."


def _long_note(root: Path, lines: int, **settings: object):  # type: ignore[no-untyped-def]
    agent, _ = workspace(root, Clock(), **settings).init_agent("long")
    people, things = ["Maya", "Jonas", "Priya", "Kenji"], ["ferry", "vet bill", "permit", "runner"]
    body = [
        f"- {people[i % 4]} checked the {things[i % 3]} at {i % 24:02d}:{i * 7 % 60:02d}"
        for i in range(lines)
    ]
    body.insert(lines // 2, f"- {RECURRING}")
    note(agent, day(3), RECURRING)
    note(agent, day(2), RECURRING)
    agent.write(f"memory/{day(1)}.md", f"# {day(1)}\n\n" + "\n".join(body) + "\n")
    return agent


def test_a_note_of_200k_lines_dreams_within_the_cap(tmp_path: Path) -> None:
    agent = _long_note(tmp_path / "ws", 200_000)
    result = dream_agent(Scope(agent))
    assert result.status is DreamStatus.UPDATED
    report = result.report
    assert report is not None
    weighed = sum(len(c.mentions) for c in report.candidates)
    assert weighed == agent.settings.dream_max_mentions
    assert report.skipped == 200_003 - weighed
    assert [c.text for c in report.promoted] == [RECURRING]
    assert RECURRING in agent.read("MEMORY.md")
    with file_lock(lock_path(Scope(agent)), wait=0):  # released
        pass


def _files(folder: Path) -> dict[str, str]:
    """Every file but the logs and the lock files (which a run may create, empty)."""
    return {
        k: v
        for k, v in tree(folder).items()
        if not k.startswith(".memclaw/ledger.sqlite") and not k.endswith(".lock")
    }


def test_a_dream_past_its_time_limit_stops_and_writes_nothing(tmp_path: Path) -> None:
    agent = _long_note(tmp_path / "ws", 3000, dream_time_limit_seconds=1e-9)
    files = agent.path
    before = _files(files)
    result = dream_agent(Scope(agent))
    assert result.status is DreamStatus.STOPPED
    assert "dream_time_limit_seconds" in result.reason and "wrote nothing" in result.reason
    assert _files(files) == before
    assert [r["status"] for r in read_log(agent, "dream")] == ["stopped"]
    with file_lock(lock_path(Scope(agent)), wait=0):  # released
        pass
    dry = dream_agent(Scope(agent), dry_run=True)
    assert dry.status is DreamStatus.STOPPED
    assert len(list(read_log(agent, "dream"))) == 1  # a dry run logs nothing


def test_the_cli_reports_a_stopped_dream(isolated_env: Path) -> None:
    _long_note(isolated_env, 500)
    result = CliRunner().invoke(
        app,
        ["--set", "dream_time_limit_seconds=0.000000001", "dream", "long", "--json"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0
    (only,) = json.loads(result.stdout)["results"]
    assert only["status"] == "stopped" and only["reason"].startswith("stopped early")


def test_normal_dreams_are_never_capped(tmp_path: Path) -> None:
    agent, _ = workspace(tmp_path / "ws", Clock()).init_agent("demo")
    for offset in (4, 3, 2):
        note(agent, day(offset), RECURRING, "Rain all day; cycled anyway.")
    result = dream_agent(Scope(agent))
    assert result.report is not None and result.report.skipped == 0
    assert result.report.to_dict()["skipped_mentions"] == 0


def test_a_long_note_is_checked_against_the_deadline_while_it_is_read() -> None:
    calls: list[int] = []

    def check() -> None:
        calls.append(1)
        if len(calls) == 2:
            raise StoppedEarly(1)

    text = "\n".join(f"- Maya checked the ferry ticket number {i}." for i in range(10_000))
    with pytest.raises(StoppedEarly):
        extract_mentions(text, "memory/big.md", day(1), check)
    assert len(calls) == 2
    assert len(extract_mentions(text, "memory/big.md", day(1))) == 10_000
