"""A third scripted week: issue 27's features crossed with each other and with the older ones.

A date resolved into a fact and then corrected (and not turned back by the dream that reads
the older note), a correction's rewrite in MEMORY.md undone, dreamt again, dream-undone and
told by ``why``; session-scoped facts and the summary cache of a long ``chat -m`` session,
a forget that reaches that cache, a clone made by export and import that keeps session scope,
the forgotten fact and retention; an absolute recall threshold with two owners' personal
memory; and one day on the real embedding model (multilingual-e5-small), where every hit of
hybrid search is explained by ``why`` as ``search`` shows it.
"""

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI

from benchmarks.embed_server import SETTINGS
from changes.weekkit import Travel, ok, run, travelling
from memclaw.facts.ids import fact_id

MONDAY = datetime.fromisoformat("2026-12-07T09:00:00+00:00")
LEASE = "- The Lisbon office lease starts on 2026-12-14."
# The corrected date takes the old date's place in the line the dream keeps.
LEASE_NOW = "- The Lisbon office lease starts on 2026-12-21."
OFFSITE = "Maya's team plans a Porto offsite in February 2027, hosted by her sister Ana."
RIBEIRA = "Maya wants hotel options near Ribeira, only for planning this Porto trip."
GRAFANA = "The team's Grafana migration is due in January 2027, owned by Maya."
MAYA_STANDUP = "Maya's standup moved to 10:15 on Tuesdays"
BEN_STANDUP = "Ben's standup is at 08:45 on Mondays"
TEAM_STANDUP = "- The team standup is at 09:30 on weekdays."
WIFI = "CorrectHorseBatteryStaple"
MAYA_ONE_ON_ONE = "Maya's 1:1 with Jonas moved to Thursday 14:00 this week."
BEN_ONE_ON_ONE = "Ben's 1:1 with Jonas is on Friday at 11:00."
HAND_FIXED = "- User moved to Lisbon on 2026-12-03."
MOVED = "- User moved to Lisbon on 2026-12-04."
LEASE_FIX = "Correction: the Lisbon office lease moved to 2026-12-21."


@pytest.fixture
def travel(monkeypatch: pytest.MonkeyPatch) -> Travel:
    return travelling(monkeypatch, MONDAY)


def facts(root: Path | None = None, *more: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(
        ok("facts", "list", "pal", "--json", *more, root=root)
    )["facts"]
    return found


def lines(root: Path, rel: str) -> list[str]:
    path = root / "pal" / rel
    return path.read_text().splitlines() if path.exists() else []


def transcript(path: Path, *turns: tuple[str, str, str]) -> str:
    path.write_text(
        "\n".join(
            json.dumps({"role": role, "content": text, "timestamp": when})
            for role, text, when in turns
        )
    )
    return str(path)


def test_a_third_week(
    travel: Travel, fake_openai: FakeOpenAI, isolated_env: Path, tmp_path: Path, e5_server: str
) -> None:
    root = isolated_env
    model = ("--set", f"base_url={fake_openai.base_url}", "--set", "api_key=test")
    # --- day 1: a date resolved into a fact, a preference by hand --------------------------
    ok("init", "pal")
    ok("remember", "pal", "Maya prefers terse answers with no trailing summaries")
    monday = transcript(
        tmp_path / "monday.jsonl",
        ("user", "I moved to Lisbon yesterday.", "2026-12-07T08:30:00+00:00"),
        ("assistant", "Welcome to Lisbon!", "2026-12-07T08:31:00+00:00"),
    )
    ok("extract", "pal", "-t", monday, "--force")
    assert "- User moved to Lisbon on 2026-12-06." in lines(root, "PROFILE.md")
    assert "User moved to Lisbon on 2026-12-06." in {f["statement"] for f in facts()}
    before = sorted(p.read_bytes() for p in (root / "pal").rglob("*.md") if p.is_file())
    code, _, stderr = run("remember", "pal", f"The wifi password is {WIFI}")
    assert code == 1 and "secret" in stderr
    assert sorted(p.read_bytes() for p in (root / "pal").rglob("*.md") if p.is_file()) == before
    # --- day 2: the date was wrong; a model notes the office lease; the lease moves ---------
    travel.next_day()
    fix = "Correction: I moved to Lisbon on 2026-12-04, not 2026-12-06."
    tuesday = transcript(
        tmp_path / "tuesday.jsonl",
        ("user", fix, "2026-12-08T08:30:00+00:00"),
        ("assistant", "Noted.", "2026-12-08T08:31:00+00:00"),
    )
    ok("extract", "pal", "-t", tuesday, "--force")
    profile = lines(root, "PROFILE.md")
    assert [x for x in profile if "Lisbon" in x] == [MOVED]
    in_force = [f["statement"] for f in facts() if not f["superseded"]]
    assert [s for s in in_force if "Lisbon" in s] == [MOVED[2:]]  # the 12-06 one is replaced
    heading = "## Active projects\n"
    edit = {"filename": "MEMORY.md", "old_text": heading, "new_text": f"{heading}{LEASE}\n"}
    fake_openai.queue_tool_calls([("memory_files_edit", edit, "c1")])
    fake_openai.queue_text("Noted the lease.")
    ok(*model, "chat", "pal", "-m", "The Lisbon office lease starts on the 14th.", "--no-capture")
    assert LEASE in lines(root, "MEMORY.md")
    note = root / "pal" / "memory" / "2026-12-08.md"
    note.write_text(note.read_text() + f"- {LEASE_FIX}\n")

    # --- day 3: the dream rewrites the lease, keeps the move; why, undo, why, dream again ----
    travel.next_day()
    assert "1 updated" in ok("dream", "pal")
    assert [x for x in lines(root, "PROFILE.md") if "Lisbon" in x] == [MOVED]
    assert [x for x in lines(root, "MEMORY.md") if "lease" in x] == [LEASE_NOW]
    in_force = {f["statement"]: f for f in facts() if not f["superseded"]}
    assert MOVED[2:] in in_force
    assert not [f for f in in_force.values() if ":" in f["category"]]  # "## 08:31" is no category
    chain = json.loads(ok("why", "pal", "MEMORY.md:4", "--json"))["chain"]
    assert [s["kind"] for s in chain] == ["dream", "dream"]
    assert not [s for s in chain if "undone" in s["text"]]
    replaced = json.loads(ok("why", "pal", fact_id(LEASE), "--json"))
    assert replaced["places"] == [] and "superseded" in {s["kind"] for s in replaced["chain"]}
    ok("undo", "pal")
    assert [x for x in lines(root, "MEMORY.md") if "lease" in x] == [LEASE]
    back = json.loads(ok("why", "pal", "MEMORY.md:4", "--json"))
    assert back["fact"] == fact_id(LEASE) and back["chain"][-1]["kind"] == "undo"
    assert "superseded" not in {s["kind"] for s in back["chain"]}  # undo took the belief back
    ok("dream", "pal")
    ok("dream", "undo", "pal")
    ok("dream", "pal")
    assert [x for x in lines(root, "MEMORY.md") if "lease" in x] == [LEASE_NOW]
    chain = json.loads(ok("why", "pal", "MEMORY.md:4", "--json"))["chain"]
    dreams = [s for s in chain if s["kind"] == "dream"]
    assert len(dreams) == 6 and len([s for s in dreams if "undone" in s["text"]]) == 4, chain
    told = json.loads(ok("timeline", "pal", "--json"))  # one second, told newest first
    kinds = [e["kind"] for e in told if e["kind"] in ("dream", "dream-undo", "undo")]
    assert kinds == ["dream", "dream-undo", "dream", "undo", "dream"], kinds
    assert [x for x in lines(root, "PROFILE.md") if "Lisbon" in x] == [MOVED]

    # --- day 4: a trip planned in one session; retention set; a long session summarised --------
    travel.next_day()
    (root / "memclaw.yaml").write_text(
        "retention:\n  project:\n    ttl_days: 2\n  identity:\n    immutable: true\n"
        "context_window_tokens: 2500\nmin_recent_messages: 2\npreserve_recent_pairs: 1\n"
    )
    trip = ("--session", "porto-trip")
    long_turn = " We are planning the Porto trip with the whole team." * 40
    sister = "My sister Ana lives in Porto and will host the dinner."
    for n, turn in enumerate([sister, "The hotel must be near Ribeira.", "Book it for February."]):
        if n == 2:  # the third call outgrows the window: the first turn is summarised
            fake_openai.queue_text("The person said their sister Ana lives in Porto.")
        fake_openai.queue_text(f"Answer {n}." + " Porto sounds lovely in winter." * 30)
        ok(*model, "chat", "pal", "-m", turn + long_turn, *trip, "--no-capture")
    summaries = root / "pal" / ".memclaw" / "summaries" / "_team" / "porto-trip.json"
    assert "sister Ana" in summaries.read_text()
    fake_openai.queue_json(
        {
            "should_update": True,
            "reason": "a lasting plan and a wish for this chat",
            "daily_entry": "",
            "facts": [
                {"text": OFFSITE, "category": "project", "scope": "long-term"},
                {"text": RIBEIRA, "category": "preference", "scope": "session"},
                {"text": GRAFANA, "category": "project", "scope": "long-term"},
            ],
        }
    )
    ok(*model, "extract", "pal", *trip, "--force")
    assert f"- {OFFSITE}" in lines(root, "MEMORY.md")
    assert RIBEIRA in lines(root, "entries/session-porto-trip.md")
    assert RIBEIRA not in lines(root, "MEMORY.md") + lines(root, "PROFILE.md")

    def found(query: str, *more: str, at: Path = root) -> list[str]:
        out = ok("search", query, "--agent", "pal", "--json", *more, root=at)
        return [json.loads(hit)["text"] for hit in out.splitlines()]

    assert found("Ribeira", "--scope", "session") == [RIBEIRA]
    kept = next(f for f in facts() if f["statement"] == RIBEIRA)
    assert kept["authors"] == ["model"] and kept["events"][0]["session"] == "porto-trip", kept
    assert found("Ribeira", "--scope", "long-term") == []
    for session, seen in (("other", False), ("porto-trip", True)):
        if session == "porto-trip":  # the history grew: its summary grows by a turn
            fake_openai.queue_text("The person said their sister Ana lives in Porto. Ribeira.")
        fake_openai.queue_text("Sure.")
        ok(*model, "chat", "pal", "-m", "Any hotel near Ribeira?", "--session", session,
           "--no-capture")  # fmt: skip
        assert (RIBEIRA in json.dumps(fake_openai.chat_requests()[-1].body)) is seen, session

    # --- day 5: forget the sister everywhere; a clone made by export and import -------------
    travel.next_day()
    ok("forget", "pal", "sister Ana", "--yes")
    assert not summaries.exists()  # the cache said it too
    files = [p for p in (root / "pal").rglob("*") if p.is_file()]
    assert not [p for p in files if b"sister Ana" in p.read_bytes()]
    fake_openai.queue_text("The person wants a hotel near Ribeira.")  # summarised again
    fake_openai.queue_text("Still planning.")
    ok(*model, "chat", "pal", "-m", "Where were we?", *trip, "--no-capture")
    assert "sister Ana" not in json.dumps(fake_openai.chat_requests()[-1].body)
    backup = tmp_path / "pal.zip"
    ok("export", "pal", "-o", str(backup))
    clone = tmp_path / "clone"
    clone.mkdir()
    (clone / "memclaw.yaml").write_text((root / "memclaw.yaml").read_text())
    ok("import", "pal", str(backup), root=clone)
    assert found("Ribeira", "--scope", "session", at=clone) == [RIBEIRA]
    assert found("Ribeira", "--scope", "long-term", at=clone) == []
    assert facts(clone) == facts()
    code, _, _ = run("remember", "pal", OFFSITE, root=clone)
    assert code != 0 and not [f for f in facts(clone) if "sister Ana" in f["statement"]]
    before = len(fake_openai.chat_requests())
    for n in range(2):  # the clone has no summary cache: it summarises once, then reuses it
        fake_openai.queue_text("The person wants a hotel near Ribeira.")
        fake_openai.queue_text(f"Clone answer {n}.")
        ok(*model, "chat", "pal", "-m", "Where were we?", *trip, "--no-capture", root=clone)
    sent = [r.body for r in fake_openai.chat_requests()[before:]]
    summarised = [b for b in sent if b["messages"][0]["content"].startswith("You compress")]
    assert len(sent) == 3 and len(summarised) == 1, [b["messages"][0]["content"][:30] for b in sent]
    assert "sister Ana" not in json.dumps(sent)

    # --- day 6: two owners' notes; recall keeps to what a message is about, and to its owner --
    travel.next_day()
    ok("config", "set", "recall_threshold", "0.4")
    assert ok("config", "get", "recall_threshold").strip().startswith("0.4")
    ok("remember", "pal", MAYA_STANDUP, "--owner", "user:maya")
    ok("remember", "pal", BEN_STANDUP, "--owner", "user:ben")
    agents = root / "pal" / "AGENTS.md"
    agents.write_text(agents.read_text() + f"\n{TEAM_STANDUP}\n")
    for owner, line in (("user%3Amaya", MAYA_ONE_ON_ONE), ("user%3Aben", BEN_ONE_ON_ONE)):
        notes = root / "pal" / "owners" / owner / "memory"  # not injected: only recall finds it
        notes.mkdir(parents=True, exist_ok=True)
        (notes / "2026-12-12.md").write_text(f"# 2026-12-12\n\n## 09:00\n- {line}\n")
    as_maya = (*model, "chat", "pal", "--owner", "user:maya", "--no-capture", "-m")
    fake_openai.queue_text("Maybe a bacalhau.")
    ok(*as_maya, "What should I cook for dinner this weekday?")
    asked = json.dumps(fake_openai.chat_requests()[-1].body)
    assert "Recalled memories" not in asked and MAYA_STANDUP in asked and BEN_STANDUP not in asked
    fake_openai.queue_text("Thursday at 14:00.")
    ok(*as_maya, "When is the 1:1 with Jonas this week?")
    asked = json.dumps(fake_openai.chat_requests()[-1].body)
    assert "Recalled memories" in asked and MAYA_ONE_ON_ONE in asked, asked
    assert "Ben" not in asked  # another owner's memory, never
    assert found("standup", "--owner", "user:maya") == [MAYA_STANDUP, TEAM_STANDUP]
    assert found("standup", "--owner", "user:ben")[0] == BEN_STANDUP
    assert found("Jonas", "--owner", "user:maya") == [f"- {MAYA_ONE_ON_ONE}"]

    # --- day 7: retention in the original and the clone alike; the real embedding model -----
    travel.next_day()
    for where in (root, clone):
        ok("dream", "pal", root=where)
    for where in (root, clone):  # expired: the model's Grafana line; the rest stays
        assert [x for x in lines(where, "MEMORY.md") if x.startswith("- ")] == [LEASE_NOW]
        assert [x for x in lines(where, "PROFILE.md") if "Lisbon" in x] == [MOVED]
    assert facts(clone) == facts()
    profile = root / "pal" / "PROFILE.md"  # the person fixes the date once more, by hand
    profile.write_text(profile.read_text().replace(MOVED, HAND_FIXED))
    ok("dream", "pal")
    assert [x for x in lines(root, "PROFILE.md") if "Lisbon" in x] == [HAND_FIXED]

    # the real embedding model: hybrid search, and why agrees with every hit search shows
    settings = (root / "memclaw.yaml").read_text()
    extra = {**SETTINGS, "embedding_base_url": e5_server}
    (root / "memclaw.yaml").write_text(
        settings + "".join(f"{k}: {json.dumps(v)}\n" for k, v in extra.items())
    )
    for query in ("Lisbon office lease", "when does the office rental begin"):
        out = ok("search", query, "--agent", "pal", "--json").splitlines()
        hits = [json.loads(h) for h in out]
        assert hits[0]["text"] == LEASE_NOW, (query, hits)  # keyword's hit or the paraphrase's
        for hit in hits:
            code, told, _ = run("why", "pal", f"{hit['file']}:{hit['line']}", "--json")
            if not hit["fact"]:  # a heading or an entry's bookkeeping: no fact, why says so;
                # a block of several lines (a paragraph) is explained by its first line
                assert (code == 0) == (hit["end_line"] > hit["line"]), (hit, told)
                continue
            said = json.loads(told)
            assert said["fact"] == hit["fact"], (hit, said)
            assert {"file": hit["file"], "line": hit["line"]} in [
                {"file": p["file"], "line": p["line"]} for p in said["places"]
            ], (hit, said)


def test_a_paraphrase_finds_the_fact_not_headings_with_the_real_model(
    isolated_env: Path, e5_server: str
) -> None:
    ok("init", "pal")
    ok("remember", "pal", "Maya prefers terse answers with no trailing summaries")
    profile = isolated_env / "pal" / "PROFILE.md"
    profile.write_text(profile.read_text().replace("## Identity\n", f"## Identity\n\n{MOVED}\n"))
    extra = {**SETTINGS, "embedding_base_url": e5_server}
    (isolated_env / "memclaw.yaml").write_text(
        "".join(f"{k}: {json.dumps(v)}\n" for k, v in extra.items())
    )
    out = ok("search", "Which city did I relocate to?", "--agent", "pal", "--json")
    hits = [json.loads(h) for h in out.splitlines()]
    assert hits and hits[0]["text"] == MOVED, [h["text"] for h in hits]
    # Headings and an entry's bookkeeping lines come, if at all, after every line or
    # paragraph that says something (semantic.says_little).
    says = [bool(h["fact"]) or h["end_line"] > h["line"] for h in hits]
    assert says == sorted(says, reverse=True), [h["text"] for h in hits]
