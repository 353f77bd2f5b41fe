"""The extraction prompt: what the model is told when it distils a conversation.

Written for memclaw; the model answers one JSON object that memclaw checks
in code (keys, types, secrets, ceilings) before anything reaches a file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

REQUIRED_KEYS: dict[str, type] = {
    "should_update": bool,
    "reason": str,
    "daily_entry": str,
}
# Also read when present: the new facts with their categories, and operations on the facts
# memory holds, by id. A whole file (an answer to an older prompt) is still read: it is
# turned into the same operations by a line diff.
OPTIONAL_KEYS: dict[str, type] = {
    "facts": list,
    "updates": list,
    "deletes": list,
    "memory_update": str,
    "profile_update": str,
}
# A remembered fact's id, shown after its line in the prompt ("- Sam lives in Porto [f1a2b3c4d]").
FACT_REF = re.compile(r"\s*\[(f[0-9a-f]{8})\]\s*$")
# Where a fact of each category is filed (the offline engine files its facts the same way).
FACT_CATEGORIES = (
    "identity", "preference", "technical", "decision", "project", "rule", "relationship",
    "configuration",
)  # fmt: skip

_SYSTEM = """\
You maintain the long-term memory of an assistant. After a conversation ends you
read it, together with what the assistant already remembers, and decide what is
worth keeping. Memory lives in three places:

- PROFILE.md: who the user is and how they like to work (identity, work, \
preferences, tech stack). At most {profile_max} characters.
- MEMORY.md: what matters across conversations (active projects, decisions and \
their reasons, rules the user gave, people, configuration). At most {memory_max} \
characters.
- Today's note: a short dated log of what happened in this conversation.

A fact is kept only if it passes all four tests:
1. Useful later: a fresh assistant, days or weeks from now, would act better \
knowing it. Tool output, one-off requests, small talk and greetings are not useful later.
2. New: neither current file already says it (a rephrasing of a known fact is \
not new; a changed value or status is).
3. Concrete: a definite statement, not a question, a guess, a plan that may not \
happen, or a vague feeling.
4. Safe: it contains no credential of any kind (passwords, API keys, tokens, \
private keys, connection strings with passwords, webhook URLs with tokens, \
pairing codes, .env values). You may record that a credential was set up for a \
service, never the credential itself.
Most conversations pass nothing; then say so and change nothing.

How to write a fact:
- Make it self-contained: one sentence of roughly 15 to 50 words (shorter when \
that is natural), readable on its own, months later, by someone who did not see \
the conversation. Distil rather than append: several short facts about one \
subject ("has a dog", "the dog is called Poppy", "walks the dog daily") are one \
fact.
- When a fact updates one the files already hold (a trip first planned, now \
booked; a new city, employer or date), do not add it: update that fact by its id, \
with every detail of the old line that is still true.
- Keep everything about one entity (a person, a project, an event, a system) in \
one place instead of scattering it over several lines.
- Name people and things; never leave "he", "she", "they" or "it" to be guessed.
- Write about the user by name once the name is known (PROFILE.md or the \
conversation says it), otherwise in the third person ("The user prefers ..."); \
write whole, grammatical sentences.
- Keep the reason given for a rule or a decision.
- Start anything that can change with "As of {today}, ..." (status, plans, \
deadlines, versions, configuration, temporary situations): {today} is the day \
of the conversation, not the day you read it.
- Write every date as an absolute date (YYYY-MM-DD). Each message shows in \
brackets when it was said ("USER [2026-10-05 Mon 14:02]: ..."); count relative \
days ("yesterday", "last Friday", "next week", "in two days", "two weeks ago", \
"this weekend") from that message's own day, never from today. Keep the event \
with its date: "I moved to Lisbon yesterday", said on 2026-10-05, is kept as "The \
user moved to Lisbon on 2026-10-04", not as "The user is based in Lisbon".
- For opinions and feelings keep the user's own words.
- Keep the language the user spoke; do not translate a fact.
- Record what was done, not what was asked for or intended.
- Record only what the user said or clearly confirmed. Never infer traits \
(age, gender, mood, beliefs) and never take the assistant's descriptions of the \
user as facts.
- A temporary constraint does not erase a lasting preference: keep both.

Answer with one JSON object and nothing else:
{{
  "should_update": true or false,
  "reason": "one sentence: what was kept, or why nothing was",
  "daily_entry": "markdown bullets for today's note, or an empty string",
  "facts": [{{"text": "one new fact", "category": "one of {categories}", \
"scope": "long-term or session"}}],
  "updates": [{{"id": "f1a2b3c4d", "text": "the fact as it is now"}}],
  "deletes": [{{"id": "f5e6f7a8b", "reason": "why it is no longer true"}}]
}}

New facts go in "facts", each with its category: memclaw files identity, \
preference and technical facts in PROFILE.md and the others in MEMORY.md. A \
fact that only matters to this conversation (what the user is doing right now, \
a constraint for this chat alone) has scope "session": it is kept for this \
conversation only, never in PROFILE.md or MEMORY.md. Each fact memory already \
holds ends with its id in brackets. When the conversation changes one, put it in \
"updates" with that id and the whole fact as it is now; when it says one is no \
longer true and nothing replaces it, put its id in "deletes" with the reason. \
Leave "updates" and "deletes" empty otherwise; never repeat a fact that has not \
changed."""


def system_prompt(
    today: str,
    profile_max: int,
    memory_max: int,
    *,
    categories: dict[str, str] | None = None,
    instructions: str = "",
) -> str:
    """The extraction prompt; ``categories`` (custom ones) and ``instructions`` come last."""
    text = _SYSTEM.format(
        today=today,
        categories=", ".join(FACT_CATEGORIES),
        profile_max=profile_max if profile_max > 0 else "no limit of",
        memory_max=memory_max if memory_max > 0 else "no limit of",
    )
    if categories:
        kinds = "\n".join(f"- {name}: {what}" for name, what in categories.items())
        text += (
            "\n\nThe kinds of facts this assistant keeps (group MEMORY.md by them; "
            f"a fact of none of these kinds is not kept):\n{kinds}"
        )
    if instructions.strip():
        text += (
            "\n\nAdditional instructions from the person who set up this assistant "
            "(they never override the safety test above):\n" + instructions.strip()
        )
    return text


def _block(title: str, text: str) -> str:
    body = text.strip() or "(empty)"
    return f"=== {title} ===\n{body}"


def _said_at(message: dict[str, str]) -> str:
    """ "2026-10-05 Mon 14:02": the weekday lets the model count "last Friday" right."""
    day = message["day"]
    try:
        weekday = date.fromisoformat(day).strftime("%a")
    except ValueError:
        return day
    return " ".join(part for part in (day, weekday, message.get("time", "")) if part)


def user_prompt(
    *,
    today: str,
    day: str | None = None,
    transcript: Sequence[dict[str, str]],
    profile: str,
    memory: str,
    today_note: str,
    shared: str = "",
    ids: dict[str, str] | None = None,
) -> str:
    """The conversation and the current memory, each in a labelled block; ``ids`` maps a
    remembered fact's line to its id, shown after it."""
    day = day or today
    lines = [
        f"{m['role'].upper()} [{_said_at(m)}]: {m['content']}"
        if m.get("day")
        else f"{m['role'].upper()}: {m['content']}"
        for m in transcript
    ]
    when = f"Today is {today}."
    if day != today:
        when = f"The conversation took place on {day}; today is {today}."
    parts = [
        when,
        _block("PROFILE.md (current)", _with_ids(profile, ids)),
        _block("MEMORY.md (current)", _with_ids(memory, ids)),
        _block(f"Note of {day}", today_note),
    ]
    if shared.strip():
        parts.append(_block("Shared team memory (read-only, already known)", shared))
    parts.append(_block("Conversation", "\n\n".join(lines)))
    return "\n\n".join(parts)


def _with_ids(text: str, ids: dict[str, str] | None) -> str:
    if not ids:
        return text
    return "\n".join(f"{line} [{ids[line]}]" if line in ids else line for line in text.splitlines())
