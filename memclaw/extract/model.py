"""The model path of extraction: ask, check the answer, clean it before it is written."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from memclaw.errors import ModelAnswerError
from memclaw.extract.prompts import (
    FACT_CATEGORIES,
    OPTIONAL_KEYS,
    REQUIRED_KEYS,
    system_prompt,
    user_prompt,
)
from memclaw.extract.result import Engine, Plan
from memclaw.gates import addresses_agent, as_quote, find_secrets, redact
from memclaw.prompt.tokens import token_counter
from memclaw.workspace.entries import categories

if TYPE_CHECKING:
    from memclaw.llm import ChatModel
    from memclaw.workspace.agent import Agent


def _clean(
    text: str, old: str, forgotten: Callable[[str], bool], plan: Plan, *, note: bool = False
) -> str:
    """Redact secrets, drop new lines that restate forgotten facts or instruct the agent.

    A model may copy "ignore previous instructions ..." from the transcript into
    its answer. In PROFILE.md or MEMORY.md that line would be injected into every
    prompt, so it is dropped; in the daily note (``note``) it is kept as a quote.
    """
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
        if (
            stripped
            and stripped not in before
            and not stripped.startswith("#")
            and forgotten(stripped)
        ):
            plan.forgotten += 1
            continue
        kept.append(line)
    return "\n".join(kept).strip("\n") + ("\n" if kept else "")


def _quoted(line: str) -> str:
    bullet = re.match(r"^\s*(?:[-*+]\s+)?", line)
    lead = bullet.group(0) if bullet else ""
    return lead + as_quote(line[len(lead) :])


def model_plan(
    agent: Agent,
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
            agent,
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
        seen = set(daily)
        daily += [line for line in part.daily.splitlines() if line.strip() and line not in seen]
    plan.daily = "\n".join(daily)
    unique = list(dict.fromkeys(reasons))
    plan.reason = unique[0] if len(unique) == 1 else "; ".join(unique)
    return plan


def _window_plan(
    agent: Agent,
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
    settings = agent.settings
    today = agent.now().date().isoformat()
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
        return plan
    for key, kind in OPTIONAL_KEYS.items():
        if key in answer and not isinstance(answer[key], kind):
            raise ModelAnswerError(f"the extraction answer's {key!r} is not a {kind.__name__}")
    profile_new = str(answer.get("profile_update", "")).strip()
    memory_new = str(answer.get("memory_update", "")).strip()
    daily = str(answer["daily_entry"]).strip()
    if profile_new:
        plan.profile = _clean(profile_new, profile, forgotten, plan)
    if memory_new:
        plan.memory = _clean(memory_new, memory, forgotten, plan)
    if answer.get("facts"):
        _file(plan, answer["facts"], profile, memory, forgotten)
    if daily:
        plan.daily = _clean(daily, today_note, forgotten, plan, note=True).strip()
    return plan


def _file(
    plan: Plan,
    facts: list[object],
    profile: str,
    memory: str,
    forgotten: Callable[[str], bool],
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
        line = _clean(" ".join(item["text"].split()), "", forgotten, plan).strip()
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
