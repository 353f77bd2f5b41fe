"""``memclaw files``: list, read, write and edit an agent's markdown files.

``enable`` and ``disable`` (which files go into the prompt) are in ``files_meta``.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated, Any

import typer

from memclaw.cli.basic import AgentArg, JsonOpt
from memclaw.cli.render import err, human_size, piped_text, print_json, print_table
from memclaw.cli.state import state
from memclaw.text.plural import plural

FILES_HELP = """List, read, write and edit an agent's markdown files.

Examples:

    memclaw files list demo

    memclaw files read demo MEMORY.md
"""


class Strategy(StrEnum):
    """The CLI's spelling of WriteStrategy."""

    append = "append"
    replace_section = "replace-section"
    upsert_kv = "upsert-kv"
    overwrite = "overwrite"


files_app = typer.Typer(help=FILES_HELP, no_args_is_help=True)


@files_app.command("list")
def files_list(
    ctx: typer.Context,
    agent: AgentArg,
    prefix: Annotated[str, typer.Option("--prefix", help="Only names starting with this.")] = "",
    as_json: JsonOpt = False,
) -> None:
    """List an agent's markdown files, injected ones first by sort order.

    Examples:

        memclaw files list demo

        memclaw files list demo --prefix memory/ --json
    """
    from memclaw.workspace.files import list_files

    result = list_files(state(ctx).workspace().agent(agent), prefix)
    if as_json:
        print_json(result)
        return
    from rich.table import Table

    table = Table(title=f"{plural(result['count'], 'file')} of {agent}", title_justify="left")
    for column in ("file", "size", "injected", "order"):
        table.add_column(column)
    for f in result["files"]:
        order = "" if f["sort_order"] is None else str(f["sort_order"])
        table.add_row(f["name"], human_size(f["size"]), "yes" if f["enabled"] else "no", order)
    print_table(table)


@files_app.command("read")
def files_read(
    ctx: typer.Context,
    agent: AgentArg,
    name: Annotated[str, typer.Argument(help="File relative to the agent, e.g. MEMORY.md.")],
    version: Annotated[
        int | None,
        typer.Option(
            "--version",
            min=1,
            help="A previous version instead (1: the newest; `memclaw files versions` lists them).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Print one markdown file of an agent, or a previous version of it.

    Examples:

        memclaw files read demo MEMORY.md

        memclaw files read demo memory/2026-11-28.md --json

        memclaw files read demo MEMORY.md --version 1
    """
    from memclaw.workspace.files import read_file, read_version

    chosen = state(ctx).workspace().agent(agent)
    result = read_file(chosen, name) if version is None else read_version(chosen, name, version)
    if as_json:
        print_json(result)
    else:
        sys.stdout.write(result["content"])


@files_app.command("versions")
def files_versions(
    ctx: typer.Context,
    agent: AgentArg,
    name: Annotated[str, typer.Argument(help="File relative to the agent, e.g. MEMORY.md.")],
    as_json: JsonOpt = False,
) -> None:
    """List the previous versions of a file that memclaw keeps (the newest 20), newest first.

    Every rewrite keeps the text it replaced; `memclaw undo` walks back through them,
    and `memclaw files read AGENT FILE --version N` prints one.

    Examples:

        memclaw files versions demo MEMORY.md

        memclaw files versions demo PROFILE.md --json
    """
    from memclaw.workspace.files import file_versions

    result = file_versions(state(ctx).workspace().agent(agent), name)
    if as_json:
        print_json(result)
        return
    if not result["versions"]:
        err().print(f"{agent}/{result['filename']} has no previous version")
        return
    from rich.table import Table

    title = f"{plural(result['count'], 'previous version')} of {agent}/{result['filename']}"
    table = Table(title=title, title_justify="left")
    for column in ("version", "saved", "size", "lines"):
        table.add_column(column)
    for v in result["versions"]:
        table.add_row(str(v["version"]), v["saved"], human_size(v["size"]), str(v["lines"]))
    print_table(table)


@files_app.command("write")
def files_write(
    ctx: typer.Context,
    agent: AgentArg,
    name: Annotated[str, typer.Argument(help="File relative to the agent, e.g. NOTES.md.")],
    content: Annotated[
        str | None, typer.Option("--content", "-c", help="New content; read from stdin if absent.")
    ] = None,
    strategy: Annotated[
        Strategy, typer.Option("--strategy", help="How the content goes into the file.")
    ] = Strategy.overwrite,
    section: Annotated[
        str | None, typer.Option("--section", help="Heading for replace-section, e.g. Diet.")
    ] = None,
    key: Annotated[str | None, typer.Option("--key", help="Key for upsert-kv.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Write a file: overwrite it (default), append, replace one section, or upsert a
    key (a new file is not injected until enabled).

    Examples:

        memclaw files write demo NOTES.md -c "# Notes"

        cat draft.md | memclaw files write demo MEMORY.md

        memclaw files write demo PROFILE.md --strategy replace-section --section Diet -c "- veg"

        memclaw files write demo PROFILE.md --strategy upsert-kv --key timezone -c "Europe/Oslo"
    """
    from memclaw.workspace import WriteStrategy
    from memclaw.workspace.files import write_file

    text = content if content is not None else _stdin_text()
    result = write_file(
        state(ctx).workspace().agent(agent),
        name,
        text,
        strategy=WriteStrategy(strategy.value.replace("-", "_")),
        section=section,
        key=key,
    )
    _report_write(result, as_json)


@files_app.command("edit")
def files_edit(
    ctx: typer.Context,
    agent: AgentArg,
    name: Annotated[str, typer.Argument(help="File relative to the agent.")],
    old: Annotated[str, typer.Option("--old", help="Exact text to replace.")],
    new: Annotated[str, typer.Option("--new", help="Replacement text.")],
    replace_all: Annotated[
        bool, typer.Option("--all", help="Replace every occurrence, not just a unique one.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Replace exact text in a file and report how many replacements were made.

    Examples:

        memclaw files edit demo MEMORY.md --old "Dec 5" --new "Dec 12"

        memclaw files edit demo PROFILE.md --old Poetry --new uv --all
    """
    from memclaw.workspace.files import edit_file

    result = edit_file(state(ctx).workspace().agent(agent), name, old, new, replace_all)
    _report_write(result, as_json)


def _report_write(result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(result)
        return
    if "replacements" in result:
        err().print(f"{result['filename']}: {plural(result['replacements'], 'replacement')}")
    else:
        verb = "created" if result["created"] else "wrote"
        err().print(f"{verb} {result['filename']} ({result['chars']} chars)")
    if result.get("warning"):
        from rich.markup import escape

        err().print(f"[yellow]{escape(result['warning'])}[/]", soft_wrap=True, highlight=False)


def _stdin_text() -> str:
    from memclaw.errors import UsageError

    if sys.stdin.isatty():
        raise UsageError("no content: pass --content TEXT or pipe the text on stdin")
    return piped_text()


def register(app: typer.Typer) -> None:
    app.add_typer(files_app, name="files")
