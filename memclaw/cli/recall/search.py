"""Recall commands: search, stats, reindex and watch.

``memclaw search`` is on the hot path: it imports rich only to draw a table
on a terminal, and never imports the model layer unless embeddings are set.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import StrEnum
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any

import typer

from memclaw.cli.state import owner_key, state
from memclaw.errors import UsageError
from memclaw.text.plural import plural
from memclaw.workspace.entries import is_session_file

if TYPE_CHECKING:
    from memclaw.index import IndexStats, SyncStats
    from memclaw.workspace import Agent


class ScopeChoice(StrEnum):
    all = "all"
    personal = "personal"
    team = "team"
    global_ = "global"
    long_term = "long-term"
    session = "session"


# How far past --limit a term-scoped search looks before it keeps only that term's hits.
_TERM_WIDEN = 10


JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
AllOpt = Annotated[bool, typer.Option("--all", help="Every agent (and the GLOBAL files).")]


def search(
    ctx: typer.Context,
    query: Annotated[
        list[str], typer.Argument(metavar="QUERY", help="Words to look for, in any language.")
    ],
    agent: Annotated[
        list[str] | None,
        typer.Option("--agent", "-a", help="Search this agent (repeatable; default: all)."),
    ] = None,
    all_agents: AllOpt = False,
    owner: Annotated[
        str | None,
        typer.Option("--owner", help="Also search this owner's personal memory, e.g. user:maya."),
    ] = None,
    scope: Annotated[
        ScopeChoice,
        typer.Option(
            "--scope",
            help="Which memory to search: by visibility (personal, team, global) "
            "or by term (long-term, session: a conversation's short-term entries).",
        ),
    ] = ScopeChoice.all,
    since: Annotated[
        str | None, typer.Option("--since", metavar="DATE", help="Only blocks dated on/after.")
    ] = None,
    until: Annotated[
        str | None, typer.Option("--until", metavar="DATE", help="Only blocks dated on/before.")
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", min=1, help="Most hits to show.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per hit.")] = False,
    context: Annotated[
        int,
        typer.Option(
            "--context", "-C", metavar="N", min=0, help="Also show N lines before and after a hit."
        ),
    ] = 0,
    budget: Annotated[
        int | None,
        typer.Option(
            "--budget",
            metavar="CHARS",
            min=1,
            help="Hand over at most CHARS characters: whole hits, best first, "
            "then the lines around them.",
        ),
    ] = None,
) -> None:
    """Find remembered lines: file, line number, a snippet with the matches marked.

    Every markdown file of the agents is searched (MEMORY.md, PROFILE.md, daily
    notes, entries, personal memory of --owner, and the GLOBAL files), after the
    index has caught up with any edits. Punctuation and operators in the query
    are plain text. On a terminal the hits are a table; piped, one line each.

    Examples:

        memclaw search knee

        memclaw search "cutover window" --agent demo --since 2026-11-20

        memclaw search 東京 --owner user:maya --scope personal --json

        memclaw search "deploy window" --owner user:maya --scope session

        memclaw search "how long married" --context 2

        memclaw search "when was the reunion gig" --budget 2000
    """
    from memclaw.cli.recall.hits import print_hits
    from memclaw.index import search as run_search
    from memclaw.index.query.context import BUDGET_LIMIT, handed_over

    if agent and all_agents:
        raise UsageError("pass --agent or --all, not both")
    ws = state(ctx).workspace()
    term = scope in (ScopeChoice.long_term, ScopeChoice.session)
    wanted = limit or (BUDGET_LIMIT if budget else ws.settings.search_limit)
    hits = run_search(
        ws,
        " ".join(query),
        agents=agent or None,
        owner=owner_key(owner),
        scope="all" if term else str(scope),
        since=since,
        until=until,
        limit=wanted * _TERM_WIDEN if term else wanted,
    )
    if term:
        short = scope == ScopeChoice.session
        hits = [h for h in hits if is_session_file(h.file) == short][:wanted]
    hits, near = handed_over(ws, hits, context=context, budget=budget)
    print_hits(hits, " ".join(query), as_json=as_json, context=near)


def _json_line(data: dict[str, Any]) -> str:
    import json

    return json.dumps(data, ensure_ascii=False) + "\n"


def stats(
    ctx: typer.Context,
    agent: Annotated[str | None, typer.Argument(help="Agent id (default: every agent).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Show what the search index holds and how often memory was recalled.

    Files and blocks indexed, index size on disk, last sync, files waiting to
    be re-indexed, searches with hits and the most recalled files.

    Examples:

        memclaw stats

        memclaw stats demo --json
    """
    from memclaw.index import global_stats
    from memclaw.index import stats as agent_stats

    ws = state(ctx).workspace()
    if agent:
        rows = [agent_stats(ws.agent(agent))]
    else:
        rows = [agent_stats(ws.agent(a)) for a in ws.agent_ids()]
        if ws.global_dir.is_dir():
            rows.append(global_stats(ws))
    if as_json:
        sys.stdout.write(_json_line({"root": str(ws.root), "indexes": [r.to_dict() for r in rows]}))
        return
    if not rows:
        where = ws.root_choice.told()
        sys.stderr.write(f"no agents under {where}; create one with `memclaw init NAME`\n")
        return
    _stats_table(rows)


def _stats_table(rows: list[IndexStats]) -> None:
    from rich.table import Table

    from memclaw.cli.render import human_size, out, print_table

    table = Table(title="search index", title_justify="left")
    for column in ("index", "files", "blocks", "size", "synced", "stale", "recalled"):
        left = column in ("index", "synced")
        width = max(len(r.name) for r in rows) if column == "index" else None
        table.add_column(column, justify="left" if left else "right", no_wrap=True, min_width=width)
    for r in rows:
        personal = f" ({r.personal_files} personal)" if r.personal_files else ""
        table.add_row(
            r.name,
            f"{r.files}{personal}",
            str(r.blocks),
            human_size(r.index_bytes) if r.exists else "none",
            (r.last_sync or "never")[:16].replace("T", " "),
            str(r.pending),
            str(r.recalled),
        )
    console = out()
    print_table(table, console)
    for r in rows:
        if r.top_files:
            top = ", ".join(f"{t['file']} ({t['hits']})" for t in r.top_files)
            searches = plural(r.searches, "search", "searches")
            console.print(f"{r.name}: {searches} with hits; most recalled: {top}")


def reindex(
    ctx: typer.Context,
    agent: Annotated[str | None, typer.Argument(help="Agent id to rebuild.")] = None,
    all_agents: AllOpt = False,
    shard: Annotated[
        str | None,
        typer.Option("--shard", help="With --all: only shard I of N (I/N) of the agents."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Rebuild the search index from the markdown files alone, and embed what has no vector.

    The index holds nothing else, so this is always safe; cached embeddings of
    unchanged lines are kept, those of lines that changed are dropped. Searches
    bring the index up to date on their own: use this after upgrading memclaw or
    if the index looks wrong. With an embedding model
    configured, every block without a vector is embedded, with a progress bar;
    Ctrl-C keeps what was embedded and the next run does the rest. With --all one
    agent failing does not stop the others (exit status 1 at the end).

    Examples:

        memclaw reindex demo

        memclaw reindex --all --json

        memclaw reindex --all --shard 1/2
    """
    from memclaw.index import reindex as rebuild

    if bool(agent) == bool(all_agents):
        raise UsageError("name one agent, or pass --all to rebuild every index")
    if shard and not all_agents:
        raise UsageError("--shard splits --all between hosts; pass --all with it")
    ws = state(ctx).workspace()
    if agent:
        result = _with_progress(agent, partial(rebuild, ws.agent(agent)))
        result.embedded = _embed(agent, ws.agent(agent))
        _say_rebuilt(agent, result, as_json)
        return
    from memclaw.jobs.batch import Target
    from memclaw.jobs.runner import JobOutcome, Shard, reindex_work, run_jobs, select_shard

    part = Shard.parse(shard) if shard else None
    targets = [Target(a) for a in select_shard(ws.agent_ids(), part)]
    if ws.global_dir.is_dir() and (part is None or part.index == 1):
        targets.append(Target("_global"))

    def report(outcome: JobOutcome) -> None:
        if outcome.result is not None:
            _say_rebuilt(outcome.target.agent, outcome.result, as_json)
        else:
            sys.stderr.write(f"{outcome.target.agent}: failed: {outcome.error}\n")

    summary = run_jobs(ws, "reindex", targets, reindex_work, workers=1, shard=part, on_done=report)
    if summary.failed:
        raise typer.Exit(1)


def _say_rebuilt(name: str, result: SyncStats, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(_json_line({"index": name, **_brief(result)}))
    else:
        embedded = f", {result.embedded:,} embedded" if result.embedded else ""
        sys.stderr.write(
            f"{name}: {plural(result.added, 'file')}, {plural(result.blocks, 'block')}, "
            f"{result.bytes / 1e6:.1f} MB in {result.seconds:.2f} s{embedded}\n"
        )


def _embed(name: str, agent: Agent) -> int:
    """Embed the agent's blocks that have no vector, with a bar of blocks and rate on a
    terminal; Ctrl-C stops with what was embedded kept."""
    import time

    from memclaw.index import embed_index

    if not agent.workspace.settings.embedding_configured:
        return 0
    done = [0, 0]
    started = time.monotonic()

    def note(count: int, total: int) -> None:
        done[:] = [count, total]

    try:
        if not sys.stderr.isatty():
            return embed_index(agent, progress=note)
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        from memclaw.cli.render import err

        columns = (TextColumn("embedding {task.description}"), BarColumn(), MofNCompleteColumn())
        with Progress(*columns, TextColumn("{task.fields[rate]}"), console=err()) as bar:
            task = bar.add_task(name, total=None, rate="")

            def shown(count: int, total: int) -> None:
                note(count, total)
                rate = count / max(time.monotonic() - started, 1e-9)
                bar.update(task, completed=count, total=total, rate=f"{rate:.1f} a second")

            return embed_index(agent, progress=shown)
    except KeyboardInterrupt:
        sys.stderr.write(
            f"{name}: stopped with {done[0]} of {plural(done[1], 'block')} embedded (kept); "
            f"`memclaw reindex {name}` embeds the rest\n"
        )
        raise typer.Exit(130) from None


def _with_progress(name: str, run: Callable[..., SyncStats]) -> SyncStats:
    """Run a rebuild, with a progress bar on stderr when it is a terminal."""
    if not sys.stderr.isatty():
        return run()
    from rich.progress import Progress

    from memclaw.cli.render import err

    with Progress(console=err(), transient=True) as bar:
        task = bar.add_task(f"indexing {name}", total=None)
        return run(progress=lambda done, total: bar.update(task, completed=done, total=total))


def _brief(result: SyncStats) -> dict[str, Any]:
    data = result.to_dict()
    data.pop("changed")
    data.pop("removed")
    return data


def watch(
    ctx: typer.Context,
    agents: Annotated[
        list[str] | None, typer.Argument(help="Agents to watch (default: all, and GLOBAL).")
    ] = None,
) -> None:
    """Keep the search index in step with edits to the files, until Ctrl-C.

    Edits by people and other programs are picked up after a short quiet time
    (setting watch_debounce_ms), including editors' save-by-rename, renames
    and deletes. Each change is printed with what was re-indexed.

    Examples:

        memclaw watch

        memclaw --set watch_debounce_ms=1000 watch demo
    """
    from memclaw.index.watch import run_watch

    ws = state(ctx).workspace()
    run_watch(ws, agents or None, report=_status)


def _status(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def register(app: typer.Typer) -> None:
    app.command()(search)
    app.command()(stats)
    app.command()(reindex)
    app.command()(watch)
