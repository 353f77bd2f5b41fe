"""A model's write to PROFILE.md or MEMORY.md through a tool passes what extraction passes.

The file tools (``memory_files_write`` and ``memory_files_edit``, in a chat and
over MCP) let a model replace any text. Before such a write reaches PROFILE.md
or MEMORY.md it is screened line by line:

* a line a person wrote (any line the provenance record does not name as a
  model's) is never removed or reworded by a model: it stays as it is;
* a line the write brings in is weighed against what is remembered
  (:func:`memclaw.facts.settle.settle`). One that contradicts a remembered fact
  waits in the inbox, the old fact staying in force; one that contradicts
  nothing is written (next to the person's line it was meant to replace);
* the one exception: when the person's own message in this turn says it is a
  correction ("actually ...", "I moved to ...") and the write changes only the
  value in a person's line (one short run of words; everything else of the line
  kept), the line changes and the old fact is recorded as superseded.

"Only the value" is judged on words: "lives in Majorna, Gothenburg" to "lives in
Linnéstaden, Gothenburg" is a value; "Maya Lindqvist (she/her) lives in Majorna,
Gothenburg, Sweden." to "Maya moved to Gothenburg" is a rewrite, so that new
statement goes to the inbox and the person's line stays.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from memclaw.errors import UsageError
from memclaw.facts.settle import Outcome, settle
from memclaw.workspace.safeguards import provenance
from memclaw.workspace.safeguards.guard import GUARDED
from memclaw.workspace.safeguards.provenance import Author

if TYPE_CHECKING:
    from memclaw.facts.inbox import Item
    from memclaw.facts.judge import Judge
    from memclaw.workspace.scope import Scope

SOURCE = "tool"
# The longest run of words a correction may change in a person's line, on either side.
VALUE_WORDS = 4
_WORD = re.compile(r"\w+(?:[-'’]\w+)*|[^\w\s]")
_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")


@dataclass
class Screened:
    """What the write may put on disk, and what became of the lines it could not."""

    text: str
    kept: list[str] = field(default_factory=list)  # person lines the write would have changed
    held: list[Item] = field(default_factory=list)  # statements waiting in the inbox
    # (old, new) fact ids of the values the person corrected in their own words
    corrected: list[tuple[str, str]] = field(default_factory=list)
    corrected_lines: list[str] = field(default_factory=list)  # as they now read

    def report(self) -> dict[str, object]:
        """What the model is told, so it can say truthfully what happened."""
        data: dict[str, object] = {}
        if self.kept:
            data["kept_person_lines"] = self.kept
        if self.held:
            data["held_in_inbox"] = [{"id": i.id, "statement": i.new} for i in self.held]
        if self.corrected:
            data["corrected_on_the_persons_word"] = len(self.corrected)
        notes = []
        if self.kept:
            notes.append(
                "a person wrote the kept lines: a model may not reword or remove them, "
                "so they stay as they are"
            )
        if self.held:
            notes.append(
                "the held statements contradict what is remembered: they wait in the inbox "
                "for the person to decide (memclaw inbox); nothing was changed for them"
            )
        if notes:
            data["note"] = "; ".join(notes)
        return data


def _body(line: str) -> str:
    return _MARKER.sub("", line).strip()


def _is_entry(line: str) -> bool:
    text = line.strip()
    return bool(text) and not text.startswith(("#", "<!--", "```"))


def _fact(name: str, line: str) -> str:
    from memclaw.facts.project import project_text

    places = project_text(name, line)
    return places[0].fact if places else ""


def value_only(old: str, new: str) -> bool:
    """Whether ``new`` is ``old`` with one short run of words changed, the rest kept."""
    a, b = _WORD.findall(_body(old)), _WORD.findall(_body(new))
    changes = [op for op in difflib.SequenceMatcher(a=a, b=b).get_opcodes() if op[0] != "equal"]
    if len(changes) != 1:
        return False
    _, i1, i2, j1, j2 = changes[0]
    return i2 - i1 <= VALUE_WORDS and j2 - j1 <= VALUE_WORDS and (i2 - i1) + (j2 - j1) > 0


def screen(
    scope: Scope,
    name: str,
    current: str,
    new: str,
    *,
    said: str,
    session: str | None = None,
    judge: Judge | None = None,
) -> Screened:
    """Screen a model's rewrite of ``name`` (relative to the agent) from ``current`` to ``new``.

    ``said`` is the person's own message of this turn ("" when no person spoke,
    as over MCP). Files other than PROFILE.md and MEMORY.md pass unchanged.
    ``judge`` (the configured model) weighs what the offline rules are unsure
    of, as it does for extraction. Inbox items are filed here; the caller
    writes :attr:`Screened.text`.
    """
    from memclaw.facts import inbox
    from memclaw.judgement import is_correction

    if PurePosixPath(name).name not in GUARDED:
        return Screened(new)
    record = provenance.load(scope.agent, name)
    person_said_correction = bool(said.strip()) and is_correction(said)
    old_lines, new_lines = current.splitlines(keepends=True), new.splitlines(keepends=True)
    old_keys = provenance.keys(current)
    found = Screened("")
    out: list[str] = []

    def personal(line: str) -> bool:
        return _is_entry(line) and provenance.line_key(line) not in record.lines

    def weigh(line: str) -> bool:
        """Whether a line the write brings in may be written; files it in the inbox if not."""
        if not _is_entry(line) or provenance.line_key(line) in old_keys:
            return True
        statement = " ".join(_body(line).split())
        settled = settle(
            scope,
            statement,
            source=SOURCE,
            by_person=False,
            session=session,
            apply=False,
            model=judge,
        )
        if settled.outcome is not Outcome.HELD:
            return True  # new, known, or a newer version of a model's own line
        # Filed as judged: the reason (the model's, when it was asked) goes with it.
        found.held += [inbox.add(scope.agent, item) for item in settled.items]
        return False

    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        olds, news = old_lines[i1:i2], new_lines[j1:j2]
        if tag == "equal":
            out += olds
            continue
        mine = [line for line in olds if personal(line)]
        pending = list(news)
        for line in olds:
            if line not in mine:
                continue
            # The line of the write that was meant to replace this person's line, if any.
            twin = max(
                (n for n in pending if _is_entry(n)),
                key=lambda n: difflib.SequenceMatcher(a=_body(line), b=_body(n)).ratio(),
                default=None,
            )
            if twin is not None and person_said_correction and value_only(line, twin):
                found.corrected.append((_fact(name, line), _fact(name, twin)))
                found.corrected_lines.append(twin)
                out.append(twin)
                pending.remove(twin)
                continue
            out.append(line)
            found.kept.append(_body(line))
            if twin is not None:
                pending.remove(twin)
                if weigh(twin):
                    out.append(twin if twin.endswith("\n") else twin + "\n")
        out += [line for line in pending if weigh(line)]
    found.text = "".join(out)
    return found


def record_corrections(scope: Scope, name: str, found: Screened, session: str | None) -> None:
    """Once written: each value the person corrected supersedes the old fact.

    The corrected line stays the person's: it says what they said, so no later
    model write may reword it either.
    """
    from memclaw.facts import inbox, store
    from memclaw.facts.model import Event, EventKind

    if not found.corrected:
        return
    theirs = {provenance.line_key(line) for line in found.corrected_lines}
    with scope.agent.lock():
        record = provenance.load(scope.agent, name)
        lines = {k: v for k, v in record.lines.items() if k not in theirs}
        provenance.save(scope.agent, name, provenance.Provenance(record.seq, lines))
    now = scope.agent.now().isoformat(timespec="seconds")
    olds = {old for old, _ in found.corrected if old}
    news = [new for _, new in found.corrected if new]
    store.record(scope.agent, olds, Event(EventKind.SUPERSEDED, now, SOURCE))
    store.record(scope.agent, news, Event(EventKind.STATED, now, SOURCE, session))
    inbox.close_about(scope.agent, olds, now, f"correction ({SOURCE})")


def write_screened(
    scope: Scope, name: str, current: str, found: Screened, session: str | None
) -> tuple[dict[str, Any], str, dict[str, Any] | None]:
    """Write what the screen let through: (tool result, summary, operation).

    Refused outright (an error for the model) when the write would only have
    reworded or removed a person's lines and nothing waits in the inbox.
    """
    from memclaw.workspace.files import write_file

    report = found.report()
    if found.text == current:
        if not found.held:
            kept = "; ".join(repr(line) for line in found.kept[:3])
            raise UsageError(
                f"refused: a person wrote {kept} in {name}; a model may not reword or "
                "remove it. Add a new line instead, or ask the person to change it"
            )
        return {"action": "held", **report}, f"{name} → {len(found.held)} held in the inbox", None
    # Weighed against ``current``: a write the file took meanwhile stays (``text.rebase``).
    result = write_file(scope.agent, name, found.text, Author.MODEL, base=current)
    record_corrections(scope, name, found, session)
    operation: dict[str, Any] = {"op": "file_write", "file": name, "created": False}
    if result["moved_to_overflow"]:
        operation["moved_to_overflow"] = result["moved_to_overflow"]
    summary = f"{name} → written in part" if (found.kept or found.held) else f"{name} → corrected"
    return {**result, "action": "written", **report}, summary, operation
