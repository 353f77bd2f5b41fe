"""Slash commands typed in a chat: the person acting on memory directly.

Each command returns a :class:`Reply` (text, markdown or rows) that the
terminal front end renders; nothing here prints. Commands that write are
refused in subagent chats, which capture nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memclaw.errors import MemclawError, ModelError, UsageError
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.chat.engine import ChatEngine

_ID = re.compile(r"m-[0-9a-z]{4,}")

HELP = [
    ("/remember TEXT", "keep one fact as a memory entry"),
    ("/forget ID|WORDS", "forget a fact everywhere (asks first; --yes does not)"),
    ("/undo", "revert the last memory change, files and beliefs (a forget is final)"),
    ("/search QUERY", "search all memory files of this agent"),
    ("/good", "the memories recalled for the last answer were right: trust them more"),
    ("/bad", "the memories recalled for the last answer were wrong: trust them less"),
    ("/memory", "show MEMORY.md and the newest memory entries"),
    ("/profile", "show PROFILE.md"),
    ("/prompt", "show the system prompt (files and memory) of the next turn"),
    ("/tokens", "where the prompt's tokens go, and how full the window is"),
    ("/dream [apply]", "preview tonight's consolidation of daily notes; 'apply' runs it"),
    ("/why [FACT]", "which memories and files shaped the last answer; with FACT, its history"),
    ("/morning [confirm|forget ID, edit ID TEXT, skip]", "the last dream's card, and your choices"),
    ("/help", "this list"),
    ("/exit", "end the chat (Ctrl-D works too)"),
]


@dataclass
class Reply:
    """What a command has to say. ``rows`` render as a two-column table."""

    text: str = ""
    markdown: bool = False
    rows: list[tuple[str, str]] = field(default_factory=list)
    title: str = ""
    error: bool = False
    exit: bool = False
    operation: dict[str, Any] | None = None


def is_command(line: str) -> bool:
    return line.startswith("/") and not line.startswith("//")


Ask = Callable[[str], bool]  # shows a question, returns the person's y/N


def run_command(engine: ChatEngine, line: str, *, ask: Ask | None = None) -> Reply:
    """Run one ``/command args`` line; library errors become an error reply.

    ``ask`` puts a y/N question to the person (a terminal chat passes one); a
    command that asks first, like ``/forget``, refuses without it unless given
    ``--yes``, as ``memclaw forget`` does when stdin is not a terminal.
    """
    name, _, rest = line.strip().partition(" ")
    handler = _COMMANDS.get(name.lower())
    if handler is None:
        return Reply(f"unknown command {name}; /help lists the commands", error=True)
    if handler is _forget:
        handler = functools.partial(_forget, ask=ask)
    try:
        reply = handler(engine, rest.strip())
    except MemclawError as exc:
        return Reply(str(exc), error=True)
    if reply.operation is not None:
        engine.memory_operations.append(reply.operation)
        engine.note_own_writes()
    return reply


def _writable(engine: ChatEngine, what: str) -> None:
    if engine.session.subagent:
        raise UsageError(f"a subagent chat captures nothing: {what} is not available here")


def _help(engine: ChatEngine, _args: str) -> Reply:
    return Reply(rows=list(HELP), title="commands")


def _exit(engine: ChatEngine, _args: str) -> Reply:
    return Reply(exit=True)


def _remember(engine: ChatEngine, args: str) -> Reply:
    from memclaw.entries.memories import Action, remember

    _writable(engine, "/remember")
    if not args:
        raise UsageError("usage: /remember TEXT")
    result = remember(engine.scope, args, source="chat", model=engine.tools.judge)
    if result.entry is None:
        kept = result.action in (Action.UPDATED, Action.UNCHANGED)
        return Reply(f"{result.action if kept else 'not remembered'}: {result.reason}")
    entry = result.entry
    said = "already known as" if result.action is Action.UNCHANGED else str(result.action)
    text = f"{said} {entry.id} [{entry.category}]: {entry.text}"
    operation = {
        "op": "store",
        "action": str(result.action),
        "id": entry.id,
        "text": entry.text,
        "category": entry.category,
        "long_term": True,
        "by": "person",
    }
    return Reply(text, operation=operation)


def _forget(engine: ChatEngine, args: str, ask: Ask | None = None) -> Reply:
    """``memclaw forget`` from the chat: the fact goes from every place of this scope.

    Like the CLI it shows what it would remove and asks y/N first; ``--yes``
    skips the question, and without a way to ask it removes nothing.
    """
    from memclaw.entries.lookup import get_memory
    from memclaw.erasure import NothingMatchesError, apply_forget, plan_forget
    from memclaw.facts.ids import fact_id

    _writable(engine, "/forget")
    words = args.split()
    yes = any(w in ("--yes", "-y") for w in words)
    args = " ".join(w for w in words if w not in ("--yes", "-y"))
    if not args:
        raise UsageError("usage: /forget ID or /forget WORDS (add --yes to skip the question)")
    scope, session = engine.scope, engine.session
    target = args
    if _ID.fullmatch(args):
        target = fact_id(get_memory(scope, args).text.strip(), scope.prefix)
    try:
        plan = plan_forget(scope, target)
    except NothingMatchesError:
        return Reply(f"nothing in memory matches {args!r}; nothing forgotten")
    if not yes:
        if ask is None:
            return Reply(
                f"/forget removes a fact everywhere and asks first, but this chat cannot ask: "
                f"type /forget --yes {args} to forget, nothing was removed",
                error=True,
            )
        facts = "; ".join(f.statement for f in plan.facts) or "what the transcripts and logs say"
        shown = f"forget {facts} (from {plural(plan.place_count, 'place')})?"
        if not ask(shown):
            return Reply("nothing forgotten")
    plan = apply_forget(plan, own_session=session.id)
    # This conversation forgets it too: later turns do not send it to the model again.
    session.messages[:] = [plan.matcher.redact_data(m)[0] for m in session.messages]
    rows = [(fact.id, fact.statement) for fact in plan.facts]
    operation = {"op": "forget", "ids": [fact.id for fact in plan.facts], "by": "person"}
    title = f"forgot {len(plan.facts)}, from {plural(plan.place_count, 'place')}; not learned again"
    if plan.mem0 is not None:
        title += f"; {plan.mem0.line(scope.agent.id)}"
    return Reply(rows=rows, title=title, operation=operation)


def _undo(engine: ChatEngine, args: str) -> Reply:
    """``memclaw undo`` from the chat: the same change, the same receipt of what it did."""
    from memclaw.changes.receipt import file_lines
    from memclaw.changes.records import find
    from memclaw.changes.undo import undo_last

    _writable(engine, "/undo")
    done = undo_last(engine.scope, skip_forget=args.strip() == "--skip-forget")
    own = find(engine.scope, done.undo_id) if done.undo_id else None
    rows = [
        (delta.rel, line.strip())
        for delta in (own.files if own is not None else [])
        for line in file_lines(delta)
    ]
    change = done.change
    operation = {"op": "undo", "undid": change.id, "kind": change.kind, "by": "person"}
    title = f"undid the {change.kind} of {change.time[:16].replace('T', ' ')}"
    return Reply(rows=rows, title=title, text="" if rows else title, operation=operation)


def _feedback(engine: ChatEngine, good: bool) -> Reply:
    from memclaw.facts.feedback import give_spans

    name = "/good" if good else "/bad"
    _writable(engine, name)
    hits = [h for h in engine.last_recalled.hits if h.agent == engine.agent.id]
    if not hits:
        return Reply(f"{name}: nothing was recalled for the last answer")
    facts = give_spans(
        engine.scope,
        [(h.file, h.line, h.end_line) for h in hits],
        good=good,
        source="chat",
        session=engine.session.id,
    )
    if not facts:
        return Reply(f"{name}: the memories recalled for the last answer hold no list facts")
    verb = "confirmed" if good else "rejected"
    rows = [(f"{f.id} {f.trust:.2f}", f.statement) for f in facts]
    operation = {"op": "feedback", "good": good, "facts": [f.id for f in facts], "by": "person"}
    title = f"{verb} {len(facts)} (trust now)"
    if good:
        from memclaw.morning import soul

        # Past soul_update_interval confirmations, SOUL.md learns now, not only from the card.
        try:
            learned = soul.evolve(engine.scope)
        except ModelError as exc:  # the confirmation stands; the card revises SOUL.md later
            title += f"; {soul.SOUL} not revised: {exc}"
        else:
            if learned.status == "updated":
                operation["soul"] = learned.reason
                title += f"; {soul.SOUL}: {learned.reason}"
    return Reply(rows=rows, title=title, operation=operation)


def _good(engine: ChatEngine, _args: str) -> Reply:
    return _feedback(engine, True)


def _bad(engine: ChatEngine, _args: str) -> Reply:
    return _feedback(engine, False)


def _search(engine: ChatEngine, args: str) -> Reply:
    from memclaw.index import search

    if not args:
        raise UsageError("usage: /search QUERY")
    hits = search(
        engine.agent.workspace,
        args,
        agents=[engine.agent.id],
        owner=engine.owner,
        limit=engine.agent.settings.search_limit,
    )
    if not hits:
        return Reply(f"nothing in memory matches {args!r}")
    rows = [
        (f"{'global/' if h.agent != engine.agent.id else ''}{h.file}:{h.line}", h.marked("", ""))
        for h in hits
    ]
    return Reply(rows=rows, title=f"{plural(len(hits), 'hit')} for {args!r}")


def _show_files(engine: ChatEngine, name: str) -> str:
    scope = engine.scope
    parts = []
    team = scope.agent.read(name).strip()
    if team:
        parts.append(team)
    if scope.personal:
        personal = scope.read(name).strip()
        if personal:
            parts.append(f"*Personal {name} of {scope.owner}*\n\n{personal}")
    return "\n\n---\n\n".join(parts) or f"*{name} is empty.*"


def _memory(engine: ChatEngine, _args: str) -> Reply:
    text = _show_files(engine, "MEMORY.md")
    entries = engine.tools.entries()
    if entries:
        lines = [f"- `{e['id']}` {e['text']}" for e in entries[:10]]
        more = f"\n\n({len(entries) - 10} more)" if len(entries) > 10 else ""
        text += "\n\n**Memory entries**\n\n" + "\n".join(lines) + more
    return Reply(text, markdown=True)


def _profile(engine: ChatEngine, _args: str) -> Reply:
    return Reply(_show_files(engine, "PROFILE.md"), markdown=True)


def _prompt(engine: ChatEngine, _args: str) -> Reply:
    system, _prompt, _found = engine.system_message("")
    return Reply(str(system["content"]))


def _tokens(engine: ChatEngine, _args: str) -> Reply:
    report = engine.token_report()
    rows = [(str(row["part"]), f"{row['tokens']:,}") for row in report["rows"]]
    rows.append(("total", f"{report['total']:,}"))
    kind = "" if report["exact"] else " (estimate)"
    title = (
        f"next request ≈ {report['total']:,} tokens{kind}: {report['used']:.1%} of a "
        f"{report['window']:,}-token window; earlier turns are summarised past "
        f"{report['trigger']:,}"
    )
    return Reply(rows=rows, title=title)


def _dream(engine: ChatEngine, args: str) -> Reply:
    from memclaw.dream.run import dream_agent

    apply = args.lower() in ("apply", "run", "now")
    if args and not apply:
        raise UsageError("usage: /dream (a preview) or /dream apply")
    if apply:
        _writable(engine, "/dream apply")
    result = dream_agent(engine.scope, dry_run=not apply, model=engine.model, trigger="chat")
    verb = "would change" if not apply else "changed"
    text = f"dream {result.status}: {result.reason}"
    if result.diff:
        text += f"\n\nMEMORY.md {verb} {result.change}:\n\n```diff\n{result.diff}\n```"
        if not apply:
            text += "\n\nRun `/dream apply` to write it."
    operation = None
    if apply and str(result.status) == "updated":
        operation = {"op": "dream", "status": str(result.status), "change": result.change}
    return Reply(text, markdown=bool(result.diff), operation=operation)


def _why(engine: ChatEngine, args: str) -> Reply:
    if args:
        from memclaw.changes.why import why

        found = why(engine.scope, args)
        rows = [(f"{f}:{n}", t) for f, n, t in found.places]
        rows += [(s.time[:16].replace("T", " "), f"{s.kind}: {s.text}") for s in found.steps]
        return Reply(rows=rows, title=f"{found.fact} {found.statement}")
    if engine.last_prompt is None:
        return Reply("no answer yet: /why explains the last one")
    rows = []
    for hit in engine.last_recalled.hits:
        text = " ".join(hit.text.split())
        # A heading, a bookkeeping line or a block of several lines is no fact: no id to show.
        rows.append(
            (f"recalled {hit.file}:{hit.line}", f"{text} [{hit.fact}]" if hit.fact else text)
        )
    for block in engine.last_prompt.blocks:
        if block.source:
            rows.append((f"file {block.source}", f"in the prompt, {block.tokens} tokens"))
    return Reply(rows=rows, title="what shaped the last answer")


def _morning(engine: ChatEngine, args: str) -> Reply:
    from memclaw.morning.card import latest, review

    card = latest(engine.scope)
    if card is None:
        return Reply("no morning card: nothing new since the last review")
    verb, _, rest = args.partition(" ")
    verb = verb.lower()
    if not verb:
        rows = [(str(i["fact"]), str(i["text"])) for i in card.facts]
        if card.soul_diff:
            rows.append(("SOUL.md", "the Learned section changed (memclaw morning shows the diff)"))
        return Reply(
            rows=rows,
            title=f"morning card of dream {card.run}: /morning confirm ID, "
            "forget ID, edit ID TEXT, skip",
        )
    _writable(engine, "/morning")
    fid, _, text = rest.strip().partition(" ")
    if verb == "skip":
        done = review(engine.scope, card)
    elif verb == "confirm" and fid:
        done = review(engine.scope, card, confirm=[fid])
    elif verb == "forget" and fid:
        done = review(engine.scope, card, forget=[fid])
    elif verb == "edit" and fid and text.strip():
        done = review(engine.scope, card, edit={fid: text})
    else:
        raise UsageError("usage: /morning, /morning confirm ID, forget ID, edit ID TEXT or skip")
    said = ", ".join(f"{o.action} {o.fact}" for o in done.outcomes) or "skipped"
    operation = {"op": "morning", "run": card.run, "by": "person"}
    return Reply(f"card {card.run} reviewed: {said}", operation=operation)


_COMMANDS: dict[str, Callable[[ChatEngine, str], Reply]] = {
    "/help": _help,
    "/?": _help,
    "/exit": _exit,
    "/quit": _exit,
    "/remember": _remember,
    "/forget": _forget,
    "/undo": _undo,
    "/search": _search,
    "/good": _good,
    "/bad": _bad,
    "/memory": _memory,
    "/profile": _profile,
    "/prompt": _prompt,
    "/tokens": _tokens,
    "/dream": _dream,
    "/why": _why,
    "/morning": _morning,
}
