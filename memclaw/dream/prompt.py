"""What a dream sends to the model, the shape of the answer it expects, and the asking."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from memclaw.dream.candidates import Status
from memclaw.dream.memory_md import split_sections
from memclaw.errors import ModelAnswerError
from memclaw.extract.grounding import echoes
from memclaw.gates import redact
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.dream.candidates import Candidate, CandidateReport
    from memclaw.llm import ChatModel
    from memclaw.workspace.scope import Scope

ANSWER_KEYS: dict[str, type | tuple[type, ...]] = {
    "should_update": bool,
    "reason": str,
    "memory_content": str,
}
# The notes are the bulkiest input; newest first until the budget is spent.
NOTES_BUDGET_CHARS = 24000
NOTE_MAX_CHARS = 6000
MAX_SUPERSEDED = 10

SYSTEM = """\
You are the overnight editor of MEMORY.md, the long-term memory file an assistant \
reads at the start of every conversation. Once a night you compare it with the \
daily notes of the past days and decide whether it should change.

What belongs in MEMORY.md: active projects and their state, decisions with their \
reasons, open threads, rules the user gave, people who matter and their roles. \
Things that will still matter in a few weeks.

How to edit:
- Promote what recurs across days or was looked up repeatedly. The ranked \
candidates were scored for that; prefer them, but check them against the notes.
- When a later note corrects or contradicts an older statement, keep only the \
newer one; mention the change in one clause if it helps ("moved from ...").
- Drop threads the notes show as finished, and facts that newer ones replaced. \
Do not drop anything else: an entry the notes say nothing about stays.
- Leave one-off events, small talk and passing moods out.
- Write facts in the third person, self-contained, with names, not pronouns. \
Put a date on anything that can change. Keep the language the user wrote in.
- Never write passwords, API keys, tokens or any other credential.
- Sections listed as hand-edited are the user's own: copy them exactly, \
character for character, in their place.
- Keep the file's existing structure of "## " sections and list items, and stay \
under the character limit you are given.

Answer with one JSON object and nothing else:
{"should_update": true or false, "reason": "one or two sentences on what you \
changed and why", "memory_content": "the complete new MEMORY.md, or an empty \
string when should_update is false"}"""


def _candidate_line(index: int, cand: Candidate) -> str:
    days = ", ".join(d.isoformat() for d in cand.days)
    recall = (
        f"; recalled {cand.recalls}x by {plural(cand.queries, 'query')}" if cand.recalls else ""
    )
    return f"{index}. [score {cand.score:.2f}; days {days}{recall}] {cand.text}"


def _notes_block(notes: Sequence[tuple[str, str]]) -> str:
    parts: list[str] = []
    used = 0
    for name, text in reversed(notes):  # newest first into the budget
        body = text.strip()
        if len(body) > NOTE_MAX_CHARS:
            body = body[:NOTE_MAX_CHARS] + "\n[... rest of this note left out ...]"
        block = f"--- {name} ---\n{body}\n"
        if parts and used + len(block) > NOTES_BUDGET_CHARS:
            break
        parts.append(block)
        used += len(block)
    return "\n".join(reversed(parts))


def build_messages(
    *,
    today: date,
    scope: str,
    memory: str,
    notes: Sequence[tuple[str, str]],
    promoted: Sequence[Candidate],
    superseded: Sequence[Candidate],
    kept_headings: Sequence[str],
    max_chars: int,
    max_loss_ratio: float,
    focus: str | None,
) -> list[dict[str, Any]]:
    """The chat messages of one dream: instructions, then the material."""
    lines = [f"Today is {today.isoformat()}. This is {scope}."]
    if max_chars > 0:
        lines.append(f"MEMORY.md must stay under {max_chars} characters.")
    lines.append(
        f"A rewrite that removes more than {max_loss_ratio:.0%} of the existing entries "
        "is rejected, so remove only what is finished or superseded."
    )
    if focus:
        lines.append(
            f"This run is focused on the topic {focus!r}: change only what concerns it "
            "and leave everything else as it is."
        )
    if kept_headings:
        listed = ", ".join(f'"## {h}"' for h in kept_headings)
        lines.append(f"Hand-edited sections to copy exactly: {listed}.")
    lines.append("\n<memory_md>\n" + (memory.strip() or "(empty)") + "\n</memory_md>")
    ranked = [_candidate_line(i, c) for i, c in enumerate(promoted, start=1)]
    lines.append(
        "\n<candidates>\n" + ("\n".join(ranked) or "(none above the threshold)") + "\n</candidates>"
    )
    if superseded:
        old = [f"- {c.text}" for c in superseded[:MAX_SUPERSEDED]]
        lines.append(
            "\n<superseded>\nCorrected or contradicted by later notes; do not keep these:\n"
            + "\n".join(old)
            + "\n</superseded>"
        )
    lines.append("\n<daily_notes>\n" + (_notes_block(notes) or "(none)") + "\n</daily_notes>")
    # Notes and MEMORY.md may hold a credential typed in by hand; the model never sees it.
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": redact("\n".join(lines))},
    ]


def answer_tokens(max_chars: int) -> int:
    """Room for a whole MEMORY.md plus the other two keys."""
    return max(1024, (max_chars or 16000) // 3 + 512)


def ask(
    scope: Scope,
    model: ChatModel,
    report: CandidateReport,
    old: str,
    focus: str | None,
) -> tuple[str | None, str]:
    """The model's new MEMORY.md (None: leave it) and its reason, redacted."""
    agent = scope.agent
    settings = agent.settings
    notes = [(rel, agent.read(rel)) for rel in report.notes]
    kept = [s.heading for s in split_sections(old) if s.kept]
    whose = (
        f"the personal memory of {scope.owner}"
        if scope.owner
        else f"the shared memory of the agent {agent.id!r}"
    )
    messages = build_messages(
        today=agent.now().date(),
        scope=whose,
        memory=old,
        notes=notes,
        promoted=report.promoted,
        superseded=[c for c in report.candidates if c.status is Status.CORRECTED],
        kept_headings=kept,
        max_chars=settings.memory_max_chars,
        max_loss_ratio=settings.dream_max_loss_ratio,
        focus=focus,
    )
    answer = model.chat_json(
        messages,
        required=ANSWER_KEYS,
        max_tokens=answer_tokens(settings.memory_max_chars),
    )
    reason = redact(answer["reason"].strip())
    content = answer["memory_content"]
    template = messages[0]["content"]
    if echoes(content, template):
        raise ModelAnswerError("the model answered with the prompt's own template")
    if echoes(reason, template):
        reason = ""  # the prompt's own words given back: no reason to show a person
    reason = reason or "the model gave no reason"
    if not answer["should_update"] or not content.strip():
        return None, reason
    return content if content.endswith("\n") else content + "\n", reason
