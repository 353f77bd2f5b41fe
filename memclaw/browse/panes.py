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


class FactsTable(DataTable[Text | str]):
    """One row a fact: its trust as a bar, age, id, statement and where it lives."""

    def show(self, facts: list[Fact]) -> None:
        keep = self.cursor_row
        self.clear(columns=not self.columns)
        if not self.columns:
            self.add_columns("trust", "age", "id", "fact", "where")
        for fact in facts:
            where = ", ".join(fact.where()[:2]) + (" …" if len(fact.where()) > 2 else "")
            self.add_row(
                trust_bar(fact.trust),
                f"{fact.age_days:.0f}d",
                fact.id,
                fact.statement,
                where,
                key=fact.id,
            )
        if facts:
            self.move_cursor(row=min(keep, len(facts) - 1))


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
