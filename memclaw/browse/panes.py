"""The browser's tables (facts with a trust bar, the contradiction inbox) and its yes/no dialog."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

if TYPE_CHECKING:
    from memclaw.facts.inbox import Item
    from memclaw.facts.model import Fact

BAR_CELLS = 10


def trust_bar(trust: float) -> Text:
    """``███████░░░ 0.70``, green when well trusted, yellow when middling, red when doubtful."""
    filled = round(max(0.0, min(trust, 1.0)) * BAR_CELLS)
    colour = "green" if trust >= 0.6 else "yellow" if trust >= 0.3 else "red"
    return Text.assemble(
        ("█" * filled, colour), ("░" * (BAR_CELLS - filled), "dim"), f" {trust:.2f}"
    )


def colour_diff(diff: str) -> Text:
    """A unified diff with added lines green, removed red and file headers bold."""
    out = Text()
    for line in diff.splitlines():
        mark = line.lstrip()  # the timeline indents its lines under each file
        style = (
            "bold" if mark.startswith(("+++", "---", "@@")) or not line.startswith(" ")
            else "green" if mark.startswith("+")
            else "red" if mark.startswith("-")
            else "yellow" if mark.startswith("~")
            else ""
        )  # fmt: skip
        out.append(line + "\n", style=style)
    return out


def first_place(fact: Fact) -> str:
    """``MEMORY.md:14``, and ``+2`` when the fact lives in more places."""
    where = fact.where()
    if not where:
        return ""
    return where[0] + (f" +{len(where) - 1}" if len(where) > 1 else "")


class FactsTable(DataTable[Text | str]):
    """One row a fact: its trust as a bar, age, id, where it lives (FILE:LINE), statement.

    FILE:LINE comes before the statement: after a long statement it would be off the
    right edge of the screen."""

    def show(self, facts: list[Fact]) -> None:
        # The cursor stays on its fact, wherever new trust sorts it; on the same row
        # only when that fact is gone (forgotten).
        keep, fact_id = self.cursor_row, selected_key(self)
        self.clear(columns=not self.columns)
        if not self.columns:
            self.add_columns("trust", "age", "id", "where", "fact")
        for fact in facts:
            self.add_row(
                trust_bar(fact.trust),
                f"{fact.age_days:.0f}d",
                fact.id,
                first_place(fact),
                fact.statement,
                key=fact.id,
            )
        if not facts:
            return
        rows = [fact.id for fact in facts]
        self.move_cursor(row=rows.index(fact_id) if fact_id in rows else min(keep, len(rows) - 1))


class InboxTable(DataTable[str]):
    """One row an open contradiction: the fact in force and the statement held back."""

    def show(self, items: list[Item]) -> None:
        self.clear(columns=not self.columns)
        if not self.columns:
            self.add_columns("id", "why", "in force", "held")
        for item in items:
            self.add_row(item.id, item.reason, item.old, item.new, key=item.id)


def selected_key(table: DataTable[Text | str] | DataTable[str]) -> str | None:
    """The row key under the cursor, or None on an empty table."""
    if not table.row_count:
        return None
    key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
    return str(key) if key is not None else None


class Confirm(ModalScreen[bool]):
    """A yes/no question: y or enter says yes, n or escape says no."""

    DEFAULT_CSS = """
    Confirm { align: center middle; }
    Confirm > Vertical { width: 80; height: auto; border: thick $error; padding: 1 2;
                         background: $surface; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, markup=False)
            yield Label("[b]y[/b] yes · [b]n[/b] no")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
