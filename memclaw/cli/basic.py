"""Foundation commands: init, status, prompt and config (``memclaw files`` is in cli/memory)."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from memclaw.cli.render import err, print_json, print_table
from memclaw.cli.state import complete_agent, scope, state
from memclaw.errors import MemclawError

AgentArg = Annotated[
    str,
    typer.Argument(
        help="Agent id (a folder under the workspaces root).", autocompletion=complete_agent
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
ModelOpt = Annotated[
    str | None, typer.Option("--model", help="Chat model for this run (default: setting).")
]


OwnerOpt = Annotated[
    str | None, typer.Option("--owner", help="Owner key, e.g. user:alice or telegram:123.")
]

CONFIG_HELP = """Inspect and change settings.

Examples:

    memclaw config show

    memclaw config set memory_max_chars 12000

    memclaw config get model
"""

NOT_RUN = frozenset({"skipped", "stopped", "failed", "disabled", "undone"})

config_app = typer.Typer(help=CONFIG_HELP, no_args_is_help=True)


def init(ctx: typer.Context, agent: AgentArg) -> None:
    """Create an agent with seeded AGENTS.md, SOUL.md, PROFILE.md and MEMORY.md.

    Existing files are never overwritten, so running it twice is safe.

    Examples:

        memclaw init assistant

        memclaw --root ~/agents init research
    """
    ws = state(ctx).workspace(creating=True)
    created_agent, created = ws.init_agent(agent)
    if created:
        err().print(f"created {created_agent.path} with {', '.join(created)}")
        # The first thing a newcomer wants to do next, with the agent's own name in it (and
        # the root it was made under, when --root named one: else the next command misses it).
        import shlex

        typed = state(ctx).root
        memclaw = f"memclaw --root {shlex.quote(typed)}" if typed else "memclaw"
        name = created_agent.id
        err().print(
            f"next: `{memclaw} chat {name}` to talk to it, "
            f'or `{memclaw} remember {name} "…"` to give it a fact',
            soft_wrap=True,
            markup=False,
        )
    else:
        err().print(f"{created_agent.path} already has its core files; nothing changed")


def status(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Show every agent: files, sizes, ceilings, last extraction and dream, and the day
    it lives on when it has one of its own.

    Examples:

        memclaw status

        memclaw status --json
    """
    from memclaw.workspace.logs import last_record

    ws = state(ctx).workspace()
    settings = ws.settings
    ceilings = {"PROFILE.md": settings.profile_max_chars, "MEMORY.md": settings.memory_max_chars}
    agents: list[dict[str, Any]] = []
    for agent_id in ws.agent_ids():
        try:
            agent = ws.agent(agent_id)
            files = agent.list_files()
        except MemclawError as exc:  # one agent's problem is its row, not the end of status
            agents.append({"agent": agent_id, "problem": str(exc)})
            continue
        # A skipped or failed run did not extract or dream anything.
        extracted = last_record(agent, "extract", skip_status=NOT_RUN)
        dreamed = last_record(agent, "dream", skip_status=NOT_RUN)
        agents.append(
            {
                "agent": agent_id,
                "path": str(agent.path),
                "files": [
                    {
                        "name": f.name,
                        "size": f.size,
                        "enabled": f.enabled,
                        "ceiling": ceilings.get(f.name),
                    }
                    for f in files
                ],
                "daily_notes": sum(1 for f in files if f.name.startswith("memory/")),
                "owners": agent.owners(),
                "last_extracted": extracted and extracted.get("time"),
                "last_dreamed": dreamed and dreamed.get("time"),
                # A day of its own (``today:`` in agent.yaml): its dates follow that day.
                "today": agent.pinned_day and agent.pinned_day.isoformat(),
            }
        )
    choice = ws.root_choice
    if as_json:
        print_json({"root": str(ws.root), "root_reason": choice.reason, "agents": agents})
        return
    from rich.markup import escape
    from rich.table import Table

    exists = "" if ws.root.is_dir() else ", not created yet"
    err().print(f"root: {ws.root} ({choice.reason}{exists})", soft_wrap=True)
    if not agents:
        err().print(f"no agents under {ws.root_choice.told()}; create one with `memclaw init NAME`")
        return
    table = Table(title=f"agents under {ws.root}", title_justify="left")
    for column in ("agent", "core files", "daily notes", "owners", "extracted", "dreamed"):
        table.add_column(column)
    for row in agents:
        if "problem" in row:
            table.add_row(row["agent"], f"[red]{escape(row['problem'])}[/]", "", "", "", "")
            continue
        core = []
        for f in row["files"]:
            if f["enabled"] or f["ceiling"]:
                limit = f" / {f['ceiling']}" if f["ceiling"] else ""
                flag = "" if f["enabled"] else " (off)"
                core.append(f"{f['name']} {f['size']}{limit}{flag}")
        table.add_row(
            row["agent"] + (f"\nlives on {row['today']}" if row["today"] else ""),
            "\n".join(core),
            str(row["daily_notes"]),
            str(len(row["owners"])),
            row["last_extracted"] or "never",
            row["last_dreamed"] or "never",
        )
    print_table(table)


def prompt(
    ctx: typer.Context, agent: AgentArg, owner: OwnerOpt = None, as_json: JsonOpt = False
) -> None:
    """Print the system prompt exactly as the model receives it, with token counts.

    The prompt text goes to stdout; the per-block token table goes to stderr.

    Examples:

        memclaw prompt demo

        memclaw prompt demo --owner user:maya --json
    """
    from memclaw.prompt import assemble_prompt

    assembled = assemble_prompt(scope(ctx, agent, owner))
    if as_json:
        print_json(
            {
                "agent": assembled.agent,
                "owner": assembled.owner,
                "tokens": assembled.total_tokens,
                "exact": assembled.exact_tokens,
                "counter": assembled.counter,
                "omitted_entries": assembled.omitted_entries,
                "notes": assembled.notes,
                "blocks": [
                    {"label": b.label, "source": b.source, "tokens": b.tokens, "text": b.text}
                    for b in assembled.blocks
                ],
                "text": assembled.text,
            }
        )
        return
    sys.stdout.write(assembled.text + "\n")
    from rich.table import Table

    kind = "tokens" if assembled.exact_tokens else "tokens (estimate)"
    table = Table(title=f"prompt of {agent} ({assembled.counter})", title_justify="left")
    table.add_column("block")
    table.add_column(kind, justify="right")
    for block in assembled.blocks:
        table.add_row(block.label, str(block.tokens))
    table.add_row("[bold]total[/]", f"[bold]{assembled.total_tokens}[/]")
    err().print(table)
    for note in assembled.notes:  # what was left out, and why
        err().print(f"note: {note}", markup=False, highlight=False, soft_wrap=True)


@config_app.command("show")
def config_show(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Print every setting's effective value and where it came from.

    Sources, lowest first: default, memclaw.yaml at the root, the user's config
    file, MEMCLAW_* environment variables, --set flags.

    Examples:

        memclaw config show

        memclaw --set memory_max_chars=12000 config show --json
    """
    import os

    from memclaw.config import config_files, describe

    ws = state(ctx).workspace()
    rows = describe(ws.settings)
    files = [str(p) for p in config_files(ws.root, os.environ)]
    if as_json:
        print_json({"root": str(ws.root), "files": files, "settings": rows})
        return
    err().print(f"read: {', '.join(files) or 'no settings file'}", soft_wrap=True, markup=False)
    from rich.table import Table

    table = Table(title=f"settings for {ws.root}", title_justify="left")
    for column in ("key", "value", "source"):
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(row["key"], str(row["value"]), row["source"])
    print_table(table)


def register(app: typer.Typer) -> None:
    app.command()(init)
    app.command()(status)
    app.command()(prompt)
    app.add_typer(config_app, name="config")
