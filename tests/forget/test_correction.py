"""Forget by id removes the fact's copies only: a correction, another value and a mention stay."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.dream.run import dream_agent
from memclaw.entries.memories import Action, remember
from memclaw.erasure import apply_forget, plan_forget
from memclaw.facts.ids import fact_id
from memclaw.morning.card import latest, review
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope

NOW = datetime.fromisoformat("2026-12-04T08:00:00+01:00")
STALE = "The billing freeze starts 2026-12-18."
FIX = "Correction: the billing freeze starts 2026-12-21, not 2026-12-18."
MENTION = "Remind Dana that the billing freeze starts 2026-12-18 so she ships invoices early."


@pytest.fixture
def scope(isolated_env: Path) -> Scope:
    agent, _ = Workspace.open(isolated_env, clock=lambda: NOW).init_agent("pal")
    here = Scope(agent)
    here.append_daily(f"- {STALE}", day=date(2026, 12, 2))
    here.append_daily(f"- {FIX}", day=date(2026, 12, 3))
    return here


def _notes(scope: Scope) -> str:
    return "".join(p.read_text() for p in sorted((scope.agent.path / "memory").glob("*.md")))


def test_the_morning_card_forgets_the_stale_fact_and_keeps_the_correction(scope: Scope) -> None:
    dream_agent(scope, model=None)
    card = latest(scope)
    assert card is not None
    listed = card.items("contradictions")
    assert [i["text"] for i in listed] == [STALE]  # the correction is never offered
    review(scope, card, forget=[listed[0]["fact"]])
    notes = _notes(scope)
    assert STALE not in notes and FIX in notes


def test_a_corrected_value_is_not_blocked_by_the_forgotten_one(scope: Scope) -> None:
    apply_forget(plan_forget(scope, fact_id(STALE, "")))
    again = remember(scope, "The billing freeze starts 2026-12-18")
    assert again.action is Action.SKIPPED and again.blocked
    assert fact_id(STALE, "") in again.reason and "--force" in again.reason
    assert "2026-12-04" in again.reason  # when it was forgotten
    fixed = remember(scope, "The billing freeze starts 2026-12-21")
    assert fixed.action is Action.ADDED and not fixed.blocked


def test_a_mention_is_listed_apart_and_kept_unless_chosen(scope: Scope) -> None:
    scope.append_daily(f"- {MENTION}", day=date(2026, 12, 2))
    plan = plan_forget(scope, fact_id(STALE, ""))
    assert [f.statement for f in plan.facts] == [STALE]
    assert [m.statement for m in plan.mentions] == [MENTION]
    apply_forget(plan)
    assert MENTION in _notes(scope) and FIX in _notes(scope)

    scope.append_daily(f"- {STALE}", day=date(2026, 12, 4))
    chosen = plan_forget(scope, fact_id(STALE, ""), also=True)
    assert chosen.mentions == [] and len(chosen.facts) == 2
    apply_forget(chosen)
    notes = _notes(scope)
    assert MENTION not in notes and STALE not in notes and FIX in notes


def test_remember_of_a_forgotten_fact_says_which_forget_and_exits_1(
    scope: Scope, isolated_env: Path
) -> None:
    runner = CliRunner()
    root = ["--root", str(isolated_env)]
    done = runner.invoke(app, [*root, "forget", "pal", fact_id(STALE, ""), "--yes"])
    assert done.exit_code == 0, done.stderr
    result = runner.invoke(app, [*root, "remember", "pal", "The billing freeze starts 2026-12-18"])
    assert result.exit_code == 1
    assert fact_id(STALE, "") in result.stderr and "remember --force" in result.stderr
    fixed = runner.invoke(app, [*root, "remember", "pal", "The billing freeze starts 2026-12-21"])
    assert fixed.exit_code == 0 and "added" in fixed.stderr


def test_forget_cli_lists_mentions_and_also_removes_them(scope: Scope, isolated_env: Path) -> None:
    scope.append_daily(f"- {MENTION}", day=date(2026, 12, 2))
    runner = CliRunner()
    root = ["--root", str(isolated_env)]
    shown = runner.invoke(app, [*root, "forget", "pal", fact_id(STALE, ""), "--dry-run"])
    assert "also mentions" in shown.stderr and MENTION in shown.stderr
    done = runner.invoke(app, [*root, "forget", "pal", fact_id(STALE, ""), "--yes", "--also"])
    assert done.exit_code == 0
    assert MENTION not in _notes(scope) and FIX in _notes(scope)
