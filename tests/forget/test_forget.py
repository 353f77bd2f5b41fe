"""memclaw forget: every place a scope keeps a fact loses it, and nothing else changes."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from forget.forgetkit import WORD, planted, snapshot_of, traces
from memclaw.entries.memories import Action, remember
from memclaw.erasure import NothingMatchesError, apply_forget, plan_forget
from memclaw.errors import LockBusyError, UsageError
from memclaw.facts.ids import fact_id
from memclaw.index import search
from memclaw.index.storage.packs import visible_blocks
from memclaw.index.vectors import keys as stored_keys
from memclaw.prompt.assemble import assemble_prompt
from memclaw.workspace import ledger
from memclaw.workspace.atomic import file_lock
from memclaw.workspace.scope import Scope


def _forget(scope: Scope, target: str) -> None:
    plan = apply_forget(plan_forget(scope, target))
    assert plan.left == []


def test_plan_shows_every_place_and_writes_nothing(tmp_path: Path) -> None:
    agent = planted(tmp_path)
    before = snapshot_of(agent.path)
    plan = plan_forget(Scope(agent), "pregnant")
    assert snapshot_of(agent.path) == before
    shown = {(str(p.store), p.shown) for p in plan.places}
    assert {
        ("memory", "PROFILE.md"),
        ("memory", "MEMORY.md"),
        ("memory", "entries/project.md"),
        ("memory", "memory/2026-03-28.md"),
        ("memory", "memory/2026-03-29.md"),
        ("memory", "DREAMS.md"),
        ("sessions", "sessions/s-1.jsonl"),
        ("logs", ".memclaw/ledger.sqlite"),
        ("chat-history", ".memclaw/ledger.sqlite"),
    } <= shown
    assert any(store == "history" for store, _ in shown)
    assert plan.index.blocks >= 5
    # PROFILE.md and the entry state it in the same words: one fact, two copies.
    same = fact_id("Maya is pregnant, due in May")
    (fact,) = [f for f in plan.facts if f.id == same]
    assert fact.where == ["PROFILE.md:4", "entries/project.md:4"]
    assert len(plan.facts) == 4


def test_after_forget_grep_search_and_prompt_find_nothing(tmp_path: Path) -> None:
    agent = planted(tmp_path)
    assert len(traces(agent.path)) >= 9
    _forget(Scope(agent), "pregnant")

    assert traces(agent.path) == []  # grep -ri over the folder, .memclaw/ and the index included
    assert search(agent.workspace, "pregnant", agents=["max"], log=False) == []
    assert b"pregnan" not in assemble_prompt(Scope(agent)).text.lower().encode()
    # What was around it stays: other lines, other entries, the rest of each transcript.
    assert "Maya lives in Gothenburg." in agent.read("PROFILE.md")
    assert "- Knut is a Finnish Lapphund." in agent.read("MEMORY.md")
    assert "uv" in agent.read("entries/preference.md")
    assert "- Standup moved to 09:30." in agent.read("memory/2026-03-28.md")
    assert "- **Patterns:** [forgotten] Running came up" in agent.read("DREAMS.md")
    lines = (agent.path / "sessions" / "s-1.jsonl").read_text().splitlines()
    messages = [json.loads(line) for line in lines]
    assert len(messages) == 5 and messages[-1]["content"].startswith("Thanks.")
    arguments = messages[1]["tool_calls"][0]["function"]["arguments"]
    assert json.loads(arguments) == {"text": "[forgotten]"}
    # Only hashed fingerprints remember what was forgotten.
    assert remember(Scope(agent), "Maya is pregnant").action is Action.SKIPPED


def test_stored_vectors_of_the_fact_are_deleted(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    agent = planted(
        tmp_path,
        base_url=fake_openai.base_url,
        api_key="test",
        embedding_model="text-embedding-3-small",
    )
    index = agent.meta_dir / "index.sqlite"

    def vectors() -> tuple[int, set[str]]:
        with sqlite3.connect(index) as conn:
            count = conn.execute("SELECT count(*) FROM vectors").fetchone()[0]
            cached = stored_keys(conn)
            texts = {b.text for _, b in visible_blocks(conn) if b.hash in cached}
        return int(count), texts

    count, texts = vectors()
    assert count and any("pregnant" in t for t in texts)
    plan = plan_forget(Scope(agent), "pregnant")
    assert plan.index.vectors >= 1
    apply_forget(plan)
    after, texts = vectors()
    assert 0 < after < count and not any("pregnant" in t.lower() for t in texts)
    assert traces(agent.path) == []


def test_a_fact_id_finds_every_copy_and_restatement_of_that_fact_only(tmp_path: Path) -> None:
    agent = planted(tmp_path)
    scope = Scope(agent)
    wanted = fact_id("Maya is pregnant, due in May", scope.prefix)
    plan = plan_forget(scope, wanted)
    # Its two copies, and MEMORY.md saying the same in other words; not the other notes.
    assert plan.facts[0].id == wanted
    assert plan.facts[0].where == ["PROFILE.md:4", "entries/project.md:4"]
    assert [f.where for f in plan.facts[1:]] == [["MEMORY.md:5"]]
    apply_forget(plan)
    assert "pregnant" not in agent.read("PROFILE.md") + agent.read("MEMORY.md")
    assert "pregnant" not in agent.read("entries/project.md")
    assert '"Maya is pregnant, due in May"' not in (agent.path / "sessions/s-1.jsonl").read_text()
    assert "- Maya told me she is pregnant." in agent.read("memory/2026-03-28.md")


def test_words_matching_nothing_fail_clearly_and_write_nothing(tmp_path: Path) -> None:
    agent = planted(tmp_path)
    before = snapshot_of(agent.path)
    with pytest.raises(NothingMatchesError, match="nothing in max matches 'twins'"):
        plan_forget(Scope(agent), "twins")
    with pytest.raises(NothingMatchesError, match="no fact f00000000"):
        plan_forget(Scope(agent), "f00000000")
    with pytest.raises(UsageError, match="no words"):
        plan_forget(Scope(agent), "the and of")
    assert snapshot_of(agent.path) == before


def test_words_matching_several_facts_forget_exactly_those(tmp_path: Path) -> None:
    agent = planted(tmp_path)
    agent.write(
        "MEMORY.md", agent.read("MEMORY.md") + "\n## Oslo trip\n\n- Maya's sister lives in Oslo.\n"
    )
    agent.append_daily("- Maya flies to Oslo on Friday.\n- Oslo trip booked.")
    plan = plan_forget(Scope(agent), "oslo")
    assert sorted(f.statement for f in plan.facts) == [
        "Maya flies to Oslo on Friday.",
        "Maya's sister lives in Oslo.",
        "Oslo trip booked.",
    ]
    apply_forget(plan)
    assert traces(agent.path, b"oslo") == []
    assert "\n## [forgotten]\n" in agent.read("MEMORY.md")  # the heading, not the section
    assert len(traces(agent.path)) >= 9  # the pregnancy was not asked about: untouched


def test_only_the_asked_owner_is_touched(tmp_path: Path) -> None:
    agent = planted(tmp_path)
    alice, bob = Scope.resolve(agent, "alice"), Scope.resolve(agent, "bob")
    alice.write("MEMORY.md", "# Alice\n\n- Alice is pregnant with twins.\n")
    bob.write("MEMORY.md", "# Bob\n\n- Bob's wife is pregnant.\n")
    team_before = {k: v for k, v in snapshot_of(agent.path).items() if "owners/" not in k}
    bob_before = bob.read("MEMORY.md")

    plan = plan_forget(alice, "pregnant")
    assert [p.shown for p in plan.places] == [alice.rel("MEMORY.md")]
    apply_forget(plan)

    assert "pregnant" not in alice.read("MEMORY.md")
    assert bob.read("MEMORY.md") == bob_before
    now = snapshot_of(agent.path)
    for name, data in team_before.items():
        if not name.startswith(".memclaw/ledger.sqlite"):  # the forget's own records go in
            assert now[name] == data, name
    # The team's forget, in turn, never reaches into an owner's folder.
    _forget(Scope(agent), "pregnant")
    assert bob.read("MEMORY.md") == bob_before


def test_an_open_chat_on_a_transcript_refuses_before_writing(tmp_path: Path) -> None:
    agent = planted(tmp_path)
    plan = plan_forget(Scope(agent), "pregnant")
    with file_lock(agent.meta_dir / "sessions" / "s-1.lock"):
        before = {k: v for k, v in snapshot_of(agent.path).items() if "ledger.sqlite" not in k}
        with pytest.raises(LockBusyError, match="session s-1 is open"):
            apply_forget(plan)
        after = {k: v for k, v in snapshot_of(agent.path).items() if "ledger.sqlite" not in k}
    assert after == before
    # The fingerprint was recorded first: nothing relearns it meanwhile.
    assert remember(Scope(agent), "Maya is pregnant").action is Action.SKIPPED
    _forget(Scope(agent), "pregnant")
    assert traces(agent.path) == []


KILL = """
import os, sys
from pathlib import Path
from memclaw.erasure import places, run
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope

real, done = places.atomic_write, []

def dying(path, text):
    real(path, text)
    done.append(path)
    if len(done) == {after}:
        os._exit(9)  # killed mid-forget, between two files

places.atomic_write = dying
agent = Workspace.open(Path(sys.argv[1]), env={{}}).agent("max")
run.apply_forget(run.plan_forget(Scope(agent), "pregnant"))
"""


@pytest.mark.parametrize("after", [1, 4])
def test_a_kill_mid_forget_leaves_every_file_whole(tmp_path: Path, after: int) -> None:
    agent = planted(tmp_path / "ws")
    before = snapshot_of(agent.path)
    script = textwrap.dedent(KILL.format(after=after))
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "ws")], check=False)
    assert done.returncode == 9
    now = snapshot_of(agent.path)
    assert not [name for name in now if name.endswith(".tmp")]
    changed = [n for n in now if n in before and now[n] != before[n] and "ledger.sqlite" not in n]
    assert len(changed) == after
    for name in changed:
        assert WORD not in now[name].lower(), name  # wholly rewritten, never half
    for name in now:
        if name.endswith(".jsonl"):
            for line in now[name].decode().splitlines():
                json.loads(line)
    assert remember(Scope(agent), "Maya is pregnant").action is Action.SKIPPED
    _forget(Scope(agent), "pregnant")  # running it again finishes the job
    assert traces(agent.path) == []


def test_other_records_under_memclaw_are_cleaned_by_owner(tmp_path: Path) -> None:
    agent = planted(tmp_path)
    inbox = agent.meta_dir / "review" / "queue.jsonl"  # any JSON-lines store under .memclaw/
    inbox.parent.mkdir(parents=True, exist_ok=True)
    mine = {"owner": None, "old": "Maya is pregnant", "new": "Maya is not pregnant"}
    theirs = {"owner": "user:bob", "old": "Bob's wife is pregnant", "new": "twins"}
    inbox.write_text(json.dumps(mine) + "\n" + json.dumps(theirs) + "\n", encoding="utf-8")
    _forget(Scope(agent), "pregnant")
    first, second = (json.loads(line) for line in inbox.read_text().splitlines())
    assert first == {"owner": None, "old": "[forgotten]", "new": "[forgotten]"}
    assert second == theirs  # another owner's record is never touched


def test_a_contradiction_waiting_in_the_inbox_is_forgotten_too(tmp_path: Path) -> None:
    agent = planted(tmp_path)
    team = Scope(agent)
    remember(team, "Maya lives in Gothenburg")
    # A model's statement against the person's: it waits in the inbox.
    told = remember(team, "Maya lives in Uppsala", source="tool", by_person=False)
    assert told.action is Action.HELD
    assert traces(agent.path, b"uppsala") == [".memclaw/ledger.sqlite"]
    _forget(team, "Uppsala")
    assert traces(agent.path, b"uppsala") == []


def test_forget_by_id_takes_the_persons_own_words_from_the_exchange_that_stored_it(
    tmp_path: Path,
) -> None:
    agent = planted(tmp_path)
    scope = Scope(agent)
    typed = agent.meta_dir / "chat-history" / "_team"
    # The input history as an older chat kept it: the turn as typed, then a /remember.
    typed.parent.mkdir(exist_ok=True)
    typed.write_text(
        "\n# 2026-03-28 10:00:00\n+Big news: I'm pregnant! The baby is due in May. Also, hi.\n"
        "\n# 2026-03-28 10:01:00\n+/remember Maya is pregnant, due in May\n"
        "\n# 2026-03-28 10:02:00\n+Thanks. Can you check my Swedish homework later?\n",
        encoding="utf-8",
    )
    apply_forget(plan_forget(scope, fact_id("Maya is pregnant, due in May", scope.prefix)))
    left = "\n".join(ledger.load(agent.meta_dir, "chat-history/_team")[0])
    assert "pregnant" not in left and "+Thanks. Can you check my Swedish homework" in left
    messages = [json.loads(line) for line in (agent.path / "sessions/s-1.jsonl").open()]
    said = [str(m.get("content", "")) for m in messages]
    # The exchange loses the fact's sentences, and keeps the rest of what was said.
    assert said[0] == "[forgotten] [forgotten] Also, hi."
    assert said[3] == "Congratulations! [forgotten]"
    assert said[4] == "Thanks. Can you check my Swedish homework later?"


def test_what_soul_md_learned_of_the_fact_is_forgotten_with_it(tmp_path: Path) -> None:
    agent = planted(tmp_path)
    team = Scope(agent)
    meta = agent.meta_dir
    # SOUL.md's learning keeps its last diff beside the files; the card shows it.
    learned = {"confirmed": 3, "diff": "+- Maya is pregnant: fewer late meetings\n"}
    (meta / "soul.team.json").write_text(json.dumps(learned), encoding="utf-8")
    theirs = {"confirmed": 1, "diff": "+- Bob's wife is pregnant\n"}
    (meta / "soul.user%3Abob.json").write_text(json.dumps(theirs), encoding="utf-8")
    (meta / "morning.team.json").write_text('{"day": "2026-03-30"}\n', encoding="utf-8")
    _forget(team, "pregnant")  # the files of an older memclaw, moved into the ledger first
    assert ledger.load(meta, "soul.team")[0] is None
    assert ledger.load(meta, "soul.user%3Abob")[0] == theirs  # another owner's stays
    assert ledger.load(meta, "morning.team")[0] == {"day": "2026-03-30"}  # it never said it
    assert b"fewer late meetings" not in ledger.ledger_path(meta).read_bytes()


def test_an_old_version_in_another_encoding_loses_the_fact_too(tmp_path: Path) -> None:
    from memclaw.workspace import Workspace
    from memclaw.workspace.safeguards import history

    ws = Workspace.open(tmp_path / "ws", env={})
    agent, _ = ws.init_agent("max")
    # An agent from before the ledger: a version in Latin-1, and a killed write's leftover.
    kept = agent.meta_dir / "history" / "MEMORY.md"
    kept.mkdir(parents=True)
    (kept / "20260101T000000000000.md").write_bytes(b"# Memory\n- Bob lives in Z\xfcrich\n")
    (kept / ".20260101T000000000000.md.ab12cd34.tmp").write_text("- Bob, half written\n")
    plan = plan_forget(Scope(agent), "Bob")
    assert [p.store for p in plan.places] == ["history"]
    apply_forget(plan)
    assert not (agent.meta_dir / "history").exists()  # moved in, the leftover swept away
    [name] = history.versions(agent, "MEMORY.md")
    assert history.read(agent, name) == "# Memory\n"
    assert traces(agent.path, b"bob") == []


def test_a_reader_holding_the_ledger_keeps_the_forget_from_saying_it_is_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = planted(tmp_path)
    monkeypatch.setattr(ledger, "_BUSY_MS", 200)  # not half a minute of waiting here
    reader = sqlite3.connect(ledger.ledger_path(agent.meta_dir), isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM records").fetchone()  # a snapshot, held
    plan = apply_forget(plan_forget(Scope(agent), "pregnant"))
    assert [p.shown for p in plan.left] == [
        ".memclaw/ledger.sqlite (an old copy a reader held on to)"
    ]
    reader.execute("COMMIT")
    reader.close()
    assert ledger.forget_old_versions(agent.meta_dir)
    assert traces(agent.path) == []
