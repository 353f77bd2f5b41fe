"""The memory browser's Textual application: tabs over one agent's memory, driven by keys.

Tabs: Files (the memory files and their text), Facts (trust bars, lowest
first), Inbox (open contradictions), Timeline (every memory event, newest
first, with its diff), Search (hits as you type). Every action
goes through ``Source``; the app lays out, routes keys and says what happened
in the status line.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, ClassVar

from rich.markup import escape
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import (
    Footer,
    Header,
    Input,
    Label,
    ListItem,
    ListView,
    Static,
    TabbedContent,
    TabPane,
)

from memclaw.browse.editor import edit_in_editor
from memclaw.browse.panes import Confirm, FactsTable, InboxTable, colour_diff, selected_key
from memclaw.browse.source import Source
from memclaw.errors import MemclawError
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.changes.timeline import Event
    from memclaw.index.rank import Hit


class FileItem(ListItem):
    def __init__(self, name: str, detail: str) -> None:
        super().__init__(Label(f"{escape(name)}  [dim]{detail}[/dim]"))
        self.file_name = name


class HitItem(ListItem):
    def __init__(self, file: str, line: int, text: str) -> None:
        super().__init__(Label(f"[b]{escape(file)}:{line}[/b]  {escape(text)}"))
        self.file_name = file
        self.line = line


class MemoryBrowser(App[None]):
    """``memclaw browse AGENT``."""

    TITLE = "memclaw"
    CSS = """
    #file-list { width: 38; border-right: solid $panel; }
    #file-view { padding: 0 1; }
    #query { margin: 0 0 1 0; }
    #status { height: 1; padding: 0 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit"),
        Binding("1,f1", "tab('files')", "Files", show=False),
        Binding("2,f2", "tab('facts')", "Facts", show=False),
        Binding("3,f3", "tab('inbox')", "Inbox", show=False),
        Binding("4,f4", "tab('timeline')", "Timeline", show=False),
        Binding("5,f5,slash", "tab('search')", "Search"),
        Binding("e", "edit", "Edit"),
        Binding("c", "feedback(True)", "Confirm"),
        Binding("x", "feedback(False)", "Reject"),
        Binding("f", "forget", "Forget"),
        Binding("o", "resolve('old')", "Keep old"),
        Binding("n", "resolve('new')", "Keep new"),
        Binding("b", "resolve('both')", "Keep both"),
        Binding("r", "refresh", "Refresh"),
    ]
    # Which tab each action works in: the footer shows a key only where it does something.
    ACTION_TABS: ClassVar[dict[str, set[str]]] = {
        "edit": {"files", "facts"},
        "feedback": {"facts"},
        "forget": {"facts"},
        "resolve": {"inbox"},
    }

    def __init__(self, source: Source) -> None:
        super().__init__()
        self.source = source
        self.sub_title = source.title.removeprefix("memclaw · ")
        self.current_file: str | None = None
        self.events: list[Event] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with TabbedContent(initial="files"):
            with TabPane("Files", id="files"), Horizontal():
                yield ListView(id="file-list")
                with VerticalScroll():
                    yield Static(id="file-view", markup=False)
            with TabPane("Facts", id="facts"):
                yield FactsTable(id="facts-table", cursor_type="row", zebra_stripes=True)
            with TabPane("Inbox", id="inbox"):
                yield InboxTable(id="inbox-table", cursor_type="row")
            with TabPane("Timeline", id="timeline"), Horizontal():
                yield ListView(id="events")
                with VerticalScroll():
                    yield Static(id="diff")
            with TabPane("Search", id="search"):
                yield Input(placeholder="search memory as you type…", id="query")
                yield ListView(id="hits")
        yield Static(id="status")
        yield Footer()

    async def on_mount(self) -> None:
        await self.load_files()
        self.load_facts()
        self.load_inbox()
        await self.load_timeline()

    # --- files ---------------------------------------------------------------------------

    async def load_files(self) -> None:
        listing = self.query_one("#file-list", ListView)
        await listing.clear()
        await listing.extend(
            FileItem(row.name, f"{row.size:,} B{' · injected' if row.injected else ''}")
            for row in self.source.files()
        )
        names = [item.file_name for item in listing.query(FileItem)]
        if self.current_file not in names:
            self.current_file = names[0] if names else None
        if self.current_file is not None:
            listing.index = names.index(self.current_file)
            self.show_file(self.current_file)

    def show_file(self, name: str) -> None:
        self.current_file = name
        try:
            text = self.source.read(name)
        except MemclawError as exc:
            text = str(exc)
        self.query_one("#file-view", Static).update(text)

    @on(ListView.Highlighted, "#file-list")
    def _file_highlighted(self, event: ListView.Highlighted) -> None:
        if isinstance(event.item, FileItem):
            self.show_file(event.item.file_name)

    # --- facts and the inbox --------------------------------------------------------------

    def load_facts(self) -> None:
        self.query_one(FactsTable).show(self.source.facts())

    def load_inbox(self) -> None:
        items = self.source.inbox()
        self.query_one(InboxTable).show(items)
        self.query_one(TabbedContent).get_tab("inbox").label = f"Inbox ({len(items)})"

    def current_fact(self) -> str | None:
        return selected_key(self.query_one(FactsTable))

    # --- timeline --------------------------------------------------------------------------

    async def load_timeline(self) -> None:
        listing = self.query_one("#events", ListView)
        await listing.clear()
        self.events = self.source.timeline()
        await listing.extend(
            ListItem(Label(f"{e.time[:16].replace('T', ' ')}  [b]{e.kind}[/b]  {escape(e.text)}"))
            for e in self.events
        )
        listing.index = 0 if self.events else None
        self.show_event(0)

    def show_event(self, index: int) -> None:
        diff = self.query_one("#diff", Static)
        if not 0 <= index < len(self.events):
            diff.update("no memory events yet" if not self.events else "")
            return
        diff.update(colour_diff(self.events[index].diff or self.events[index].text))

    @on(ListView.Highlighted, "#events")
    def _event_highlighted(self, event: ListView.Highlighted) -> None:
        self.show_event(event.list_view.index or 0)

    # --- search --------------------------------------------------------------------------

    @on(Input.Changed, "#query")
    def _query_changed(self, event: Input.Changed) -> None:
        self.run_search(event.value)

    @work(exclusive=True, group="search")
    async def run_search(self, query: str) -> None:
        # A thread keeps the screen responsive while the index answers; exclusive drops the
        # search a newer keystroke made stale.
        hits = await asyncio.to_thread(self.source.search, query)
        await self.show_hits(hits)

    async def show_hits(self, hits: list[Hit]) -> None:
        listing = self.query_one("#hits", ListView)
        await listing.clear()
        await listing.extend(
            HitItem(hit.file, hit.line, hit.snippet.replace("\n", " ")) for hit in hits
        )
        listing.index = 0 if hits else None
        self.say(f"{len(hits)} hit{'s' if len(hits) != 1 else ''}")

    @on(ListView.Selected, "#hits")
    def _hit_selected(self, event: ListView.Selected) -> None:
        if isinstance(event.item, HitItem):
            self.open_hit(event.item)

    @on(Input.Submitted, "#query")
    def _query_submitted(self) -> None:
        first = self.query(HitItem).first() if self.query(HitItem) else None
        if first is not None:
            self.open_hit(first)

    def open_hit(self, hit: HitItem) -> None:
        self.action_tab("files")
        self.show_file(hit.file_name)
        self.say(f"{hit.file_name}:{hit.line}")

    # --- actions -------------------------------------------------------------------------

    # The widget each tab focuses when shown: focus left in a hidden tab would switch back to it.
    FOCUS: ClassVar[dict[str, str]] = {
        "files": "#file-list",
        "facts": "#facts-table",
        "inbox": "#inbox-table",
        "timeline": "#events",
        "search": "#query",
    }

    @property
    def tab(self) -> str:
        return self.query_one(TabbedContent).active

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        tabs = self.ACTION_TABS.get(action)
        return tabs is None or self.tab in tabs

    @on(TabbedContent.TabActivated)
    def _tab_changed(self) -> None:
        self.refresh_bindings()

    def action_tab(self, name: str) -> None:
        self.query_one(TabbedContent).active = name
        self.query_one(self.FOCUS[name]).focus()

    async def action_refresh(self) -> None:
        await self.load_files()
        self.load_facts()
        self.load_inbox()
        if self.current_file:
            self.show_file(self.current_file)
        self.say("refreshed")

    def action_edit(self) -> None:
        name, line = self.current_file, None
        if self.tab == "facts":
            place = self.source.place_of(self.current_fact() or "")
            if place is None:
                return
            name, line = place
        if not name:
            return
        try:
            changed = edit_in_editor(self, self.source.scope, name, line)
        except MemclawError as exc:
            self.say(str(exc))
            return
        self.show_file(name)
        self.load_facts()
        self.say(f"saved {name}" if changed else "no change")

    def action_feedback(self, good: bool) -> None:
        fact_id = self.current_fact()
        if fact_id is None:
            return
        act = self.source.confirm if good else self.source.reject
        try:
            fact = act(fact_id)
        except MemclawError as exc:
            self.say(str(exc))
            return
        self.load_facts()
        verb = "confirmed" if good else "rejected"
        self.say(f"{verb} {fact.id}: trust now {fact.trust:.2f} · {fact.statement}")

    def action_forget(self) -> None:
        fact_id = self.current_fact()
        if fact_id is None:
            return
        fact = next((f for f in self.source.facts() if f.id == fact_id), None)
        if fact is None:
            return
        question = (
            f"Forget {fact.id} everywhere, and never learn it again?\n\n{fact.statement}\n"
            f"lives in {', '.join(fact.where())}"
        )

        async def answered(yes: bool | None) -> None:
            if not yes:
                self.say("kept")
                return
            try:
                plan = self.source.forget(fact.id)
            except MemclawError as exc:
                self.say(str(exc))
                return
            await self.action_refresh()
            self.say(f"forgot {fact.id} from {plural(plan.place_count, 'place')}")

        self.push_screen(Confirm(question), answered)

    def action_resolve(self, keep: str) -> None:
        item_id = selected_key(self.query_one(InboxTable))
        if item_id is None:
            return
        try:
            done = self.source.resolve(item_id, keep)
        except MemclawError as exc:
            self.say(str(exc))
            return
        self.load_inbox()
        self.load_facts()
        changed = f"; changed {', '.join(done.changed)}" if done.changed else ""
        self.say(f"{item_id}: kept {keep}{changed}")

    def say(self, message: str) -> None:
        self.query_one("#status", Static).update(message)
