"""The memory browser, driven through Textual's own test harness on a copy of the demo agent."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Label, ListView, Static, TabbedContent

from browse.snapshot import assert_snapshot, screen_text
from memclaw.browse.app import FileItem, HitItem, MemoryBrowser
from memclaw.browse.panes import Confirm, FactsTable, InboxTable
from memclaw.browse.source import Source
from memclaw.clock import Clock, system_clock
from memclaw.entries.memories import Action, remember
from memclaw.facts import inbox
from memclaw.workspace import Scope, Workspace

SIZE = (110, 32)
NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
# MEMORY.md's line; the daily notes word the appointment otherwise (facts of their own).
VET = "Knut's vet appointment (annual vaccination)"
PINNED = (NOW - timedelta(days=2)).timestamp()  # the demo's files, as if written two days ago


def _app(root: Path, clock: Clock | None = None) -> MemoryBrowser:
    agent = Workspace.open(root, clock=clock or system_clock).agent("demo")
    return MemoryBrowser(Source(Scope(agent)))


def drive(app: MemoryBrowser, steps: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await steps(pilot)

    asyncio.run(run())


def _view(app: MemoryBrowser) -> str:
    return str(app.query_one("#file-view", Static).render())


def _status(app: MemoryBrowser) -> str:
    return str(app.query_one("#status", Static).render())


def test_files_are_listed_and_the_first_is_shown(demo_agent: Path) -> None:
    app = _app(demo_agent.parent)

    async def steps(pilot: Pilot[None]) -> None:
        names = [item.file_name for item in app.query(FileItem)]
        assert names[:4] == ["AGENTS.md", "SOUL.md", "PROFILE.md", "MEMORY.md"]
        assert "# AGENTS.md" in _view(app) or "AGENTS" in _view(app)
        app.query_one("#file-list", ListView).focus()
        await pilot.press("down", "down", "down")
        await pilot.pause()
        assert app.current_file == "MEMORY.md"
        assert "lotsen PostGIS migration" in _view(app)

    drive(app, steps)


def test_search_as_you_type_and_open_a_hit(demo_agent: Path) -> None:
    app = _app(demo_agent.parent)

    async def steps(pilot: Pilot[None]) -> None:
        await pilot.press("slash")
        assert app.query_one(TabbedContent).active == "search"
        assert app.focused is app.query_one("#query", Input)
        await pilot.press(*"cutover")
        await app.workers.wait_for_complete()
        await pilot.pause()
        hits = list(app.query(HitItem))
        assert hits, "typing a query shows hits"
        assert any("cutover" in str(h.query_one("Label").render()).lower() for h in hits)
        app.query_one("#hits", ListView).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.query_one(TabbedContent).active == "files"
        assert app.current_file == hits[0].file_name

    drive(app, steps)


def test_edit_goes_through_the_editor_and_the_workspace(
    demo_agent: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    editor = tmp_path / "editor.py"
    editor.write_text(
        "import sys\n"
        "path = sys.argv[-1]\n"
        "open(path, 'a', encoding='utf-8').write('- Knut likes the snow.\\n')\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
    monkeypatch.delenv("VISUAL", raising=False)
    app = _app(demo_agent.parent)

    async def steps(pilot: Pilot[None]) -> None:
        app.show_file("PROFILE.md")
        await pilot.press("e")
        await pilot.pause()
        assert "saved PROFILE.md" in str(app.query_one("#status", Static).render())
        assert "Knut likes the snow" in _view(app)

    drive(app, steps)
    assert (
        (demo_agent / "PROFILE.md").read_text(encoding="utf-8").endswith("- Knut likes the snow.\n")
    )


def _fact_row(app: MemoryBrowser, words: str) -> int:
    table = app.query_one(FactsTable)
    for index, row in enumerate(table.ordered_rows):
        if words in str(table.get_row(row.key)[4]):
            return index
    raise AssertionError(f"no fact row says {words!r}")


def test_facts_show_trust_and_confirm_reject_and_forget_from_the_keyboard(demo_agent: Path) -> None:
    app = _app(demo_agent.parent)

    async def steps(pilot: Pilot[None]) -> None:
        await pilot.press("2")
        table = app.query_one(FactsTable)
        assert app.focused is table and table.row_count > 50
        trusts = [float(str(table.get_row(r.key)[0]).split()[-1]) for r in table.ordered_rows]
        assert trusts == sorted(trusts), "lowest trust first"

        table.move_cursor(row=_fact_row(app, VET))
        fact_id = app.current_fact()
        before = float(str(table.get_row(fact_id)[0]).split()[-1])
        await pilot.press("c")
        assert "confirmed" in _status(app)
        after = float(str(table.get_row(fact_id)[0]).split()[-1])
        assert after > before

        table.move_cursor(row=_fact_row(app, VET))
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        await pilot.pause()
        assert "kept" in _status(app)
        await pilot.press("f")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert "forgot" in _status(app)
        assert not any(VET in str(table.get_row(r.key)[4])
                       for r in table.ordered_rows)  # fmt: skip

    drive(app, steps)
    assert "vet appointment" not in (demo_agent / "MEMORY.md").read_text(encoding="utf-8")


def test_a_contradiction_is_resolved_from_the_inbox(demo_agent: Path) -> None:
    scope = Scope(Workspace.open(demo_agent.parent).agent("demo"))
    remember(scope, "Knut is a Finnish Lapphund")
    said = remember(scope, "Knut is not a Finnish Lapphund", source="tool", by_person=False)
    assert said.action is Action.HELD  # a model's word against the person's: the inbox
    app = _app(demo_agent.parent)

    async def steps(pilot: Pilot[None]) -> None:
        assert "Inbox (1)" in str(app.query_one(TabbedContent).get_tab("inbox").label)
        await pilot.press("3")
        table = app.query_one(InboxTable)
        assert table.row_count == 1
        await pilot.press("c")  # confirm means nothing here: the key is off in this tab
        assert "confirmed" not in _status(app)
        await pilot.press("n")
        assert "kept new" in _status(app)
        assert table.row_count == 0

    drive(app, steps)
    assert inbox.open_items(scope.agent, "") == []


def test_the_timeline_lists_memory_events_with_their_diff(demo_agent: Path) -> None:
    scope = Scope(Workspace.open(demo_agent.parent).agent("demo"))
    remember(scope, "Knut sleeps on the blue rug")
    app = _app(demo_agent.parent)

    async def steps(pilot: Pilot[None]) -> None:
        await pilot.press("4")
        assert app.query_one(TabbedContent).active == "timeline"
        first = app.query_one("#events", ListView).children[0]
        assert "remember" in str(first.query_one(Label).render())
        assert "+ Knut sleeps on the blue rug" in str(app.query_one("#diff", Static).render())

    drive(app, steps)


@pytest.mark.parametrize("tab", ["files", "facts", "inbox", "timeline", "search"])
def test_each_tab_looks_as_its_snapshot(demo_agent: Path, tab: str) -> None:
    # The demo's files are fixed; its age column depends on file times, so pin them.
    for path in demo_agent.rglob("*.md"):
        os.utime(path, (PINNED, PINNED))
    app = _app(demo_agent.parent, lambda: NOW)

    async def steps(pilot: Pilot[None]) -> None:
        await pilot.press(str(["files", "facts", "inbox", "timeline", "search"].index(tab) + 1))
        if tab == "search":
            await pilot.press(*"cutover")
            await app.workers.wait_for_complete()
        await pilot.pause()
        # The tab bar's underline slides to the new tab: a loaded machine can catch it midway.
        await pilot.wait_for_scheduled_animations()
        assert_snapshot(tab, app.export_screenshot(), keep_svg=tab == "facts")

    drive(app, steps)


def test_facts_show_where_they_live_daily_notes_included(demo_agent: Path) -> None:
    app = _app(demo_agent.parent)

    async def steps(pilot: Pilot[None]) -> None:
        await pilot.press("2")
        table = app.query_one(FactsTable)
        places = [str(table.get_row(r.key)[3]) for r in table.ordered_rows]
        assert all(re.fullmatch(r"\S+\.md:\d+( \+\d+)?", p) for p in places), places
        # A fact stated only in a daily note is a fact too, as `memclaw facts` lists it.
        assert any(p.startswith("memory/") and "+" not in p for p in places)
        screen = screen_text(app.export_screenshot())
        # On screen, not off the right edge after a long statement.
        assert re.search(r"  memory/2026-11-\d\d\.md:\d+ ", screen), screen

    drive(app, steps)


def test_after_a_reject_the_cursor_stays_on_the_fact(demo_agent: Path) -> None:
    app = _app(demo_agent.parent)

    async def steps(pilot: Pilot[None]) -> None:
        await pilot.press("2")
        table = app.query_one(FactsTable)
        row = _fact_row(app, VET)
        table.move_cursor(row=row)
        fact_id = app.current_fact()
        await pilot.press("x")
        await pilot.pause()
        assert "rejected" in _status(app)
        assert app.current_fact() == fact_id  # the same fact, not whatever took its row
        assert table.cursor_row < row  # its trust fell: it sorted up, and the cursor with it

    drive(app, steps)
