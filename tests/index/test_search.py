"""Search: ranking weights, recency, dates, scopes, snippets, grouping, recall log."""

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memclaw.errors import AgentNotFoundError, UsageError
from memclaw.index import Searcher, search, stats, sync_agent
from memclaw.workspace import Workspace, ledger
from memclaw.workspace.logs import read_log
from memclaw.workspace.owners import normalise_owner

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _ws(root: Path, **overrides: Any) -> Workspace:
    return Workspace.open(root, overrides=overrides, clock=lambda: NOW)


def test_every_hit_knows_where_it_came_from(isolated_env: Path) -> None:
    _write(isolated_env, {"a/MEMORY.md": "# Memory\n\n## Pets\n\n- Knut is a Finnish Lapphund\n"})
    (hit,) = search(_ws(isolated_env), "lapphund")
    assert (hit.agent, hit.file, hit.line, hit.end_line) == ("a", "MEMORY.md", 5, 5)
    assert hit.scope == "team" and hit.owner is None and hit.date is None
    assert hit.section == "Memory › Pets"
    assert hit.text == "- Knut is a Finnish Lapphund"
    assert hit.snippet[slice(*hit.highlights[0])] == "Lapphund"
    assert hit.marked() == "- Knut is a Finnish «Lapphund»"
    assert hit.score > 0 and len(hit.hash) == 16


def test_file_weights_order_identical_lines(isolated_env: Path) -> None:
    line = "- the vet appointment is on Thursday\n"
    _write(
        isolated_env,
        {
            "a/MEMORY.md": line,
            "a/memory/2026-11-30.md": line,
            "a/PROFILE.md": line,
            "a/AGENTS.md": line,
            "a/NOTES.md": "- the vet appointment is on Thursday, maybe\n",
        },
    )
    files = [h.file for h in search(_ws(isolated_env), "vet appointment")]
    # The core files rank above the daily ledger for the same match (the seed's promise),
    # and a line is shown once, where it ranks best.
    assert files == ["MEMORY.md", "NOTES.md"]
    flipped = _ws(isolated_env, weight_agents=2.0, weight_memory=0.1)
    assert [h.file for h in search(flipped, "vet appointment")] == ["AGENTS.md", "NOTES.md"]
    daily = _ws(isolated_env, weight_daily=9.0)
    assert search(daily, "vet appointment")[0].file == "memory/2026-11-30.md"


def test_recency_decay_prefers_newer_notes_only_when_enabled(isolated_env: Path) -> None:
    _write(
        isolated_env,
        {
            "a/memory/2025-01-10.md": "- uses Poetry for Python projects\n",
            "a/memory/2026-11-30.md": "- uses uv for Python projects now\n",
        },
    )
    plain = search(_ws(isolated_env), "python projects")
    assert plain[0].file == "memory/2025-01-10.md"  # shorter line, higher BM25
    decayed = search(_ws(isolated_env, recency_half_life_days=30), "python projects")
    assert decayed[0].file == "memory/2026-11-30.md"
    assert decayed[1].score < plain[1].score / 100


def test_since_and_until_keep_dated_blocks_in_range(isolated_env: Path) -> None:
    _write(
        isolated_env,
        {
            "a/memory/2026-11-01.md": "- knee hurts\n",
            "a/memory/2026-11-15.md": "- knee better\n",
            "a/memory/2026-11-30.md": "- knee fine\n",
            "a/MEMORY.md": "- knee: undated note\n- As of 2026-11-20, knee taped\n",
        },
    )
    ws = _ws(isolated_env)
    got = {(h.file, h.date) for h in search(ws, "knee", since="2026-11-15", until="2026-11-20")}
    assert got == {("memory/2026-11-15.md", "2026-11-15"), ("MEMORY.md", "2026-11-20")}
    assert {h.date for h in search(ws, "knee", since="2026-11-30")} == {"2026-11-30"}
    with pytest.raises(UsageError, match="YYYY-MM-DD"):
        search(ws, "knee", since="last week")


def test_scopes_owners_and_global(isolated_env: Path) -> None:
    _write(
        isolated_env,
        {
            "a/MEMORY.md": "- team note about kayaks\n",
            "a/owners/user%3Amaya/MEMORY.md": "- maya's kayak is red\n",
            "a/owners/user%3Ajonas/MEMORY.md": "- jonas sold his kayak\n",
            "_global/facts.md": "- kayaks need a permit in the harbour\n",
        },
    )
    ws = _ws(isolated_env)

    def where(**kw: Any) -> set[str]:
        if kw.get("owner"):
            kw["owner"] = normalise_owner(kw["owner"])
        return {f"{h.agent}/{h.file}" for h in search(ws, "kayak", **kw)}

    assert where() == {"a/MEMORY.md", "_global/facts.md"}
    assert where(owner="user:maya") == {
        "a/MEMORY.md",
        "a/owners/user%3Amaya/MEMORY.md",
        "_global/facts.md",
    }
    assert where(owner="maya", scope="personal") == {"a/owners/user%3Amaya/MEMORY.md"}
    assert where(owner="user:maya", scope="team") == {"a/MEMORY.md"}
    assert where(scope="global") == {"_global/facts.md"}
    personal = search(ws, "kayak", owner=normalise_owner("user:jonas"), scope="personal")
    assert [(h.scope, h.owner) for h in personal] == [("personal", "user:jonas")]
    with pytest.raises(UsageError, match="--owner"):
        search(ws, "kayak", scope="personal")


def test_multi_agent_search_and_agent_selection(isolated_env: Path) -> None:
    _write(
        isolated_env,
        {"a/MEMORY.md": "- the cutover is on Saturday\n", "b/MEMORY.md": "- cutover rehearsal\n"},
    )
    ws = _ws(isolated_env)
    assert {h.agent for h in search(ws, "cutover")} == {"a", "b"}
    assert {h.agent for h in search(ws, "cutover", agents=["b"])} == {"b"}
    with pytest.raises(AgentNotFoundError):
        search(ws, "cutover", agents=["zz"])


def test_limit_and_grouping_to_candidate_files(isolated_env: Path) -> None:
    days = range(1, 21)
    files = {f"a/memory/2026-11-{d:02d}.md": f"- ran {d} km\n- ran again {d}\n" for d in days}
    _write(isolated_env, files)
    assert len(search(_ws(isolated_env), "ran", limit=7)) == 7
    grouped = search(_ws(isolated_env, search_max_files=3), "ran", limit=40)
    assert len({h.file for h in grouped}) == 3 and len(grouped) == 6
    with pytest.raises(UsageError):
        search(_ws(isolated_env), "ran", limit=0)


def test_snippets_are_about_80_characters_around_the_best_match(isolated_env: Path) -> None:
    long = " ".join(f"word{i}" for i in range(60))
    _write(isolated_env, {"a/MEMORY.md": f"- {long} needle {long}\n"})
    (hit,) = search(_ws(isolated_env), "needle")
    assert hit.snippet.startswith("…") and hit.snippet.endswith("…")
    assert len(hit.snippet) <= 82
    (start, end) = hit.highlights[0]
    assert hit.snippet[start:end] == "needle"


def test_multilingual_queries(isolated_env: Path) -> None:
    _write(
        isolated_env,
        {
            "a/memory/2026-11-20.md": (
                "- Maya löpte Göteborgsvarvet förra året\n"
                "- 東京都庁で会議があった\n"
                "- 서울에서 친구를 만났다\n"
                "- Die Straße war gesperrt\n"
            )
        },
    )
    ws = _ws(isolated_env)
    assert search(ws, "goteborgsvarvet")[0].marked() == "- Maya löpte «Göteborgsvarvet» förra året"
    top = search(ws, "東京の会議")[0]
    assert top.line == 2 and top.marked() == "- «東京»都庁で«会議»があった"
    assert search(ws, "서울")[0].line == 3
    assert search(ws, "strasse")[0].line == 4
    assert search(ws, "庁")[0].line == 2  # a single CJK character matches by prefix


def test_a_swedish_search_finds_an_inflected_form(isolated_env: Path) -> None:
    _write(
        isolated_env,
        {
            "a/memory/2026-11-20.md": (
                "- Ingrid flyttade till Uppsala och trivs där\n"
                "- Maya köpte kanelbullar till hela kontoret\n"
                "- Die Häuser in Leipzig sind alt\n"
                "- Ingrid moved the sofa upstairs\n"
            )
        },
    )
    ws = _ws(isolated_env)
    hits = search(ws, "vart har Ingrid flyttat")
    assert hits[0].marked() == "- «Ingrid» «flyttade» till Uppsala och trivs där"
    assert [h.line for h in hits] == [1, 4]  # both words first, then Ingrid alone
    assert search(ws, "flyttar")[0].line == 1  # one word, no language evidence
    assert search(ws, "kanelbulle")[0].line == 2
    assert search(ws, "Haus Leipzig")[0].line == 3


def test_empty_or_symbol_only_queries_return_nothing(isolated_env: Path) -> None:
    _write(isolated_env, {"a/MEMORY.md": "- anything\n"})
    assert search(_ws(isolated_env), '" * ( ) :') == []


def test_recall_log_records_hits_per_agent(isolated_env: Path) -> None:
    _write(
        isolated_env,
        {
            "a/MEMORY.md": "- Knut's vet is on Thursday\n",
            "_global/facts.md": "- vet clinic opens at 08:00\n",
        },
    )
    ws = _ws(isolated_env)
    search(ws, "vet", owner=normalise_owner("user:maya"))
    search(ws, "nothing matches this")
    search(ws, "vet", log=False)
    (record,) = list(read_log(ws.agent("a"), "recall"))
    assert record["query"] == "vet" and record["owner"] == "user:maya"
    assert record["time"] == NOW.isoformat(timespec="seconds")
    hit = record["hits"][0]
    assert (hit["file"], hit["line"], len(hit["hash"])) == ("MEMORY.md", 1, 16)
    assert ledger.streams(isolated_env / "_global/.memclaw") == {"recall": 1}
    summary = stats(ws.agent("a"))
    assert (summary.searches, summary.recalled) == (1, 1)
    assert summary.top_files == [{"file": "MEMORY.md", "hits": 1}]


def test_stats_counts_without_changing_the_index(isolated_env: Path) -> None:
    _write(isolated_env, {"a/MEMORY.md": "# M\n\n- one\n", "a/owners/user%3Ax/MEMORY.md": "- x\n"})
    ws = _ws(isolated_env)
    agent = ws.agent("a")
    assert stats(agent).pending == 2 and not stats(agent).exists
    _write(
        isolated_env,
        {"a/memory/2026-11-30.md": "- a\n- b\n", "a/NOTES.md": "- As of 2026-11-02 c\n"},
    )
    sync_agent(agent)
    summary = stats(agent)
    assert (summary.files, summary.blocks, summary.personal_files, summary.owners) == (4, 6, 1, 1)
    assert summary.dated_blocks == 3  # the daily note's two, and the "As of" line
    assert summary.pending == 0 and summary.index_bytes > 0 and summary.last_sync
    (agent.path / "NEW.md").write_text("- new\n", encoding="utf-8")
    assert stats(agent).pending == 1


def test_search_sees_edits_immediately(isolated_env: Path) -> None:
    _write(isolated_env, {"a/MEMORY.md": "- old fact\n"})
    ws = _ws(isolated_env)
    assert search(ws, "old")
    _write(isolated_env, {"a/MEMORY.md": "- new fact\n"})
    assert not search(ws, "old") and search(ws, "new")[0].text == "- new fact"
    assert search(ws, "fact", sync=False)  # without the freshness check the index still answers


def test_a_long_lived_searcher_reads_blocks_as_they_are_now(isolated_env: Path) -> None:
    # A file edited in place keeps its block ids, so only its stored pack changes: the
    # packs a searcher keeps unpacked must not outlive an edit, whoever indexed it.
    _write(isolated_env, {"a/MEMORY.md": "- the kayak is red\n- the tent is green\n"})
    ws = _ws(isolated_env)
    with Searcher(ws) as searcher:
        assert searcher.search("kayak", log=False)[0].text == "- the kayak is red"
        _write(isolated_env, {"a/MEMORY.md": "- the kayak is blue\n- the tent is green\n"})
        assert searcher.search("kayak", log=False)[0].text == "- the kayak is blue"
        _write(isolated_env, {"a/MEMORY.md": "- the kayak is white\n- the tent is green\n"})
        sync_agent(ws.agent("a"))  # another connection indexes the edit
        (hit,) = searcher.search("kayak", log=False, sync=False)
        assert hit.text == "- the kayak is white"


def test_an_entries_files_bookkeeping_is_never_a_hit(isolated_env: Path) -> None:
    entries = (
        "# Memory entries: project\n\n## m-36dcdf4b\nThe Atlas project uses Postgres 16\n\n"
        "- category: project\n- created: 2026-11-30\n- updated: 2026-11-30\n- scope: team\n"
    )
    _write(isolated_env, {"a/MEMORY.md": "# Memory\n", "a/entries/project.md": entries})
    hits = search(_ws(isolated_env), "project")
    assert [(h.file, h.line) for h in hits] == [("entries/project.md", 4)]
    assert search(_ws(isolated_env), "2026-11-30") == []
    # An entry's id still finds the entry: its line, not the heading.
    assert [h.line for h in search(_ws(isolated_env), "m-36dcdf4b")] == [4]
