"""memclaw forget: one fact out of every file, transcript, version, log and index of a scope."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from memclaw.cli.basic import AgentArg, JsonOpt, OwnerOpt
from memclaw.cli.render import err, print_json
from memclaw.cli.state import scope
from memclaw.errors import UsageError
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.forget import ForgetPlan
    from memclaw.forget.places import Place

YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Forget without asking.")]
DryRunOpt = Annotated[
    bool, typer.Option("--dry-run", help="Only show where it lives; remove nothing.")
]
_UNITS = {
    "memory": "line",
    "sessions": "sentence",
    "history": "line",
    "logs": "sentence",
    "chat-history": "line",
    "guard": "baseline",
    "state": "sentence",
}


def interactive() -> bool:
    """Whether a person can answer the question (tests pretend so)."""
    return sys.stdin.isatty()


def forget(
    ctx: typer.Context,
    agent: AgentArg,
    target: Annotated[
        str,
        typer.Argument(
            metavar="WORDS|FACT_ID",
            help="The fact's words (every one must appear) or its id, e.g. f1a2b3c4.",
        ),
    ],
    owner: OwnerOpt = None,
    yes: YesOpt = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Forget a fact everywhere, and never learn it again.

    Shows every place it lives (memory files, entries, daily notes, session
    transcripts, previous versions, logs, the dream diary, the search index and
    its vectors), then removes it from all of them once you confirm. Only the
    owner's memory named by --owner (else the team's) is touched. A hashed
    fingerprint is kept so that extraction, dreams, imports and tool calls do
    not learn it again (`memclaw remember --force` lifts it).

    Examples:

        memclaw forget demo "knee"

        memclaw forget demo f1a2b3c4 --yes

        memclaw forget demo "Oslo" --owner user:maya --dry-run --json
    """
    run_forget(ctx, agent, target, owner, yes=yes, dry_run=dry_run, as_json=as_json)


def run_forget(
    ctx: typer.Context,
    agent: str,
    target: str,
    owner: str | None,
    *,
    yes: bool,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Plan, show, ask and apply: shared by `forget` and `memories forget`."""
    from memclaw.forget import apply_forget, plan_forget

    if yes and dry_run:
        raise UsageError("--yes forgets and --dry-run only shows: give one of them")
    where = scope(ctx, agent, owner)
    if not (yes or dry_run or interactive()):
        # Checked before anything is read: a script never forgets by accident.
        raise UsageError(
            "forget removes a fact everywhere and asks first, but stdin is not a terminal: "
            "add --yes to forget, or --dry-run to see where it lives"
        )
    plan = plan_forget(where, target)
    if not as_json or not (yes or dry_run):
        show(plan)
    if dry_run:
        if as_json:
            print_json(plan.to_dict())
        return
    if not yes and not typer.confirm("forget all of these?", default=False, err=True):
        err().print("nothing forgotten")
        raise typer.Exit(1)
    apply_forget(plan)
    if as_json:
        print_json(plan.to_dict())
    else:
        places = plural(len(plan.places) + bool(plan.index.blocks), "place")
        them = "them" if len(plan.facts) > 1 else "it"
        what = f"forgot {plural(len(plan.facts), 'fact')}" if plan.facts else "removed it"
        done = f"{what} from {places}; memclaw will not learn {them} again"
        err().print(done, markup=False)
    if plan.left:
        left = ", ".join(p.shown for p in plan.left)
        raise UsageError(f"still found in {left}: it changed meanwhile; run the forget again")


def show(plan: ForgetPlan) -> None:
    console = err()
    whose = f" (owner {plan.scope.owner})" if plan.scope.personal else ""
    if plan.facts:
        head = (
            f"{plural(len(plan.facts), 'fact')} in {plan.scope.agent.id}{whose} "
            f"{'matches' if len(plan.facts) == 1 else 'match'} {plan.target!r}:"
        )
    else:  # only a transcript, a log or a previous version still says it
        head = f"no fact in {plan.scope.agent.id}{whose} matches {plan.target!r}, but:"
    console.print(head, markup=False)
    for fact in plan.facts:
        console.print(f"  {fact.id}  {fact.statement}", markup=False)
        console.print(f"            in {', '.join(fact.where)}", markup=False)
    console.print("it lives in:", markup=False)
    width = max([len(p.shown) for p in plan.places] + [len(".memclaw/index.sqlite")])
    for place in plan.places:
        console.print(f"  {place.store:<12} {place.shown:<{width}}  {_count(place)}", markup=False)
    if plan.index.blocks:
        counted = plural(plan.index.blocks, "block")
        if plan.index.vectors:
            counted += f", {plural(plan.index.vectors, 'vector')}"
        console.print(
            f"  {'index':<12} {'.memclaw/index.sqlite':<{width}}  {counted}", markup=False
        )


def _count(place: Place) -> str:
    unit = "entry" if place.kind == "entries" else _UNITS.get(str(place.store), "line")
    if place.kind == "prose":
        unit = "sentence"
    if place.store == "logs":
        unit = "sentence"
    text = plural(place.count, unit)
    if place.lines and place.store in ("memory", "history") and place.kind == "lines":
        text += f" (line {', '.join(str(n) for n in place.lines[:6])})"
    return text


def register(app: typer.Typer) -> None:
    app.command()(forget)
