"""Memory entries: add, restate, supersede, list, get, forget, never relearn."""

from pathlib import Path

import pytest
from extract.extractkit import Clock, make_agent
from ledgerkit import stream_text

from memclaw.entries.forgetting import forget
from memclaw.entries.lookup import get_memory, list_memories, match_memories
from memclaw.entries.memories import Action, remember
from memclaw.errors import SecretDetectedError, UsageError, WorkspaceError
from memclaw.extract.pipeline import extract_conversation
from memclaw.extract.result import Status
from memclaw.facts.inbox import open_items
from memclaw.workspace.entries import parse_entries
from memclaw.workspace.logs import read_log
from memclaw.workspace.safeguards import history
from memclaw.workspace.scope import Scope


def test_remember_adds_a_readable_entry_with_a_stable_id(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    result = remember(Scope(agent), "Maya prefers uv for Python projects")
    assert result.action is Action.ADDED and result.entry is not None
    entry = result.entry
    assert entry.id.startswith("m-") and len(entry.id) == 10
    assert entry.category == "preference"  # guessed
    text = agent.read("entries/preference.md")
    assert f"## {entry.id}\nMaya prefers uv for Python projects\n" in text
    assert "- scope: team" in text and "- created: 2026-03-30" in text
    assert get_memory(Scope(agent), entry.id) == entry
    assert parse_entries(text)[0].id == entry.id


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Never deploy on Fridays", "rule"),
        ("Jonas Ek is Maya's manager", "relationship"),
        ("The team decided to use Grafana", "decision"),
        ("The research agent runs on Claude Sonnet", "configuration"),
        ("The lotsen deadline is 2026-12-12", "project"),
        ("Knut is a Finnish Lapphund", "other"),
    ],
)
def test_category_is_guessed(tmp_path: Path, text: str, category: str) -> None:
    entry = remember(Scope(make_agent(tmp_path)), text).entry
    assert entry is not None and entry.category == category


def test_restatement_updates_instead_of_copying(tmp_path: Path) -> None:
    clock = Clock()
    agent = make_agent(tmp_path, clock)
    first = remember(Scope(agent), "Maya prefers uv for Python projects").entry
    assert remember(Scope(agent), "Maya prefers uv for Python projects").action is Action.UNCHANGED
    clock.advance(days=3)
    again = remember(Scope(agent), "maya prefers uv for python projects, because uv lock is fast")
    assert again.action is Action.UPDATED and first is not None and again.entry is not None
    assert again.entry.id == first.id and again.entry.updated is not None
    assert again.entry.updated.isoformat() == "2026-04-02"
    assert "uv lock is fast" in again.entry.text
    assert len(list_memories(Scope(agent))) == 1


@pytest.mark.parametrize("cue", ["", "Actually, "])
@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Maya prefers uv for Python projects", "Maya prefers Poetry for Python projects"),
        ("User prefers uv", "User prefers Poetry"),
        ("The migration deadline is Dec 12", "The migration deadline is Dec 5"),
    ],
)
def test_a_newer_value_replaces_the_old_one_where_it_lives(
    tmp_path: Path, old: str, new: str, cue: str
) -> None:
    # A person's newer value wins, with or without "actually": the old one is in history.
    agent = make_agent(tmp_path)
    category = "project" if "deadline" in old else "preference"
    first = remember(Scope(agent), old, category=category).entry
    result = remember(Scope(agent), f"{cue}{new}", category=category)
    assert result.action is Action.UPDATED and first is not None
    assert result.previous is not None and result.previous.text == old
    assert result.entry is not None and result.entry.id == first.id  # the same entry, reworded
    assert [e.text for e in list_memories(Scope(agent))] == [new]
    assert open_items(agent) == []
    kept = history.versions(agent, f"entries/{category}.md")
    assert any(old in (history.read(agent, v) or "") for v in kept)
    record = next(r for r in read_log(agent, "memories") if r["action"] == "updated")
    assert record["old_text"] == old


def test_different_facts_with_the_same_verb_coexist(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    remember(Scope(agent), "User prefers terse answers")
    assert remember(Scope(agent), "User prefers dark mode in every editor").action is Action.ADDED
    assert remember(Scope(agent), "User is Chris").action is Action.ADDED
    assert (
        remember(Scope(agent), "User is a platform engineer", category="identity").action
        is Action.ADDED
    )
    assert len(list_memories(Scope(agent))) == 4


def test_secrets_are_refused_and_categories_checked(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    with pytest.raises(SecretDetectedError):
        remember(Scope(agent), "the staging password is hunter22x")
    with pytest.raises(UsageError, match="unknown category"):
        remember(Scope(agent), "x y z", category="mood")
    with pytest.raises(UsageError):
        remember(Scope(agent), "   ")
    for marks in ("-", "...", "– –"):  # punctuation says no fact
        with pytest.raises(UsageError, match="no words"):
            remember(Scope(agent), marks)
    assert list_memories(Scope(agent)) == []


def test_session_and_owner_scopes(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    long_term = remember(Scope.resolve(agent, "maya"), "Maya likes Swedish homework checked").entry
    short = remember(
        Scope.resolve(agent, "maya"), "Wants answers in Swedish today", session_id="s-9"
    ).entry
    assert long_term is not None and short is not None
    assert short.extra == {"scope": "personal", "owner": "user:maya", "session": "s-9"}
    assert Scope.resolve(agent, "maya").read("entries/session-s-9.md")
    assert list_memories(Scope(agent)) == []  # the team sees nothing personal
    assert [e.id for e in list_memories(Scope.resolve(agent, "maya"), kind="session")] == [short.id]
    assert [e.id for e in list_memories(Scope.resolve(agent, "maya"), kind="long-term")] == [
        long_term.id
    ]
    assert [e.id for e in list_memories(Scope.resolve(agent, "maya"), session_id="s-9")] == [
        short.id
    ]
    assert list_memories(Scope.resolve(agent, "maya"), category="preference") == [long_term]
    with pytest.raises(WorkspaceError):
        get_memory(Scope(agent), long_term.id)
    with pytest.raises(UsageError):
        list_memories(Scope(agent), kind="weekly")


def test_forget_by_id_and_by_query(tmp_path: Path) -> None:
    agent = make_agent(tmp_path)
    keep = remember(Scope(agent), "Maya runs the lotsen service").entry
    one = remember(Scope(agent), "Knut the dog has a vet visit on Thursday").entry
    two = remember(Scope(agent), "Maya prefers uv for Python projects").entry
    assert keep and one and two
    assert forget(Scope(agent), id=one.id) == [one]
    assert "Knut" not in agent.read("entries/other.md")
    assert [e.id for e in match_memories(Scope(agent), "uv python")] == [two.id]
    assert forget(Scope(agent), query="uv python") == [two]
    assert [e.id for e in list_memories(Scope(agent))] == [keep.id]
    assert forget(Scope(agent), query="nothing like this at all") == []
    with pytest.raises(UsageError):
        forget(Scope(agent))
    with pytest.raises(WorkspaceError):
        forget(Scope(agent), id="m-00000000")
    # Only a fingerprint is kept, never the forgotten words.
    log = stream_text(agent.meta_dir, "forgotten")
    assert "Knut" not in log and "uv" not in log


def test_forgotten_facts_are_not_learned_again(tmp_path: Path) -> None:
    clock = Clock()
    agent = make_agent(tmp_path, clock)
    chat = [
        {"role": "user", "content": "Quick note before we start."},
        {"role": "assistant", "content": "Sure."},
        {"role": "user", "content": "I prefer Helix over Neovim for quick edits."},
        {"role": "assistant", "content": "Noted."},
    ]
    entry = remember(Scope(agent), "User prefers Helix over Neovim for quick edits").entry
    assert entry is not None
    forget(Scope(agent), id=entry.id)
    skipped = remember(Scope(agent), "User prefers Helix over Neovim for quick edits")
    assert skipped.action is Action.SKIPPED and "forgotten" in skipped.reason
    result = extract_conversation(Scope(agent), chat)
    assert result.status is Status.NOTHING and "forgotten earlier" in result.reason
    assert "Helix" not in agent.read("PROFILE.md")
    # An explicit --force learns it again, and then extraction may too.
    forced = remember(Scope(agent), "User prefers Helix over Neovim for quick edits", force=True)
    assert forced.action is Action.ADDED


def test_index_finds_entries_and_drops_forgotten_ones(tmp_path: Path) -> None:
    from memclaw.index import search

    agent = make_agent(tmp_path)
    entry = remember(Scope(agent), "Maya prefers lowercase SQL keywords").entry
    assert entry is not None
    hits = search(agent.workspace, "lowercase SQL", agents=[agent.id], log=False)
    assert any(hit.file == "entries/preference.md" for hit in hits)
    forget(Scope(agent), id=entry.id)
    hits = search(agent.workspace, "lowercase SQL", agents=[agent.id], log=False)
    assert not any("lowercase" in hit.text for hit in hits)
