"""memclaw undo, timeline, why, morning and log: see what memory learned, and steer it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from memclaw.cli.basic import AgentArg, JsonOpt, OwnerOpt
from memclaw.cli.render import err, print_json, write_lines
from memclaw.cli.state import scope, state
from memclaw.errors import UsageError
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.morning.card import Card


# "2026-12-04 05:52  remember     …": where an event's text starts on its row.
TIMELINE_TEXT_COLUMN = 31


def _write(lines: list[str], hang: int = 0) -> None:
    write_lines(lines, hang=hang)


def undo(
    ctx: typer.Context,
    agent: AgentArg,
    owner: OwnerOpt = None,
    skip_forget: Annotated[
        bool,
        typer.Option(
            "--skip-forget", help="Pass over forgets (they are final) to the change before."
        ),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Revert the last memory change of any kind; run it again to walk further back.

    A change is everything one operation wrote (an extraction's PROFILE.md,
    MEMORY.md and daily note; a dream's MEMORY.md and DREAMS.md; a remember, an
    import, a file edit), and what it changed beside them: the evidence and trust
    of facts, the inbox, who wrote each line. Undo puts all of it back as it was,
    and refuses, writing nothing, when a file was edited since: that edit would be
    lost. A forget is final: when it is the newest change, undo says so and names
    the change --skip-forget would undo instead.

    Examples:

        memclaw undo demo

        memclaw undo demo --skip-forget

        memclaw undo demo --owner user:maya --json
    """
    from memclaw.changes.receipt import receipt_lines
    from memclaw.changes.records import find
    from memclaw.changes.undo import undo_last

    where = scope(ctx, agent, owner)
    done = undo_last(where, skip_forget=skip_forget)
    if as_json:
        print_json(done.to_dict())
        return
    change = done.change
    err().print(f"undid the {change.kind} of {change.time} (change {change.id})", markup=False)
    # What the undo itself wrote: the lines it took out and the ones it brought back.
    own = find(where, done.undo_id) if done.undo_id else None
    if own is not None and own.files:
        _write(receipt_lines(own))
    for note in done.notes:
        err().print(note, markup=False)


def timeline(
    ctx: typer.Context,
    agent: AgentArg,
    owner: OwnerOpt = None,
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            metavar="DAY",
            help="Only events on or after DAY: YYYY-MM-DD, today, yesterday, 3d, monday.",
        ),
    ] = None,
    diff: Annotated[bool, typer.Option("--diff", help="Show the lines each change wrote.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Every memory event, newest first: extract, dream, remember, forget, import, hand edits.

    Dream reports archived by month are read too. --diff shows under each change
    the lines it added (+), changed (~) and removed (-), with their fact ids.

    Examples:

        memclaw timeline demo

        memclaw timeline demo --since 2026-11-01 --diff

        memclaw timeline demo --json
    """
    from memclaw.changes.timeline import timeline as build
    from memclaw.clock import parse_day

    where = scope(ctx, agent, owner)
    start = None
    if since is not None:
        start = parse_day(since, where.agent.now().date())
        if start is None:
            raise UsageError(
                f"--since {since!r} is not a day: use YYYY-MM-DD, today, yesterday, 3d or a weekday"
            )
    events = build(where, since=start)
    if as_json:
        print_json([e.to_dict(with_diff=diff) for e in events])
        return
    if not events:
        err().print("no memory events yet", markup=False)
    for event in events:
        # Continuation rows of a long event start under its text, not under the time.
        line = f"{event.time[:16].replace('T', ' ')}  {event.kind:<12} {event.text}"
        _write([line], hang=TIMELINE_TEXT_COLUMN)
        if event.files and not (diff and event.diff):
            _write([f"{'':<19}{', '.join(event.files)}"])
        if diff and event.diff:
            _write(event.diff.splitlines())


def why(
    ctx: typer.Context,
    agent: AgentArg,
    fact: Annotated[
        str,
        typer.Argument(
            metavar="FACT",
            help="The fact id, FILE:LINE, the whole line, or words it holds (all must match).",
        ),
    ],
    owner: OwnerOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Why memory holds a line: the session and turn, the extraction, dreams, confirmations.

    Words work as with forget: every one must be in the line. When several lines
    hold them, each is listed with its id, to ask again by id.

    Examples:

        memclaw why demo "Tomas raised the lotsen HPA maximum"

        memclaw why demo MEMORY.md:6

        memclaw why demo f1a2b3c4d --json
    """
    from memclaw.changes.why import SeveralMatchError
    from memclaw.changes.why import why as trace

    try:
        found = trace(scope(ctx, agent, owner), fact)
    except SeveralMatchError as several:
        if as_json:
            keys = ("fact", "file", "line", "text")
            print_json({"matches": [dict(zip(keys, m, strict=True)) for m in several.matches]})
        err().print(f"error: {several}", markup=False)
        for fid, rel, number, text in several.matches:
            err().print(f"  {fid}  {rel}:{number}  {text}", markup=False)
        raise typer.Exit(2) from None
    if as_json:
        print_json(found.to_dict())
        return
    lines = [f"{found.fact}  {found.statement}"]
    lines += [f"  lives in {f}:{n}" for f, n, _t in found.places] or ["  (no longer in memory)"]
    lines += [f"  {s.time[:16].replace('T', ' ')}  {s.kind:<9} {s.text}" for s in found.steps]
    if found.trust is not None:
        lines.append(f"  trust now {found.trust:.2f}; over time:")
        lines += [
            f"    {t[:16].replace('T', ' ')}  {v:.2f}  {e}" for t, e, v in found.trust_history
        ]
    _write(lines)


def card_lines(card: Card) -> list[str]:
    """The card as plain lines, each fact with its id and the choices."""
    data = card.report
    head = f"☀ morning card · dream {card.run} of {str(data.get('time'))[:16].replace('T', ' ')}"
    lines = [head, f"  {data.get('reason', '')}".rstrip()]
    titles = {
        "promoted": "promoted into memory",
        "trust_fell": "trust fell",
        "contradictions": "contradictions found",
        "dropped": "dropped",
    }
    for section, title in titles.items():
        items = card.items(section)
        if not items:
            continue
        stale = [i for i in items if i.get("superseded_by")]
        if stale:
            # Facts a later note corrected: the correction is shown, never offered for forgetting.
            lines.append("  superseded by a later correction:")
            for item in stale:
                lines.append(f"    [{item['fact']}] {item['text']}")
                lines.append(f"      superseded by {item.get('by')}: {item['superseded_by']}")
            items = [i for i in items if not i.get("superseded_by")]
            if not items:
                continue
        lines.append(f"  {title}:")
        for item in items:
            why = f"  ({item['why']})" if item.get("why") and section != "promoted" else ""
            if section == "trust_fell":
                why += "  confirm it, or forget it"
            lines.append(f"    [{item['fact']}] {item['text']}{why}")
    if data.get("one_offs"):
        lines.append(f"  ({plural(data['one_offs'], 'thing')} said only once, not kept)")
    if card.soul_diff:
        lines.append("  SOUL.md changed:")
        lines += [f"    {line}" for line in card.soul_diff.splitlines()]
    lines.append("  choose: --confirm ID, --edit ID=TEXT, --forget ID (or --skip)")
    return lines


def morning(
    ctx: typer.Context,
    agent: AgentArg,
    owner: OwnerOpt = None,
    confirm: Annotated[
        list[str] | None, typer.Option("--confirm", metavar="ID", help="Confirm this fact.")
    ] = None,
    forget: Annotated[
        list[str] | None, typer.Option("--forget", metavar="ID", help="Forget this fact.")
    ] = None,
    edit: Annotated[
        list[str] | None,
        typer.Option("--edit", metavar="ID=WORDS", help="Reword this fact to WORDS."),
    ] = None,
    skip: Annotated[
        bool, typer.Option("--skip", help="Mark the card reviewed, change nothing.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """The morning card: what the last dream promoted, dropped and found, to confirm or fix.

    Without choices it shows the newest card nobody reviewed. Each choice is
    applied (confirmations feed trust; forget removes the line everywhere in
    memory and keeps it from being learned again) and the card is marked reviewed.

    Examples:

        memclaw morning demo

        memclaw morning demo --confirm f1a2b3c4d --forget f9e8d7c6b

        memclaw morning demo --edit "f1a2b3c4d=Deploys go out on Fridays"
    """
    from memclaw.morning.card import latest, review

    where = scope(ctx, agent, owner)
    card = latest(where)
    edits = {}
    for item in edit or []:
        fid, sep, text = item.partition("=")
        if not sep or not text.strip():
            raise UsageError(f"--edit {item!r}: use ID=NEW TEXT")
        edits[fid.strip()] = text
    acting = bool(confirm or forget or edits or skip)
    if card is None:
        if acting:
            raise UsageError(f"{agent} has no morning card to review")
        if as_json:
            print_json(None)
        else:
            err().print("no morning card: nothing new since the last review", markup=False)
        return
    if not acting:
        if as_json:
            print_json(card.to_dict())
        else:
            _write(card_lines(card))
        return
    done = review(where, card, confirm=confirm or [], forget=forget or [], edit=edits)
    if as_json:
        print_json(done.to_dict())
        return
    for outcome in done.outcomes:
        where_ = f" ({', '.join(outcome.files)})" if outcome.files else ""
        _write(
            [f"{outcome.action} {outcome.fact}{where_}", *([outcome.note] if outcome.note else [])]
        )
    if done.soul is not None and done.soul.status == "updated":
        _write(["SOUL.md: Learned section revised (shown on the next card)"])
    err().print(f"card {card.run} reviewed", markup=False)


def log(
    ctx: typer.Context,
    agent: Annotated[
        str, typer.Argument(help="The agent (with --fleet: the stream).", show_default=False)
    ],
    stream: Annotated[
        str | None,
        typer.Argument(help="Which records: changes, extract, dream, recall, forget ..."),
    ] = None,
    fleet: Annotated[
        bool, typer.Option("--fleet", help="The root's own records: jobs, the fleet runs.")
    ] = False,
    last: Annotated[
        int | None, typer.Option("--last", min=1, help="Only the newest N records.")
    ] = None,
) -> None:
    """The records memclaw keeps beside the files (its ledger), as JSON lines.

    Without STREAM, each stream and how many records it holds. With one, its
    records oldest first, one JSON object per line, for jq or grep.

    Examples:

        memclaw log demo

        memclaw log demo extract --last 5

        memclaw log demo recall | jq -r .query

        memclaw log --fleet jobs
    """
    import json

    from memclaw.workspace import ledger
    from memclaw.workspace.paths import META_DIR

    ws = state(ctx).workspace()
    if fleet:
        holder, stream, meta = "the root", agent, ws.root / META_DIR
    else:
        holder, meta = agent, ws.agent(agent).meta_dir
    counts = ledger.streams(meta)
    if stream is None:
        width = max((len(name) for name in counts), default=0)
        _write([f"{name:<{width}}  {plural(n, 'record')}" for name, n in counts.items()])
        if not counts:
            err().print(f"{holder} has no records yet", markup=False)
        return
    if stream not in counts:
        known = ", ".join(counts) or "none yet"
        raise UsageError(f"{holder} has no {stream!r} records: the streams are {known}")
    records = list(ledger.read(meta, stream))
    for record in records[-last:] if last else records:
        typer.echo(json.dumps(record, ensure_ascii=False))


def register(app: typer.Typer) -> None:
    app.command()(log)
    app.command()(undo)
    app.command()(timeline)
    app.command()(why)
    app.command()(morning)
