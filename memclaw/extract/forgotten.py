"""What the user asked to forget, so that it is not learned again.

Only a fingerprint is kept (hashed normalised tokens in
the ledger's ``forgotten`` stream): enough to recognise the same fact when
an extraction, a dream, an import or a tool call brings it back, not enough
to read it. Two kinds of record:

* a *statement* (``memclaw forget`` by id or words, ``memories forget``):
  a candidate restating it, or saying most of it, is the same fact;
* the *words* a person forgot by (``memclaw forget max "pregnant"``): a
  candidate holding every one of them is what they asked never to keep.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memclaw.text.likeness import containment, fingerprint, jaccard, near_twin, sequence_print
from memclaw.workspace.logs import append_log, read_log

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

LOG = "forgotten"
WORDS = "words"
# "right-knee" is one token to the likeness functions; a person forgetting "knee" means it too.
_JOINERS = re.compile(r"[.:/+'-]+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_VALUE_WORD = re.compile(r"[\w.:/+'-]+")


def _label(scope: Scope) -> str:
    # The records name a scope by its folder (older logs too), 'team' for the shared one.
    return scope.prefix or "team"


def record_forgotten(scope: Scope, text: str, *, entry_id: str) -> None:
    append_log(
        scope.agent,
        LOG,
        {
            "action": "forget",
            "id": entry_id,
            "scope": _label(scope),
            "fingerprint": fingerprint(text),
            "values": _values(text),
            # In order: a near twin (server beta, invoice 4412) is told from a restatement.
            "sequence": sequence_print(text),
        },
    )


def _values(text: str) -> list[str]:
    """The hashed tokens of ``text`` that hold a digit (its dates, times, amounts)."""
    found = (w for w in _VALUE_WORD.findall(text) if any(c.isdigit() for c in w))
    return fingerprint(" ".join(found))


def record_forgotten_words(scope: Scope, words: str) -> None:
    """Forget by words: any later fact holding all of them is not learned again."""
    append_log(
        scope.agent,
        LOG,
        {"action": "forget", "kind": WORDS, "scope": _label(scope), "fingerprint": _print(words)},
    )


def record_relearned(scope: Scope, text: str) -> None:
    """The user explicitly asked to remember a forgotten fact again."""
    append_log(
        scope.agent,
        LOG,
        {"action": "relearn", "scope": _label(scope), "fingerprint": fingerprint(text)},
    )


def _print(text: str) -> list[str]:
    """The fingerprint of ``text`` with hyphenated and dotted words also taken apart."""
    return sorted(set(fingerprint(text)) | set(fingerprint(_JOINERS.sub(" ", text))))


def same_fact(forgot: list[str], candidate: list[str]) -> bool:
    if not forgot or not candidate:
        return False
    if jaccard(forgot, candidate) >= 0.6:
        return True
    # A longer restatement of the forgotten fact ("... because of speed") is the same fact.
    if containment(forgot, candidate) >= 0.85 and len(candidate) <= 2 * len(forgot) + 2:
        return True
    # So is a shorter one that says most of it ("Maya is pregnant" of "Maya is pregnant, due May").
    return containment(candidate, forgot) >= 0.85 and 2 * len(candidate) >= len(forgot)


def _has_words(words: list[str], candidate: list[str]) -> bool:
    return bool(words) and containment(words, candidate) >= 1.0


def other_value(forgot: list[str], candidate: list[str]) -> bool:
    """True when ``candidate`` states a value (a date, a number) the forgotten fact did not.

    Both are hashed value tokens: "starts 2026-12-21" is a corrected fact, not
    the forgotten "starts 2026-12-18", and forgetting one never blocks the other.
    """
    return bool(forgot) and bool(candidate) and not set(candidate) <= set(forgot)


@dataclass(frozen=True)
class Blocker:
    """The forget that blocks a text: when, which fact (its id), or by which words."""

    time: str
    kind: str  # "statement" or WORDS
    fact: str = ""  # the forgotten fact's id, for a statement
    prints: tuple[str, ...] = ()
    sequence: tuple[str, ...] = ()  # the statement's hashed tokens in order (older records: none)


def _active(scope: Scope) -> list[tuple[Blocker, list[str]]]:
    label = _label(scope)
    active: list[tuple[Blocker, list[str]]] = []
    for record in read_log(scope.agent, LOG):
        if record.get("scope") != label or not isinstance(record.get("fingerprint"), list):
            continue
        prints = [str(token) for token in record["fingerprint"]]
        if record.get("action") == "relearn":
            # `remember --force` of a forgotten fact lifts whatever would block it.
            active = [
                (b, v)
                for b, v in active
                if not (
                    _has_words(list(b.prints), prints)
                    if b.kind == WORDS
                    else same_fact(list(b.prints), prints)
                )
            ]
        else:
            values, sequence = record.get("values"), record.get("sequence")
            blocker = Blocker(
                str(record.get("time") or ""),
                str(record.get("kind") or "statement"),
                str(record.get("id") or ""),
                tuple(prints),
                tuple(str(t) for t in sequence) if isinstance(sequence, list) else (),
            )
            active.append((blocker, [str(v) for v in values] if isinstance(values, list) else []))
    return active


def forgotten_blocker(scope: Scope) -> Callable[[str], Blocker | None]:
    """A function naming the forget that ``text`` restates in this scope (None: none does)."""
    active = _active(scope)

    def find(text: str) -> Blocker | None:
        if not active:
            return None
        candidate = fingerprint(text)
        whole: list[str] | None = None
        values: list[str] | None = None
        for blocker, forgot_values in active:
            if blocker.kind == WORDS:
                whole = whole if whole is not None else _print(text)
                if _has_words(list(blocker.prints), whole):
                    return blocker
            elif same_fact(list(blocker.prints), candidate):
                values = values if values is not None else _values(text)
                if not other_value(forgot_values, values) and not near_twin(
                    blocker.sequence, sequence_print(text)
                ):
                    return blocker
        return None

    return find


def forgotten_checker(scope: Scope) -> Callable[[str], bool]:
    """A predicate: True when ``text`` restates something forgotten in this scope."""
    find = forgotten_blocker(scope)
    return lambda text: find(text) is not None


def without_forgotten(
    text: str, check: Callable[[str], bool], *, keep: str = ""
) -> tuple[str, int]:
    """``text`` without the lines that restate a forgotten fact, and how many went.

    For what a dream, an import or a tool is about to write: the person asked
    for these never to be kept again. Headings, blank lines and the lines of
    ``keep`` (what the file already holds: a person may have written it back
    on purpose) are left alone.
    """
    kept, dropped = [], 0
    already = {line.strip() for line in keep.splitlines()}
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if (
            stripped
            and not stripped.startswith("#")
            and stripped not in already
            and check(stripped)
        ):
            dropped += 1
            continue
        kept.append(line)
    return "".join(kept), dropped


def redact_forgotten(text: str, check: Callable[[str], bool]) -> str:
    """Prose (a model's reason) with each sentence that restates a forgotten fact taken out."""
    if not text or (not check(text) and not any(check(s) for s in _SENTENCE.split(text))):
        return text
    return " ".join(s if not check(s) else "[forgotten]" for s in _SENTENCE.split(text))
