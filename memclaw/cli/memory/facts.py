"""memclaw facts and memclaw inbox: what memory holds, how sure it is, and what disagrees."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from memclaw.cli.basic import AgentArg, JsonOpt, OwnerOpt
from memclaw.cli.render import err, print_json, print_table
from memclaw.cli.state import scope
from memclaw.errors import ModelError
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.facts.inbox import Item
    from memclaw.facts.model import Fact


class ListByDefault(TyperGroup):
    """``memclaw facts AGENT`` means ``memclaw facts list AGENT``."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["list", *args]
        return super().parse_args(ctx, args)


facts_app = typer.Typer(
    cls=ListByDefault,
    help=(
        "The facts memory holds, with trust, age, source and where they live.\n\n"
        "Examples:\n\n"
        "    memclaw facts demo --below 0.3\n\n"
        "    memclaw facts confirm demo f1a2b3c4d\n\n"
        '    memclaw facts reject demo "Maya eats meat"'
    ),
    no_args_is_help=True,
)
inbox_app = typer.Typer(
    cls=ListByDefault,
    help=(
        "Contradictions waiting for a choice: a new statement held back, the old fact in force.\n\n"
        "Examples:\n\n"
        "    memclaw inbox demo\n\n"
        "    memclaw inbox resolve demo c1a2b3c --keep new"
    ),
    no_args_is_help=True,
)
FactArg = Annotated[str, typer.Argument(metavar="FACT", help="A fact id (f1a2b3c4d) or its words.")]


def _places(fact: Fact) -> str:
    where = fact.where()
    return ", ".join(where[:3]) + (f" +{len(where) - 3}" if len(where) > 3 else "")


@facts_app.command("list")
def list_(
    ctx: typer.Context,
    agent: AgentArg,
    owner: OwnerOpt = None,
    below: Annotated[
        float | None,
        typer.Option("--below", min=0, max=1, help="Only facts with trust under this."),
    ] = None,
    lowest: Annotated[bool, typer.Option("--lowest", help="Lowest trust first.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """List the facts of an agent (or of one owner) with trust, age, source and places.

    Trust (0-1) grows with restatements and confirmations, falls with
    rejections, and halves every trust_half_life_days without either.

    Examples:

        memclaw facts demo

        memclaw facts demo --owner user:maya --below 0.3 --json
    """
    from memclaw.facts.ledger import list_facts

    where = scope(ctx, agent, owner)
    facts = list_facts(where, below=below, lowest_first=lowest)
    if as_json:
        print_json({"agent": agent, "owner": where.owner, "facts": [f.to_dict() for f in facts]})
        return
    if not facts:
        err().print(f"no facts{' below ' + str(below) if below is not None else ''} in {agent}")
        return
    from rich.table import Table

    table = Table(title=f"{plural(len(facts), 'fact')} of {agent}", title_justify="left")
    for column in ("id", "trust", "age", "source", "where", "statement"):
        table.add_column(column, overflow="fold")
    for fact in facts:
        mark = " (superseded)" if fact.superseded else ""
        table.add_row(
            fact.id,
            f"{fact.trust:.2f}",
            f"{fact.age_days:.0f}d",
            fact.source,
            _places(fact),
            fact.statement + mark,
        )
    print_table(table, markup=False)


def _feedback(ctx: typer.Context, agent: str, fact: str, owner: str | None, good: bool) -> Fact:
    from memclaw.facts.feedback import give

    where = scope(ctx, agent, owner)
    given = give(where, fact, good=good, source="cli")
    if good:
        from memclaw.morning import soul

        # A confirmation past soul_update_interval revises SOUL.md, as the morning card does.
        try:
            learned = soul.evolve(where)
        except ModelError as exc:  # the confirmation stands; the card revises SOUL.md later
            err().print(f"{where.rel(soul.SOUL)} not revised: {exc}", markup=False)
        else:
            if learned.status == "updated":
                note = f"{where.rel(soul.SOUL)}: {learned.reason} (the diff waits on the card)"
                err().print(note, markup=False)
    return given


def _said(fact: Fact, verb: str, as_json: bool) -> None:
    if as_json:
        print_json(fact.to_dict())
        return
    err().print(f"{verb} {fact.id}: trust now {fact.trust:.2f} · {fact.statement}", markup=False)


@facts_app.command("confirm")
def confirm(
    ctx: typer.Context,
    agent: AgentArg,
    fact: FactArg,
    owner: OwnerOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Say a fact is right: its trust rises and its decay starts again.

    Examples:

        memclaw facts confirm demo f1a2b3c4d

        memclaw facts confirm demo "prefers uv"
    """
    _said(_feedback(ctx, agent, fact, owner, True), "confirmed", as_json)


@facts_app.command("reject")
def reject(
    ctx: typer.Context,
    agent: AgentArg,
    fact: FactArg,
    owner: OwnerOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Say a fact is wrong: its trust falls, and a dream drops it once it is below trust_floor.

    Examples:

        memclaw facts reject demo f1a2b3c4d
    """
    _said(_feedback(ctx, agent, fact, owner, False), "rejected", as_json)


def _item_row(item: Item) -> dict[str, Any]:
    return item.to_dict()


@inbox_app.command("list")
def inbox_list(
    ctx: typer.Context,
    agent: AgentArg,
    owner: OwnerOpt = None,
    every: Annotated[bool, typer.Option("--all", help="Resolved ones too.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """List open contradictions: the fact in force, the statement held back, and why.

    Examples:

        memclaw inbox demo

        memclaw inbox demo --owner user:maya --json
    """
    from memclaw.facts.inbox import load
    from memclaw.facts.ledger import facts_of

    where = scope(ctx, agent, owner)
    items = [
        i for i in load(where.agent) if i.prefix == where.prefix and (every or i.status == "open")
    ]
    trust = {f.id: f.trust for f in facts_of(where)} if items else {}
    if as_json:
        rows = [{**i.to_dict(), "old_trust": round(trust.get(i.old_fact, 0.0), 3)} for i in items]
        print_json({"agent": agent, "owner": where.owner, "contradictions": rows})
        return
    if not items:
        err().print(f"no contradictions waiting in {agent}")
        return
    console = err()
    for item in items:
        state = "" if item.status == "open" else f" (resolved: kept {item.keep})"
        console.print(f"{item.id}{state} · {item.reason}", markup=False)
        old_label, new_label = _labels(item.status, item.keep)
        places = ", ".join(item.old_where)
        # The old fact's trust only means something while it is still the one in force.
        shown = f"trust {trust.get(item.old_fact, 0.0):.2f}; {places}" if old_label else places
        console.print(f"  {old_label or 'replaced:':<9} {item.old}  [{shown}]", markup=False)
        said = f"{item.source}" + (f", session {item.session}" if item.session else "")
        console.print(f"  {new_label:<9} {item.new}  [{said}, {item.opened[:10]}]", markup=False)
    if any(i.status == "open" for i in items):
        console.print(
            f"resolve with `memclaw inbox resolve {agent} ID --keep new|old|both`", markup=False
        )


def _labels(status: str, keep: str | None) -> tuple[str, str]:
    """How an item's old and new statement stand now ('' for the old: it was replaced)."""
    if status == "open":
        return "in force:", "held:"
    if keep == "new":
        return "", "in force:"
    if keep == "old":
        return "in force:", "dropped:"
    return "kept:", "kept:"  # both hold


@inbox_app.command("resolve")
def inbox_resolve(
    ctx: typer.Context,
    agent: AgentArg,
    item: Annotated[str, typer.Argument(metavar="ID", help="Contradiction id, e.g. c1a2b3c.")],
    keep: Annotated[
        str, typer.Option("--keep", help="new: replace the old fact; old: drop the new; both.")
    ],
    owner: OwnerOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Settle a contradiction in every file where the old fact lives.

    Examples:

        memclaw inbox resolve demo c1a2b3c --keep new

        memclaw inbox resolve demo c1a2b3c --keep both --owner user:maya
    """
    from memclaw.facts.resolve import resolve

    done = resolve(scope(ctx, agent, owner), item, keep)
    if as_json:
        print_json({**done.item.to_dict(), "changed": done.changed})
        return
    files = ", ".join(done.changed) or "no file"
    err().print(f"{item}: kept {keep}; changed {files}", markup=False)


def register(app: typer.Typer) -> None:
    app.add_typer(facts_app, name="facts")
    app.add_typer(inbox_app, name="inbox")
