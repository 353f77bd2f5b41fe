"""memclaw extract and memclaw scan: distil a conversation, find secrets on disk."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from memclaw.cli.basic import (
    AgentArg,
    JsonOpt,
    ModelOpt,
    OwnerOpt,
)
from memclaw.cli.render import err, print_json, write_lines
from memclaw.cli.state import refuse_model_without_endpoint, state
from memclaw.errors import UsageError
from memclaw.text.plural import plural
from memclaw.workspace import Scope


def extract(
    ctx: typer.Context,
    agent: AgentArg,
    transcript: Annotated[
        str | None,
        typer.Argument(
            metavar="-", help="'-' reads the transcript from stdin.", show_default=False
        ),
    ] = None,
    session: Annotated[
        str | None, typer.Option("--session", help="Session id: sessions/ID.jsonl of the agent.")
    ] = None,
    transcript_file: Annotated[
        str | None,
        typer.Option("--transcript", "-t", metavar="FILE", help="Transcript file ('-' for stdin)."),
    ] = None,
    owner: OwnerOpt = None,
    force: Annotated[
        bool, typer.Option("--force", help="Ignore the preconditions and the cooldown.")
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show the diff that would be written; write nothing.")
    ] = False,
    again: Annotated[
        bool,
        typer.Option("--again", help="Read every turn of the session, even those extracted."),
    ] = False,
    model: ModelOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Distil a conversation into PROFILE.md, MEMORY.md and today's note.

    The transcript is a chat session of the agent, a file, or stdin: OpenAI-style
    JSON messages (an array, or an object with "messages"), JSON lines, or plain
    text with "User:" / "Assistant:" turns. Secrets are redacted before anything
    reaches a model or a file. With no model configured the offline rule-based
    engine does the work. A session's turns are extracted once: running it again
    reads only the turns added since (--again reads them all). Each run is logged
    in the ledger (memclaw log AGENT extract).

    Examples:

        memclaw extract demo --session 2026-11-28-demo

        memclaw extract demo --transcript chat.json --owner user:maya --dry-run

        cat chat.txt | memclaw extract demo - --force --json
    """
    from memclaw.extract.pipeline import extract_conversation
    from memclaw.extract.transcripts import load_session, load_transcript

    sources = [s for s in (session, transcript_file, transcript) if s is not None]
    if len(sources) != 1:
        raise UsageError("give exactly one of --session ID, --transcript FILE or - (stdin)")
    if transcript is not None and transcript != "-":
        raise UsageError(f"unexpected argument {transcript!r}: use --transcript FILE or -")
    extra: dict[str, Any] = {"model": model} if model else {}
    ws = state(ctx).workspace(**extra)
    refuse_model_without_endpoint(model, ws.settings)
    # A key such as agent:researcher:<uuid> is that agent's session, whatever AGENT says.
    where = Scope.resolve(ws.agent(agent), owner).for_session(session)
    if session is not None:
        messages = load_session(where, session)
    else:
        messages = load_transcript(transcript_file or "-")
    if not ws.settings.model_configured:
        err().print("no model configured: using the offline rule-based engine")
    result = extract_conversation(
        where, messages, session_id=session, force=force, dry_run=dry_run, again=again
    )
    if as_json:
        print_json(result.to_dict())
        return
    for diff in result.diffs.values():
        sys.stdout.write(diff if diff.endswith("\n") else diff + "\n")
    if result.change:
        from memclaw.changes.receipt import receipt_lines
        from memclaw.changes.records import find

        change = find(where, result.change)
        if change is not None:
            write_lines(receipt_lines(change, where))
    console = err()
    verb = "would write" if dry_run else "wrote"
    console.print(f"{result.status}: {result.reason}", markup=False)
    if result.files_changed:
        console.print(f"{verb} {', '.join(result.files_changed)}", markup=False)
    elif dry_run and result.diffs:
        console.print(f"{verb} {', '.join(result.diffs)}", markup=False)
    if result.redacted:
        console.print(f"redacted {plural(result.redacted, 'secret')} from the model's answer")
    if result.tokens:
        console.print(f"tokens: {result.prompt_tokens} in, {result.completion_tokens} out")
    for note in result.notes:
        console.print(note, markup=False)


def scan(
    ctx: typer.Context,
    agent: Annotated[
        str | None, typer.Argument(help="Agent to scan (default: every agent and _global).")
    ] = None,
    all_agents: Annotated[
        bool, typer.Option("--all", help="Scan every agent and _global.")
    ] = False,
    redact: Annotated[
        bool,
        typer.Option("--redact", help="Replace what is found, in every store, in place."),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Find credentials already on disk, wherever memclaw keeps text; optionally redact them.

    Looks at every store of each agent: memory files, chat sessions, previous
    versions of files, logs, the chat input history and the search index.
    Reports file:line: kind for every finding, never the secret itself, then a
    count per store. With --redact each file is rewritten in place with
    [REDACTED:kind] in place of the secret (no copy of the old text is kept) and
    the index is rebuilt and vacuumed so the SQLite file keeps none of it.
    Symlinks are never followed. Exits 1 when secrets remain (in the ledger too,
    while another process reading it keeps an old copy there).

    Examples:

        memclaw scan demo

        memclaw scan --all --json

        memclaw scan demo --redact
    """
    from memclaw.review.scan import scan_secrets

    if agent and all_agents:
        raise UsageError("give an AGENT or --all, not both")
    ws = state(ctx).workspace()
    report = scan_secrets(ws, [agent] if agent else None, redact=redact)
    if as_json:
        print_json(report.to_dict())
    else:
        for finding in report.findings:
            within = f" (in {finding.source})" if finding.source else ""
            sys.stdout.write(f"{finding.file}:{finding.line}: {finding.kind}{within}\n")
        console = err()
        for name in report.unreadable:
            console.print(f"could not read {name}", markup=False)
        for name in report.links:
            console.print(f"skipped {name} (a symlink; not followed)", markup=False)
        for store, count in report.stores.items():
            if count.files:
                done = f", {count.redacted} redacted" if redact else ""
                console.print(
                    f"{store}: {plural(count.findings, 'secret')} in "
                    f"{plural(count.files, 'file')}{done}",
                    markup=False,
                )
        console.print(
            f"{plural(len(report.findings), 'secret')} in "
            f"{plural(report.files_scanned, 'file')} scanned",
            markup=False,
        )
        for name in report.redacted:
            console.print(f"redacted {name}", markup=False)
        for name in report.held:
            console.print(
                f"an old copy of what was redacted stays in {name} while another process "
                "reads it: run `memclaw scan --redact` again once it is done",
                markup=False,
            )
    if (report.findings and not redact) or report.held:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command()(extract)
    app.command()(scan)
