"""How the real-model lane judges one path: its outcome, and whether memory stayed sound.

Kept apart from ``real_models`` (which builds, serves and runs) so that the normal test
suite can check these judgements on made-up runs without any model.

Sound means: every line memory held before is still there, byte for byte (DREAMS.md, the
diary, may be rewritten), and no new line is junk (a code fence, a ``<think>`` tag, chat
markup a model leaked such as ``<|im_start|>`` or ``<start_of_turn>``, a lone bullet or
bracket, a shard of JSON), tool markup, a duplicate or an invented line (see
``real_lines``, which says what each of those three means).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:  # imported as ``benchmarks.real_soundness`` or from benchmarks/ itself by the tests
    from benchmarks import real_lines
except ImportError:  # pragma: no cover
    import real_lines  # type: ignore[no-redef,import-not-found,unused-ignore]

JUNK = re.compile(
    r"```|</?think>|<\|im_(start|end)\|>|<(start|end)_of_turn>"
    r"|^\s*[-*]\s*$|^\s*[{}\[\]]\s*$|\"\w+\":\s"
)
# Lines memclaw prints when it fell back from the model to something simpler.
FALLBACK = re.compile(
    r"offline engine|without (them|tools|the memory tools)|fell back|falling back|not valid JSON"
    r"|could not|cut off|did not fit|does not fit|gave up|ignored|no tool|stopped after"
    r"|empty answer|refused|in one piece|: failed: |: discarded: |dreamed offline|merged offline",
    re.IGNORECASE,
)
NOTE_CHARS = 110


@dataclass
class Outcome:
    path: str
    outcome: str  # ok, degraded, failed
    sound: bool  # no person's line lost, no junk written
    note: str
    requests: str = "?"  # chat requests the server answered during the path, by status


def statuses(server_log: str) -> list[str]:
    """The HTTP status of every chat request in a llama_cpp.server log, in order."""
    return re.findall(r'"POST /v1/chat/completions HTTP/1.1" (\d{3})', server_log)


def count_requests(seen: list[str]) -> str:
    """``3`` or ``3 (1×400)``: how many requests, and how many of them did not succeed."""
    bad: dict[str, int] = {}
    for status in seen:
        if status != "200":
            bad[status] = bad.get(status, 0) + 1
    shown = ", ".join(f"{n}×{status}" for status, n in sorted(bad.items()))
    return f"{len(seen)} ({shown})" if shown else str(len(seen))


def memory_text(agent: Path) -> dict[str, str]:
    """Every memory file of an agent (markdown, state folders left out), by relative path."""
    return {
        str(p.relative_to(agent)): p.read_text(encoding="utf-8")
        for p in sorted(agent.rglob("*.md"))
        if ".memclaw" not in p.parts
    }


def soundness(
    before: dict[str, str],
    after: dict[str, str],
    rewritable: tuple[str, ...] = ("DREAMS",),
    given: Sequence[str] | None = None,
) -> tuple[bool, str]:
    """Whether every line memory held before is still there and every new line is sound.

    Files under ``rewritable`` prefixes may lose lines (the dream diary; the memory
    entries on a consolidation, whose job is merging them); they are checked for the rest.
    ``given`` is what the path gave memclaw besides memory (its input texts); without it
    (``None``: not known) new lines are not checked for invention.
    """
    for rel, text in before.items():
        now = after.get(rel, "").splitlines()
        lost = [line for line in text.splitlines() if line.strip() and line not in now]
        if lost and not rel.startswith(rewritable):
            return False, f"{rel} lost {lost[0]!r}"
    added = []
    for rel, text in after.items():
        old = set(before.get(rel, "").splitlines())
        added += [(rel, line) for line in text.splitlines() if line not in old]
    for rel, line in added:
        if real_lines.TOOL_MARKUP.search(line):
            return False, f"{rel} got tool markup {line!r}"
        if JUNK.search(line):
            return False, f"{rel} got junk {line!r}"
    twice = real_lines.duplicates(before, after)
    if twice:
        rel, line = twice[0]
        return False, f"{rel} got a duplicate {line!r}"
    made_up = (
        [] if given is None else real_lines.invented(added, "\n".join([*given, *before.values()]))
    )
    if made_up:
        rel, line, token = made_up[0]
        return False, f"{rel} got an invented line {line!r} ({token!r} was never given)"
    return True, ""


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= NOTE_CHARS else flat[: NOTE_CHARS - 1] + "…"


def _chat_answer(stdout: str) -> dict[str, Any] | None:
    """The ``chat --json`` answer, when stdout is one."""
    try:
        data = json.loads(stdout)
    except ValueError:
        return None
    return data if isinstance(data, dict) and "answer" in data else None


def _tool_summary(calls: list[dict[str, Any]]) -> str:
    shown = []
    for call in calls[:3]:
        name = str(call.get("name", "?"))
        failed = "" if call.get("ok") else " refused"
        shown.append(f"{name}({json.dumps(call.get('arguments', {}))[:40]}){failed}")
    more = f" +{len(calls) - 3}" if len(calls) > 3 else ""
    return "called " + ", ".join(shown) + more


def judge(returncode: int, stdout: str, stderr: str) -> tuple[str, str]:
    """The outcome of one command (ok, degraded or failed) and the line that says why."""
    said = [line.strip() for line in stderr.splitlines() if line.strip()]
    if "Traceback (most recent call last)" in stderr:
        return "failed", _short(said[-1] if said else "a traceback")
    if returncode != 0:
        errors = [line for line in said if line.startswith("error:")]
        if len(errors) == 1 and said[-1] == errors[0]:
            return "degraded", _short(errors[0])
        return "failed", _short(said[-1] if said else f"exit {returncode} and no message")
    answer = _chat_answer(stdout)
    lines = [line.lstrip("· ") for line in said]
    if answer is not None:
        lines += [str(note) for note in answer.get("notes") or []]
    fallbacks = [line for line in lines if FALLBACK.search(line)]
    if answer is not None:
        text = str(answer.get("answer") or "")
        calls = list(answer.get("tool_calls") or [])
        what = _tool_summary(calls) + "; " if calls else ""
        if fallbacks:
            return "degraded", _short(what + fallbacks[0])
        if not text.strip():
            return "failed", _short(what + "an empty answer and no line saying why")
        return "ok", _short(f"{what}said {text.strip()!r}")
    if fallbacks:
        return "degraded", _short(fallbacks[0])
    return "ok", _short(lines[-1] if lines else "")


def judge_tool_use(
    returncode: int, stdout: str, stderr: str, tool: str, fact: str
) -> tuple[str, str]:
    """A chat that must use a tool's result: ``ok`` only when the model's own answer was
    used, the model called ``tool`` (and it ran), and the answer says ``fact``, which only
    that tool's result could have told it. Any other own answer is ``failed``."""
    outcome, note = judge(returncode, stdout, stderr)
    if outcome != "ok":
        return outcome, note
    answer = _chat_answer(stdout) or {}
    calls = [c for c in answer.get("tool_calls") or [] if c.get("name") == tool and c.get("ok")]
    if not calls:
        return "failed", _short(f"{tool} was not called: {note}")
    if fact.lower() not in str(answer.get("answer") or "").lower():
        return "failed", _short(f"the answer lacks {fact!r}: {note}")
    return "ok", note
