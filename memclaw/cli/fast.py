"""The ``memclaw`` entry point, with a fast lane for ``memclaw search``.

Search is what an agent (or a shell alias) runs most, so its start-up time
matters. Loading typer costs more than the search itself (typer builds
pydantic validators for every option), so a well-formed ``memclaw search``
command line is parsed here by hand and answered directly. Anything else,
``--help``, an unknown flag, a value that does not parse, goes to the full
typer application, which stays the single source of truth for help and usage
errors. Both lanes call the same library function and the same printer.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
from dataclasses import dataclass, field

_SCOPES = ("all", "personal", "team", "global")
_VALUE_OPTIONS = {
    "--agent": "agent",
    "-a": "agent",
    "--owner": "owner",
    "--scope": "scope",
    "--since": "since",
    "--until": "until",
    "--limit": "limit",
    "-n": "limit",
    "--context": "context",
    "-C": "context",
    "--budget": "budget",
}


@dataclass
class SearchArgs:
    root: str | None = None
    sets: list[str] = field(default_factory=list)
    debug: bool = False
    words: list[str] = field(default_factory=list)
    agent: list[str] = field(default_factory=list)
    all_agents: bool = False
    owner: str | None = None
    scope: str = "all"
    since: str | None = None
    until: str | None = None
    limit: int | None = None
    as_json: bool = False
    context: int = 0
    budget: int | None = None


def _split(token: str) -> tuple[str, str | None]:
    name, sep, value = token.partition("=")
    return (name, value) if sep and name.startswith("--") else (token, None)


def parse_search(argv: list[str]) -> SearchArgs | None:
    """The arguments of a plain search command line, or None to let typer handle it."""
    args = SearchArgs()
    i = 0
    while i < len(argv) and argv[i].startswith("-"):
        name, value = _split(argv[i])
        if name == "--debug" and value is None:
            args.debug = True
        elif name in ("--root", "--set"):
            if value is None:
                i += 1
                if i >= len(argv) or argv[i].startswith("-"):
                    return None
                value = argv[i]
            if name == "--root":
                args.root = value
            else:
                args.sets.append(value)
        else:
            return None
        i += 1
    if i >= len(argv) or argv[i] != "search":
        return None
    rest = argv[i + 1 :]
    j = 0
    while j < len(rest):
        token = rest[j]
        if token == "--":
            args.words.extend(rest[j + 1 :])
            break
        if not token.startswith("-") or token == "-":
            args.words.append(token)
        elif token == "--json":
            args.as_json = True
        elif token == "--all":
            args.all_agents = True
        else:
            name, value = _split(token)
            key = _VALUE_OPTIONS.get(name)
            if key is None:
                return None
            if value is None:
                j += 1
                if j >= len(rest) or rest[j].startswith("-"):
                    return None
                value = rest[j]
            if not _store(args, key, value):
                return None
        j += 1
    if not args.words or (args.agent and args.all_agents):
        return None
    return args


def _store(args: SearchArgs, key: str, value: str) -> bool:
    if key == "agent":
        args.agent.append(value)
    elif key == "limit":
        if not value.isdigit() or int(value) < 1:
            return False
        args.limit = int(value)
    elif key == "context":
        if not value.isdigit() or int(value) > 20:
            return False  # typer says what is wrong with it
        args.context = int(value)
    elif key == "budget":
        if not value.isdigit() or int(value) < 1 or args.budget is not None:
            return False
        args.budget = int(value)
    elif key == "scope":
        if value not in _SCOPES:
            return False
        args.scope = value
    elif key in ("owner", "since", "until"):
        if getattr(args, key) is not None:
            return False  # repeated: let typer decide what that means
        setattr(args, key, value)
    return True


def run_search(args: SearchArgs) -> int:
    import sqlite3

    from memclaw.cli.recall.hits import print_hits
    from memclaw.config import parse_assignment
    from memclaw.errors import MemclawError, storage_refusal
    from memclaw.index import search
    from memclaw.workspace import Workspace, normalise_owner
    from memclaw.workspace.paths import check_root

    query = " ".join(args.words)
    try:
        overrides = dict(parse_assignment(item) for item in args.sets)
        ws = Workspace.open(args.root, os.environ, overrides)
        check_root(ws.root_choice)
        limit = args.limit
        if args.budget and limit is None:  # (only then: a plain search skips the module)
            from memclaw.index.query.context import BUDGET_LIMIT

            limit = BUDGET_LIMIT
        hits = search(
            ws,
            query,
            agents=args.agent or None,
            owner=normalise_owner(args.owner) if args.owner else None,
            scope=args.scope,
            since=args.since,
            until=args.until,
            limit=limit,
        )
        near = None
        if args.context or args.budget:
            from memclaw.index.query.context import handed_over

            hits, near = handed_over(ws, hits, context=args.context, budget=args.budget)
        print_hits(hits, query, as_json=args.as_json, context=near)
    except (MemclawError, OSError, sqlite3.Error) as exc:
        refusal = exc if isinstance(exc, MemclawError) else storage_refusal(exc)
        if refusal is None or args.debug:
            raise
        from memclaw.cli.render import error_line

        error_line(str(refusal))
        return refusal.exit_code
    return 0


_GLOBAL_FLAGS = ("--debug",)
_GLOBAL_VALUES = ("--root", "--set")


def hoist_globals(argv: list[str]) -> list[str]:
    """Move --root, --set and --debug to the front, wherever they were typed, so that
    ``memclaw status --root x`` means what ``memclaw --root x status`` does."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "--":
            rest.extend(argv[i:])
            break
        name = token.partition("=")[0]
        if token in _GLOBAL_FLAGS or (name in _GLOBAL_VALUES and "=" in token):
            front.append(token)
        elif token in _GLOBAL_VALUES and i + 1 < len(argv):
            front.extend(argv[i : i + 2])
            i += 1
        else:
            rest.append(token)
        i += 1
    return front + rest


def _dispatch() -> None:
    sys.argv[1:] = hoist_globals(sys.argv[1:])
    parsed = parse_search(sys.argv[1:])
    if parsed is None:
        from memclaw.cli.app import main as full

        full()
        return
    status = run_search(parsed)
    # Everything the search opened is written and closed. Python's last garbage collection
    # at exit would still walk every object the imports made, about 20 ms of a 100 ms cold
    # search; frozen just before it (atexit runs first), they are freed with the process.
    atexit.register(gc.freeze)
    sys.exit(status)


def main() -> None:
    # The one place a closed pipe is handled, for every command: while writing, or when the
    # last buffered rows are flushed (a piped stdout is flushed only at the end).
    try:
        try:
            _dispatch()
        finally:
            sys.stdout.flush()
    except BrokenPipeError:
        from memclaw.cli.render import leave_closed_pipe

        leave_closed_pipe()
