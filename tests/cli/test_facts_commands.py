"""memclaw facts, facts confirm|reject, inbox and inbox resolve from the command line."""

import json
from pathlib import Path

from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.entries.memories import Action, remember
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _facts(*extra: str) -> list[dict[str, object]]:
    code, stdout, _ = run("facts", "bot", "--json", *extra)
    assert code == 0
    facts: list[dict[str, object]] = json.loads(stdout)["facts"]
    return facts


def test_facts_lists_trust_age_source_and_places(isolated_env: Path) -> None:
    run("init", "bot")
    run("remember", "bot", "Maya prefers uv for Python projects")
    memory = isolated_env / "bot" / "MEMORY.md"
    memory.write_text(memory.read_text() + "\n- The staging box runs Debian\n")
    facts = {f["statement"]: f for f in _facts()}
    uv = facts["Maya prefers uv for Python projects"]
    assert uv["trust"] == 0.7 and uv["source"] == "remember" and uv["age_days"] == 0
    assert uv["where"] == ["entries/preference.md:4"]
    assert facts["The staging box runs Debian"]["source"] == "hand edit"
    code, stdout, _ = run("facts", "bot")
    assert code == 0 and "Maya prefers uv" in stdout and "0.70" in stdout
    assert run("facts", "list", "bot", "--json")[1] == run("facts", "bot", "--json")[1]


def test_confirm_and_reject_move_trust_and_below_sorts_lowest_first(isolated_env: Path) -> None:
    run("init", "bot")
    run("remember", "bot", "Maya prefers uv for Python projects")
    run("remember", "bot", "The staging box runs Debian")
    code, stdout, _ = run("facts", "confirm", "bot", "prefers uv", "--json")
    assert code == 0 and json.loads(stdout)["trust"] == 0.85
    fact_id = next(f["id"] for f in _facts() if "Debian" in str(f["statement"]))
    code, _, stderr = run("facts", "reject", "bot", str(fact_id))
    assert code == 0 and "rejected" in stderr and "0.17" in stderr
    low = _facts("--below", "0.3")
    assert [f["id"] for f in low] == [fact_id]
    assert [f["trust"] for f in _facts("--lowest")] == [0.175, 0.85]


def test_feedback_on_what_is_not_there_is_one_line_and_changes_nothing(isolated_env: Path) -> None:
    run("init", "bot")
    run("remember", "bot", "Maya prefers uv for Python projects")
    code, _, stderr = run("facts", "confirm", "bot", "f00000000")
    assert code == 1 and "no fact f00000000" in stderr and len(stderr.strip().splitlines()) == 1
    code, _, stderr = run("facts", "reject", "bot", "kangaroo habitat")
    assert code == 1 and "no fact matches" in stderr
    assert run("facts", "bot", "--below", "2")[0] == 2
    assert all("confirmed" not in str(f["events"]) for f in _facts())


def test_inbox_lists_and_resolves_the_oslo_bergen_case(isolated_env: Path) -> None:
    run("init", "bot")
    run("remember", "bot", "Maya lives in Oslo")
    # A model's word against the person's (a chat tool, MCP): it waits in the inbox.
    told = remember(
        Scope(Workspace.open(isolated_env).agent("bot")),
        "Maya lives in Bergen",
        source="tool",
        by_person=False,
    )
    assert told.action is Action.HELD and "memclaw inbox bot" in told.reason
    code, stdout, _ = run("inbox", "bot", "--json")
    (item,) = json.loads(stdout)["contradictions"]
    assert (item["old"], item["new"], item["old_trust"]) == (
        "Maya lives in Oslo",
        "Maya lives in Bergen",
        0.7,
    )
    code, _, stderr = run("inbox", "bot")
    assert code == 0 and "in force: Maya lives in Oslo" in stderr and item["id"] in stderr
    code, stdout, _ = run("inbox", "resolve", "bot", item["id"], "--keep", "new", "--json")
    assert code == 0 and json.loads(stdout)["changed"] == ["entries/identity.md"]
    assert "Bergen" in (isolated_env / "bot" / "entries" / "identity.md").read_text()
    assert json.loads(run("inbox", "bot", "--json")[1])["contradictions"] == []
    code, _, stderr = run("inbox", "resolve", "bot", item["id"], "--keep", "old")
    assert code == 1 and "already resolved" in stderr
    code, _, stderr = run("inbox", "resolve", "bot", item["id"], "--keep", "sideways")
    assert code == 2 and "--keep" in stderr
    _, _, stderr = run("inbox", "bot")
    assert "no contradictions waiting" in stderr


def test_a_newer_diet_replaces_the_old_one(isolated_env: Path) -> None:
    run("init", "bot")
    run("remember", "bot", "Maya is vegetarian")
    code, stdout, _ = run("remember", "bot", "Maya eats meat", "--json")
    data = json.loads(stdout)
    assert code == 0 and data["action"] == "updated" and data["inbox"] == []
    _, stdout, _ = run("memories", "list", "bot", "--json")
    assert [m["text"] for m in json.loads(stdout)["memories"]] == ["Maya eats meat"]


def test_undo_right_after_facts_confirm_takes_back_the_confirm_and_keeps_the_fact(
    isolated_env: Path,
) -> None:
    run("init", "bot")
    run("remember", "bot", "Rafael's bee colonies are called Ada and Grace")
    (fact,) = _facts()
    code, _, said = run("facts", "confirm", "bot", str(fact["id"]))
    assert code == 0 and "trust now 0.85" in said
    code, _, said = run("undo", "bot")
    assert code == 0 and "undid the confirm" in said, said
    (kept,) = _facts()
    assert kept["statement"] == fact["statement"] and kept["trust"] == fact["trust"]
    timeline = run("timeline", "bot")[1]
    assert "reverted change" in timeline and "confirmed " not in timeline
