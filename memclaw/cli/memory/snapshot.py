"""Snapshot commands: export an agent's memory to a zip, and import one back."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from memclaw.cli.basic import AgentArg, JsonOpt
from memclaw.cli.render import err, human_size, print_json, print_table
from memclaw.cli.state import state
from memclaw.errors import UsageError
from memclaw.text.plural import plural
from memclaw.workspace import normalise_owner

if TYPE_CHECKING:
    from memclaw.snapshot import FileDiff, ImportResult
    from memclaw.workspace import Workspace


def export(
    ctx: typer.Context,
    agent: AgentArg,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE.zip|-",
            help="Where to write the zip; - for stdout. Default: AGENT-memclaw-YYYYMMDD.zip here.",
        ),
    ] = None,
    owner: Annotated[
        list[str] | None,
        typer.Option("--owner", help="Also carry this owner's personal memory (repeatable)."),
    ] = None,
    all_owners: Annotated[
        bool, typer.Option("--all-owners", help="Also carry every owner's personal memory.")
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing output file.")
    ] = False,
) -> None:
    """Pack an agent's memory into one zip, for backup or to clone the agent elsewhere.

    Carries AGENTS.md, SOUL.md, PROFILE.md, MEMORY.md, KNOWLEDGE.md, DREAMS.md, the
    daily notes and the memory entries, plus a manifest.json with each file's size and
    SHA-256. Personal memory is included only with --owner or --all-owners. What memory
    knows about those files travels too, under state/ (forgotten fingerprints, evidence,
    the inbox, the change journal and the sessions its extractions quote), so a clone
    answers facts, why and timeline alike. Injection settings, the index, history and
    other logs stay behind. The same files always give the same zip, byte for byte.

    Examples:

        memclaw export demo

        memclaw export demo -o backup.zip --all-owners --force

        memclaw export demo -o - | ssh laptop memclaw import demo -
    """
    from memclaw.snapshot import default_filename, export_snapshot, write_snapshot_file

    found = state(ctx).workspace().agent(agent)
    result = export_snapshot(
        found, [normalise_owner(o) for o in owner or []], all_owners=all_owners
    )
    if output == "-":
        if sys.stdout.isatty():
            raise UsageError("refusing to write a zip to the terminal: redirect stdout or use -o")
        sys.stdout.buffer.write(result.data)
        sys.stdout.flush()
        where = "stdout"
    else:
        path = Path(output) if output else Path(default_filename(found))
        where = str(write_snapshot_file(path, result.data, force=force))
    size = human_size(len(result.data))
    _status(f"exported {plural(len(result.files), 'file')} of {agent} ({size}) to {where}")


def import_(
    ctx: typer.Context,
    agent: AgentArg,
    source: Annotated[
        str, typer.Argument(metavar="FILE.zip|-", help="Snapshot zip, or - to read it from stdin.")
    ],
    dry_run: Annotated[
        bool,
        typer.Option("--dry-run", "--preview", help="Show what would change; write nothing."),
    ] = False,
    diff: Annotated[
        bool,
        typer.Option(
            "--diff",
            help="With --dry-run: a unified diff of each file an update would replace, and a "
            "warning for each of those edited since memclaw last wrote or imported it.",
        ),
    ] = False,
    owners: Annotated[
        list[str] | None,
        typer.Option(
            "--owner",
            metavar="OWNER",
            help="Also import this owner's personal memory (repeatable); without it, "
            "personal memory in the zip is listed and left out.",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Import a snapshot zip into an agent, new or existing, all files or none.

    Every file is checked first (names, sizes, UTF-8, checksums, secrets); one bad
    file rejects the whole zip. Then each file is created, updated or left unchanged;
    files that are not memory files are skipped and listed. Replaced files keep their
    previous version (`memclaw files versions`). With --dry-run nothing is written.

    Examples:

        memclaw import demo backup.zip --dry-run

        memclaw import demo backup.zip --dry-run --diff

        memclaw import clone backup.zip

        memclaw import demo - --json < backup.zip

        memclaw import clone backup.zip --owner user:maya
    """
    from memclaw.snapshot import import_snapshot, load_path, read_snapshot, read_source, recover

    if diff and not dry_run:
        raise UsageError("--diff shows what an import would replace: add --dry-run")
    ws = state(ctx).workspace()
    # An import that was interrupted is finished first, even if this zip turns out bad.
    recovered = [] if dry_run else recover(ws, agent)
    if recovered:
        _status(f"finished an interrupted import: {plural(len(recovered), 'file')}")
    if source == "-":
        if sys.stdin.isatty():
            raise UsageError("no snapshot on stdin: pipe a zip in, or give FILE.zip")
        data = read_source(sys.stdin.buffer)
    else:
        data = load_path(Path(source))
    from memclaw.workspace import normalise_owner

    named = [normalise_owner(owner) for owner in owners or []]
    result = import_snapshot(ws, agent, read_snapshot(data), dry_run=dry_run, owners=named)
    diffs = _diffs(ws, result) if diff else []
    if as_json:
        payload = result.to_dict()
        payload["recovered"] = recovered + result.recovered
        if diff:
            payload["diffs"] = [d.to_dict() for d in diffs]
        print_json(payload)
    else:
        _table(result)
        for found in diffs:
            sys.stdout.write(found.diff)
    for warning in result.plan.warnings:
        _status(f"warning: {warning}")
    for found in diffs:
        if found.edited:
            _status(
                f"warning: {agent}/{found.path} was edited since memclaw last wrote or "
                "imported it; importing replaces those edits (the old version is kept: "
                f"`memclaw files versions {agent} {found.path}`)"
            )
    _summary(result)


def _diffs(ws: Workspace, result: ImportResult) -> list[FileDiff]:
    from memclaw.snapshot import plan_diffs

    if not result.plan.agent_exists:
        return []  # a new agent: nothing is replaced
    return plan_diffs(ws.agent(result.plan.agent), result.plan)


def _table(result: ImportResult) -> None:
    from rich.table import Table

    plan = result.plan
    title = f"import into {plan.agent}" + (" (dry run)" if not result.applied else "")
    table = Table(title=title, title_justify="left")
    table.add_column("file")
    table.add_column("action")
    table.add_column("size", justify="right")
    table.add_column("change", justify="right")
    table.add_column("note", overflow="fold")
    for row in plan.rows:
        size = row.new_size if row.new_size is not None else row.old_size
        change = f"{row.delta:+,d} B" if row.delta else ""
        table.add_row(
            row.path,
            str(row.action),
            "" if size is None else human_size(size),
            change,
            row.note,
        )
    print_table(table, markup=False)


def _summary(result: ImportResult) -> None:
    counts = result.plan.counts()
    words = (
        ("to create", "to update", "unchanged", "skipped")
        if not result.applied
        else ("created", "updated", "unchanged", "skipped")
    )
    keys = ("create", "update", "unchanged", "skip")
    parts = ", ".join(f"{counts[key]} {word}" for key, word in zip(keys, words, strict=True))
    if not result.applied:
        note = " (an interrupted import will be finished first)"
        pending = note if result.plan.pending_recovery else ""
        _status(f"dry run for {result.plan.agent}: {parts}; nothing written{pending}")
    elif result.written:
        _status(f"imported into {result.plan.agent}: {parts}")
    else:
        _status(f"{result.plan.agent} already matches the snapshot; nothing written")


def _status(message: str) -> None:
    err().print(message, markup=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("export")(export)
    app.command("import")(import_)
