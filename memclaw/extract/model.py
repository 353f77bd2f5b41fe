"""The model path of extraction: ask, check the answer, clean it before it is written."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from memclaw.errors import ModelAnswerError
from memclaw.extract.grounding import Said, echoes
from memclaw.extract.prompts import (
    FACT_CATEGORIES,
    FACT_REF,
    OPTIONAL_KEYS,
    REQUIRED_KEYS,
    system_prompt,
    user_prompt,
)
from memclaw.extract.result import Engine, Plan
from memclaw.gates import addresses_agent, as_quote, find_secrets, redact
from memclaw.prompt.tokens import token_counter
from memclaw.text.plural import plural
from memclaw.workspace.entries import categories

if TYPE_CHECKING:
    from memclaw.llm import ChatModel
    from memclaw.workspace.scope import Scope

FILES = ("PROFILE.md", "MEMORY.md")
_LEAD = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


def _clean(
    text: str,
    old: str,
    forgotten: Callable[[str], bool],
    plan: Plan,
    *,
    note: bool = False,
    heard: Said | None = None,
) -> str:
    """Redact secrets, drop new lines that restate forgotten facts, instruct the agent or
    say what was not ``heard`` (the model's own invention: see ``grounding``).

    A model may copy "ignore previous instructions ..." from the transcript into
    its answer. In PROFILE.md or MEMORY.md that line would be injected into every
    prompt, so it is dropped; in the daily note (``note``) it is kept as a quote.
    """
    # The ids the prompt shows after each remembered fact are not part of it.
    text = "\n".join(FACT_REF.sub("", line) for line in text.splitlines())
    found = find_secrets(text)
    if found:
        plan.redacted += len(found)
        text = redact(text)
    before = {line.strip() for line in old.splitlines()}
    kept = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and stripped not in before and addresses_agent(stripped):
            plan.instructions += 1
            if note:
                kept.append(_quoted(line))
            continue
        new = stripped and stripped not in before and not stripped.startswith("#")
        if new and forgotten(stripped):
            plan.forgotten += 1
            continue
        if new and heard is not None and not heard.grounds(_LEAD.sub("", stripped)):
            plan.invented += 1
            continue
        kept.append(line)
    return "\n".join(kept).strip("\n") + ("\n" if kept else "")


def _quoted(line: str) -> str:
    bullet = re.match(r"^\s*(?:[-*+]\s+)?", line)
    lead = bullet.group(0) if bullet else ""
    return lead + as_quote(line[len(lead) :])


def model_plan(
    scope: Scope,
    model: ChatModel,
    windows: Sequence[Sequence[dict[str, str]]],
    *,
    day: str,
    profile: str,
    memory: str,
    today_note: str,
    shared: str,
    forgotten: Callable[[str], bool],
) -> Plan:
    """One JSON-constrained call per window; raises ModelAnswerError before anything is written.

    Each window sees what the earlier windows wrote (PROFILE.md, MEMORY.md and the
    day's note as they would be), so a fact found in window one is known in window
    two; the last rewrite of each file wins and the daily entries are joined.
    """
    plan = Plan(Engine.MODEL, False, "")
    reasons: list[str] = []
    daily: list[str] = []
    for transcript in windows:
        note = today_note + ("\n" if today_note and daily else "") + "\n".join(daily)
        part = _window_plan(
            scope,
            model,
            transcript,
            day=day,
            profile=plan.profile if plan.profile is not None else profile,
            memory=plan.memory if plan.memory is not None else memory,
            today_note=note,
            shared=shared,
            forgotten=forgotten,
        )
        plan.prompt_tokens += part.prompt_tokens
        plan.completion_tokens += part.completion_tokens
        plan.tokens_estimated = plan.tokens_estimated or part.tokens_estimated
        plan.redacted += part.redacted
        plan.forgotten += part.forgotten
        reasons.append(part.reason)
        if not part.should_update:
            continue
        plan.should_update = True
        plan.profile = part.profile if part.profile is not None else plan.profile
        plan.memory = part.memory if part.memory is not None else plan.memory
        plan.session += [fact for fact in part.session if fact not in plan.session]
        plan.claims |= part.claims
        plan.deletes |= part.deletes
        plan.notes += part.notes
        seen = set(daily)
        daily += [line for line in part.daily.splitlines() if line.strip() and line not in seen]
    plan.daily = "\n".join(daily)
    unique = list(dict.fromkeys(reasons))
    plan.reason = unique[0] if len(unique) == 1 else "; ".join(unique)
    return plan


def _window_plan(
    scope: Scope,
    model: ChatModel,
    transcript: Sequence[dict[str, str]],
    *,
    day: str,
    profile: str,
    memory: str,
    today_note: str,
    shared: str,
    forgotten: Callable[[str], bool],
) -> Plan:
    agent = scope.agent
    settings = agent.settings
    today = agent.now().date().isoformat()
    ids = {**fact_lines(scope, "PROFILE.md", profile), **fact_lines(scope, "MEMORY.md", memory)}
    messages = [
        {
            "role": "system",
            "content": system_prompt(
                day,
                settings.profile_max_chars,
                settings.memory_max_chars,
                # Only custom categories steer extraction; the built-in ones are its default.
                categories=categories(settings) if settings.categories else None,
                instructions=settings.extract_instructions,
            ),
        },
        {
            "role": "user",
            "content": user_prompt(
                today=today,
                day=day,
                transcript=transcript,
                profile=profile,
                memory=memory,
                today_note=today_note,
                shared=shared,
                ids=ids,
            ),
        },
    ]
    # The transcript was redacted already, but the files were not: a hand edit can hold
    # a credential the gate never saw, and nothing memclaw sends may carry one.
    for message in messages:
        message["content"] = redact(message["content"])
    count = token_counter().count
    # Full rewrites echo both files back, so the answer budget grows with them.
    budget = settings.extract_summary_max_tokens + count(profile) + count(memory)
    answer = model.chat_json(messages, required=REQUIRED_KEYS, max_tokens=budget)
    usage = getattr(model, "last_usage", None)
    plan = Plan(
        Engine.MODEL,
        bool(answer["should_update"]),
        redact(" ".join(str(answer["reason"]).split())) or "(no reason given)",
        prompt_tokens=getattr(usage, "prompt_tokens", 0)
        or sum(count(str(m["content"])) for m in messages),
        completion_tokens=getattr(usage, "completion_tokens", 0)
        or count(json.dumps(answer, ensure_ascii=False)),
        tokens_estimated=usage is None,
    )
    if not plan.should_update:
        if echoes(str(answer["reason"]), messages[0]["content"]):
            # "Nothing to keep", said in the prompt's own words: no judgement at all.
            raise ModelAnswerError("the model answered with the prompt's own template")
        return plan
    for key, kind in OPTIONAL_KEYS.items():
        if key in answer and not isinstance(answer[key], kind):
            raise ModelAnswerError(f"the extraction answer's {key!r} is not a {kind.__name__}")
    profile_new = str(answer.get("profile_update", "")).strip()
    memory_new = str(answer.get("memory_update", "")).strip()
    daily = str(answer["daily_entry"]).strip()
    # What the model writes must be said in this window (or be in memory already).
    heard = Said([*(m["content"] for m in transcript), profile, memory, shared, today_note])
    if profile_new:
        plan.profile = _clean(profile_new, profile, forgotten, plan, heard=heard)
    if memory_new:
        plan.memory = _clean(memory_new, memory, forgotten, plan, heard=heard)
    if answer.get("facts"):
        _file(plan, answer["facts"], profile, memory, forgotten, heard)
    if answer.get("updates") or answer.get("deletes"):
        current = {"PROFILE.md": profile, "MEMORY.md": memory}
        _operate(scope, plan, answer, current, forgotten, heard)
    if daily:
        plan.daily = _clean(daily, today_note, forgotten, plan, note=True, heard=heard).strip()
    if plan.invented:
        if _adds_nothing(plan, profile, memory):
            # Not one line of the answer was said: the turns must not be marked read with
            # nothing kept from them, so the offline engine reads them instead.
            raise UngroundedAnswerError(
                "every line of the model's answer is something the conversation does not say"
            )
        plan.notes.append(
            f"left out {plural(plan.invented, 'line')} of the model's that the conversation "
            "does not say"
        )
    return plan


class UngroundedAnswerError(ModelAnswerError):
    """A readable answer of which nothing was said in the conversation."""


def _adds_nothing(plan: Plan, profile: str, memory: str) -> bool:
    """Whether ``plan``, its invented lines dropped, writes nothing new anywhere."""

    def new_lines(after: str | None, before: str) -> bool:
        if after is None:
            return False
        kept = {line.strip() for line in before.splitlines()}
        return any(line.strip() and line.strip() not in kept for line in after.splitlines())

    return not (
        plan.facts
        or plan.daily.strip()
        or plan.claims
        or plan.deletes
        or plan.session
        or new_lines(plan.profile, profile)
        or new_lines(plan.memory, memory)
    )


def _file(
    plan: Plan,
    facts: list[object],
    profile: str,
    memory: str,
    forgotten: Callable[[str], bool],
    heard: Said | None = None,
) -> None:
    """File the answer's categorised facts into the plan's PROFILE.md and MEMORY.md.

    Each fact passes what a whole-file answer passes (secrets redacted, forgotten
    facts and instructions to the agent dropped) and lands under its category's
    heading, as the offline engine files its own.
    """
    from memclaw.extract.offline.filing import file_facts
    from memclaw.extract.offline.rules import Fact

    found = []
    for item in facts:
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            raise ModelAnswerError("each of the extraction answer's facts needs a text")
        category = str(item.get("category") or "")
        category = category if category in FACT_CATEGORIES else "project"
        line = _clean(" ".join(item["text"].split()), "", forgotten, plan, heard=heard).strip()
        if line and item.get("scope") == "session":
            plan.session.append((category, line))  # this conversation's, not long-term memory
        elif line:
            found.append(Fact(category, line))
    if not found:
        return
    base_profile = plan.profile if plan.profile is not None else profile
    base_memory = plan.memory if plan.memory is not None else memory
    new_profile, new_memory = file_facts(base_profile, base_memory, found)
    if new_profile != base_profile:
        plan.profile = new_profile
    if new_memory != base_memory:
        plan.memory = new_memory


def fact_lines(scope: Scope, name: str, text: str) -> dict[str, str]:
    """Each line of ``text`` (file ``name`` of ``scope``) that states a fact: its fact id."""
    from memclaw.facts.project import project_text

    lines = text.splitlines()
    return {lines[p.line - 1]: p.fact for p in project_text(scope.rel(name), text)}


def _operate(
    scope: Scope,
    plan: Plan,
    answer: dict[str, object],
    current: dict[str, str],
    forgotten: Callable[[str], bool],
    heard: Said | None = None,
) -> None:
    """Apply the answer's updates and deletes to the plan's files, each on its fact's line.

    An update puts the new text on the line of the fact it names (memclaw's one judgement
    then weighs it against that fact: see ``extract.screen``); a delete takes the line out.
    An id that memory does not hold is said in the receipt, and an update of one is kept
    as a new fact: nothing the model said is lost for a wrong id.
    """
    base = {
        "PROFILE.md": plan.profile if plan.profile is not None else current["PROFILE.md"],
        "MEMORY.md": plan.memory if plan.memory is not None else current["MEMORY.md"],
    }
    files = dict(base)
    stray: list[object] = []
    for kind in ("updates", "deletes"):
        ops = answer.get(kind) or []
        assert isinstance(ops, list)  # checked against OPTIONAL_KEYS
        for op in ops:
            key = "text" if kind == "updates" else "reason"
            fid, said = (op.get("id"), op.get(key)) if isinstance(op, dict) else (None, None)
            if not isinstance(fid, str) or not isinstance(said, str):
                # One malformed operation (a small model's) costs itself, not the answer.
                plan.notes.append(f"skipped one of the model's {kind}: it needs an id and a {key}")
                continue
            text = _clean(" ".join(said.split()), "", forgotten, plan, heard=heard).strip()
            where = _line_of(scope, files, fid)
            if where is None:
                plan.notes.append(f"the model named {fid}, which memory does not hold")
                if kind == "updates" and text:
                    stray.append({"text": text, "category": "project"})
                continue
            name, index = where
            lines = files[name].splitlines(keepends=True)
            if kind == "deletes":
                plan.deletes[fid] = text or "no longer true"
                del lines[index]
            elif text:
                lead = _LEAD.match(lines[index])
                lines[index] = (lead.group(0) if lead else "- ") + text + "\n"
                plan.claims[text] = fid
            files[name] = "".join(lines)
    if files["PROFILE.md"] != base["PROFILE.md"]:
        plan.profile = files["PROFILE.md"]
    if files["MEMORY.md"] != base["MEMORY.md"]:
        plan.memory = files["MEMORY.md"]
    if stray:
        _file(plan, stray, current["PROFILE.md"], current["MEMORY.md"], forgotten, heard)


def _line_of(scope: Scope, files: dict[str, str], fid: str) -> tuple[str, int] | None:
    """Where the fact ``fid`` is stated: the file and the line's index."""
    for name in FILES:
        lines = files[name].splitlines()
        stated = fact_lines(scope, name, files[name])
        for index, line in enumerate(lines):
            if stated.get(line) == fid:
                return name, index
    return None
