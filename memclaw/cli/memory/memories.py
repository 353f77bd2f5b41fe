"""memclaw remember, memclaw memories and memclaw forget: explicit memory entries, and
forgetting a fact everywhere (`memories forget` is `forget`)."""

from __future__ import annotations

import sys
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any

import typer

from memclaw.cli.basic import AgentArg, JsonOpt, OwnerOpt
from memclaw.cli.render import err, print_json, print_table
from memclaw.cli.state import scope
from memclaw.errors import UsageError
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.erasure import ForgetPlan
    from memclaw.erasure.places import Place
    from memclaw.workspace.entries import Entry

memories_app = typer.Typer(
    help=(
        "List, show and forget memory entries.\n\n"
        "Examples:\n\n"
        "    memclaw memories list demo\n\n"
        "    memclaw memories get demo m-3f9a2c1b\n\n"
        '    memclaw memories forget demo --query "Poetry"'
    ),
    no_args_is_help=True,
)

CategoryOpt = Annotated[
    str | None,
    typer.Option(
        "--category",
        "-c",
        help="identity, preference, rule, decision, configuration, "
        "technical, relationship, project or other (or one the categories setting adds).",
    ),
]
SessionOpt = Annotated[
    str | None, typer.Option("--session", help="Session id: the entry lives only in that session.")
]


def _entry_dict(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "text": entry.text,
        "category": entry.category,
        "created": entry.created.isoformat() if entry.created else None,
        "updated": entry.updated.isoformat() if entry.updated else None,
        **entry.extra,
    }


def remember(
    ctx: typer.Context,
    agent: AgentArg,
    text: Annotated[
        str, typer.Argument(metavar="FACT", help="The fact to keep, e.g. 'Maya prefers uv'.")
    ],
    category: CategoryOpt = None,
    owner: OwnerOpt = None,
    session: SessionOpt = None,
    force: Annotated[
        bool, typer.Option("--force", help="Remember it even if it was forgotten before.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Keep one fact as a memory entry (long-term unless a session is named).

    The category is guessed when not given. What memory already holds is not stored
    again ("already known"). A newer value of a remembered fact (where someone
    lives, a new date for one event) or a richer version of it replaces that fact
    wherever it lives, as one line that keeps what only the older one said. Any
    other fact is added beside the others. Credentials are refused.

    Examples:

        memclaw remember demo "Maya prefers uv for Python projects"

        memclaw remember demo "Deadline for the migration is 2026-12-12" -c project

        memclaw remember demo "Wants short answers today" --session s-42 --owner user:maya
    """
    from memclaw.entries.memories import Action
    from memclaw.entries.memories import remember as remember_fact
    from memclaw.facts.judge import Judge
    from memclaw.llm import open_model_no_retry

    where = scope(ctx, agent, owner)
    # With a model configured it weighs what the offline rules are unsure of, as
    # extraction's does; no request is sent unless such a pair comes up.
    judge = Judge(partial(open_model_no_retry, where.agent.settings))
    result = remember_fact(
        where, text, category=category, session_id=session, force=force, model=judge
    )
    if as_json:
        print_json(
            {
                "action": str(result.action),
                "entry": _entry_dict(result.entry) if result.entry else None,
                "previous": _entry_dict(result.previous) if result.previous else None,
                "reason": result.reason,
                "inbox": result.inbox,
            }
        )
        if result.blocked:
            raise typer.Exit(1)
        return
    console = err()
    if result.entry is None:
        said = "already known" if result.action is Action.UNCHANGED else str(result.action)
        console.print(f"{said}: {result.reason}", markup=False)
        if result.blocked:
            # Nothing was kept: a script must not take this for success.
            raise typer.Exit(1)
        return
    entry = result.entry
    if result.action is Action.UNCHANGED:
        line = f"already known as {entry.id} [{entry.category}]: {entry.text}"
    elif result.action is Action.UPDATED:
        line = f"updated {entry.id} [{entry.category}], now: {entry.text}"
    else:
        line = f"{result.action} {entry.id} [{entry.category}]"
    console.print(line, markup=False)


@memories_app.command("list")
def list_(
    ctx: typer.Context,
    agent: AgentArg,
    owner: OwnerOpt = None,
    kind: Annotated[str, typer.Option("--scope", help="all, long-term or session.")] = "all",
    category: CategoryOpt = None,
    session: SessionOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List memory entries, newest first.

    Examples:

        memclaw memories list demo

        memclaw memories list demo --owner user:maya --category preference --json
    """
    from memclaw.entries.lookup import list_memories

    where = scope(ctx, agent, owner)
    entries = list_memories(where, kind, category=category, session_id=session)
    if as_json:
        print_json({"agent": agent, "memories": [_entry_dict(e) for e in entries]})
        return
    if not entries:
        err().print(f"no memory entries in {agent}; add one with `memclaw remember {agent} TEXT`")
        return
    from rich.table import Table

    table = Table(title=f"{plural(len(entries), 'memory')} of {agent}", title_justify="left")
    for column in ("id", "category", "updated", "text"):
        table.add_column(column, overflow="fold")
    for entry in entries:
        table.add_row(entry.id, entry.category, entry.sort_date.isoformat(), entry.text)
    print_table(table)


@memories_app.command("get")
def get(
    ctx: typer.Context,
    agent: AgentArg,
    memory_id: Annotated[str, typer.Argument(metavar="ID", help="Entry id, e.g. m-3f9a2c1b.")],
    owner: OwnerOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Show one memory entry.

    Examples:

        memclaw memories get demo m-3f9a2c1b

        memclaw memories get demo m-3f9a2c1b --owner user:maya --json
    """
    from memclaw.entries.lookup import get_memory

    entry = get_memory(scope(ctx, agent, owner), memory_id)
    if as_json:
        print_json(_entry_dict(entry))
        return
    sys.stdout.write(entry.text + "\n")
    meta = ", ".join(f"{k}: {v}" for k, v in _entry_dict(entry).items() if k != "text" and v)
    err().print(meta, markup=False)


@memories_app.command("forget")
def forget(
    ctx: typer.Context,
    agent: AgentArg,
    memory_id: Annotated[
        str | None, typer.Argument(metavar="[ID]", help="Entry id to forget.")
    ] = None,
    query: Annotated[
        str | None, typer.Option("--query", "-q", help="Forget the facts matching these words.")
    ] = None,
    owner: OwnerOpt = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Forget an entry (by id) or the facts matching words, everywhere: `memclaw forget`.

    The entry's fact goes from every file, transcript, previous version, log
    and the index too, and is not learned again. Asks first, unless --yes.

    Examples:

        memclaw memories forget demo m-3f9a2c1b

        memclaw memories forget demo --query "staging password" --yes
    """
    from memclaw.entries.lookup import get_memory
    from memclaw.facts.ids import fact_id

    if (memory_id is None) == (query is None):
        raise UsageError("give an ID or --query, not both and not neither")
    target = query or ""
    if memory_id is not None:
        where = scope(ctx, agent, owner)
        target = fact_id(get_memory(where, memory_id).text.strip(), where.prefix)
    run_forget(ctx, agent, target, owner, yes=yes, dry_run=False, as_json=as_json)


YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Forget without asking.")]
DryRunOpt = Annotated[
    bool, typer.Option("--dry-run", help="Only show where it lives; remove nothing.")
]
AlsoOpt = Annotated[
    bool,
    typer.Option(
        "--also",
        help="Also remove the lines that only mention the fact (listed as 'also mentions').",
    ),
]
_UNITS = {
    "memory": "line",
    "sessions": "sentence",
    "history": "line",
    "logs": "sentence",
    "chat-history": "line",
    "guard": "baseline",
    "summaries": "summary",
    "state": "sentence",
}


def interactive() -> bool:
    """Whether a person can answer the question (tests pretend so)."""
    return sys.stdin.isatty()


def forget_fact(
    ctx: typer.Context,
    agent: AgentArg,
    target: Annotated[
        str,
        typer.Argument(
            metavar="WORDS|FACT_ID",
            help="The fact's words (every one must appear) or its id, e.g. f1a2b3c4d.",
        ),
    ],
    owner: OwnerOpt = None,
    yes: YesOpt = False,
    dry_run: DryRunOpt = False,
    also: AlsoOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Forget a fact everywhere, and never learn it again.

    Shows every place it lives (memory files, entries, daily notes, session
    transcripts, previous versions, logs, the dream diary, the search index and
    its vectors), then removes it from all of them once you confirm. Only the
    owner's memory named by --owner (else the team's) is touched. A hashed
    fingerprint is kept so that extraction, dreams, imports and tool calls do
    not learn it again (`memclaw remember --force` lifts it).

    Only the fact's copies go: a line that corrects it or states another value
    stays, and a line that merely mentions it is listed under "also mentions"
    and kept unless --also is given.

    Examples:

        memclaw forget demo "knee"

        memclaw forget demo f1a2b3c4d --yes

        memclaw forget demo "Oslo" --owner user:maya --dry-run --json
    """
    run_forget(ctx, agent, target, owner, yes=yes, dry_run=dry_run, as_json=as_json, also=also)


def run_forget(
    ctx: typer.Context,
    agent: str,
    target: str,
    owner: str | None,
    *,
    yes: bool,
    dry_run: bool,
    as_json: bool,
    also: bool = False,
) -> None:
    """Plan, show, ask and apply: shared by `forget` and `memories forget`."""
    from memclaw.erasure import apply_forget, plan_forget

    if yes and dry_run:
        raise UsageError("--yes forgets and --dry-run only shows: give one of them")
    where = scope(ctx, agent, owner)
    if not (yes or dry_run or interactive()):
        # Checked before anything is read: a script never forgets by accident.
        raise UsageError(
            "forget removes a fact everywhere and asks first, but stdin is not a terminal: "
            "add --yes to forget, or --dry-run to see where it lives"
        )
    plan = plan_forget(where, target, also=also)
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
        places = plural(plan.place_count, "place")
        them = "them" if len(plan.facts) > 1 else "it"
        what = f"forgot {plural(len(plan.facts), 'fact')}" if plan.facts else "removed it"
        done = f"{what} from {places}; memclaw will not learn {them} again"
        err().print(done, markup=False)
        if plan.mem0 is not None:
            err().print(plan.mem0.line(where.agent.id), markup=False, highlight=False)
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
    if plan.mentions:
        console.print("also mentions (kept; --also removes these too):", markup=False)
        for fact in plan.mentions:
            console.print(f"  {fact.statement}  ({', '.join(fact.where)})", markup=False)


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
    app.command()(remember)
    app.add_typer(memories_app, name="memories")
    app.command("forget")(forget_fact)
