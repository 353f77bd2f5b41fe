"""The loss guard: a machine rewrite of PROFILE.md or MEMORY.md never erodes what a person wrote.

Extraction and dreaming rewrite these files whole. Each rewrite may add, merge
and reword, but never drop an entry a person wrote (any line the provenance
record does not name as a model's: ``workspace.provenance``). The entries
machines wrote that it drops are counted against ``dream_max_loss_ratio`` twice:

* against the *baseline*, the last version a person saw or edited: drops add up
  across runs, so twenty runs that each drop one fact stop once the budget is
  spent instead of taking eight facts down to one;
* against the current file, as each run always was, so facts that machines
  added since the baseline are not lost wholesale in one go either.

How the baseline is known on real files: every guarded rewrite records, in the
ledger's ``guard/<file>`` document, the baseline's entries and the
hash of the text it wrote. When the file on disk no longer has that hash,
something other than a guarded rewrite wrote it: a person in an editor, ``files
write/edit``, ``remember``, an import, an undo. That version is then the new
baseline. A file no guarded rewrite has touched yet is its own baseline. Deleting
``.memclaw/`` only makes the current version the baseline again.

The check and the write happen under one hold of the agent lock (``Agent.update``).
A file that changed since the engine read it is never overwritten: the rewrite
is re-applied to the newer version as line operations (``text.rebase``).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import memclaw.workspace.ledger as ledger
from memclaw.errors import WorkspaceError
from memclaw.gates import contains_secret
from memclaw.gates.secrets import REDACTION_PREFIX
from memclaw.text.likeness import Fingerprint, containment, jaccard
from memclaw.text.plural import plural
from memclaw.text.rebase import rebase
from memclaw.workspace.safeguards import ceiling, provenance
from memclaw.workspace.safeguards.provenance import Author

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent, WriteResult
    from memclaw.workspace.scope import Scope

GUARDED = frozenset({"PROFILE.md", "MEMORY.md"})
STATE_DIR = "guard"
# A kept entry may be reworded by a model; this much word overlap still counts as kept.
REWORDED = 0.5
# An entry merged into a longer one is kept when the longer one says nearly all of it.
MERGED = 0.9
_LIST = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")


def entry_lines(text: str) -> list[str]:
    """The entries of a memory file: list items and text lines, not headings or comments."""
    found = []
    in_fence = False
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence or not line or line.startswith("#") or _COMMENT.match(line):
            continue
        if line.startswith("> ✂ memclaw truncated"):
            continue
        found.append(_LIST.sub("", line).strip())
    return [entry for entry in found if entry]


@dataclass(frozen=True)
class Loss:
    before: int
    lost: list[str]

    @property
    def ratio(self) -> float:
        return len(self.lost) / self.before if self.before else 0.0


def measure_loss(old: str | list[str], new: str) -> Loss:
    """Entries of ``old`` (a text or its entries) that ``new`` no longer holds, even reworded."""
    # A line holding a credential is not memory the budget protects: the gate keeps
    # credentials out of memory, and a model only ever sees it redacted.
    old_entries = [e for e in (entry_lines(old) if isinstance(old, str) else old) if not _secret(e)]
    new_entries = entry_lines(new)
    exact = {" ".join(e.split()).lower() for e in new_entries}
    prints = [Fingerprint.of(e) for e in new_entries]
    lost = []
    for entry in old_entries:
        if " ".join(entry.split()).lower() in exact:
            continue
        fp = Fingerprint.of(entry)
        if any(_kept(fp, other) for other in prints):
            continue
        lost.append(entry)
    return Loss(len(old_entries), lost)


def _secret(entry: str) -> bool:
    return REDACTION_PREFIX in entry or contains_secret(entry)


def _kept(old: Fingerprint, new: Fingerprint) -> bool:
    if jaccard(old.tokens, new.tokens) >= REWORDED:
        return True
    return len(old.tokens) >= 3 and containment(old.tokens, new.tokens) >= MERGED


# --- the verdict -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What a rewrite of one file would drop, from the person's baseline and from now."""

    rel: str
    limit: float
    baseline: Loss
    current: Loss
    # Entries a person wrote (not lines a model brought in) that the rewrite drops:
    # these are never within budget.
    personal: list[str] = field(default_factory=list)

    @property
    def allowed(self) -> bool:
        within = self.baseline.ratio <= self.limit and self.current.ratio <= self.limit
        return within and not self.personal

    @property
    def lost(self) -> list[str]:
        """Every entry the rewrite drops, secrets redacted: safe for logs and screens."""
        from memclaw.gates import redact

        seen: dict[str, None] = {}
        for entry in [*self.personal, *self.baseline.lost, *self.current.lost]:
            seen.setdefault(redact(entry), None)
        return list(seen)

    def explain(self) -> str:
        if self.personal:
            return (
                f"the rewrite would drop {plural(len(self.personal), 'line')} a person wrote, "
                "which no machine rewrite may remove"
            )
        worse, since = (
            (self.baseline, " counted from the version a person last saw")
            if self.baseline.ratio > self.limit or self.baseline.ratio >= self.current.ratio
            else (self.current, "")
        )
        return (
            f"the rewrite would drop {len(worse.lost)} of {worse.before} entries "
            f"({worse.ratio:.0%}, more than {self.limit:.0%}){since}"
        )


class LossRefusedError(WorkspaceError):
    """A rewrite would drop more than the loss budget allows; nothing was written."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(f"{verdict.rel}: refused: {verdict.explain()}")
        self.verdict = verdict


# --- the state beside the history --------------------------------------------------------------


@dataclass(frozen=True)
class _State:
    baseline: list[str]  # entries of the last version a person saw, secrets redacted
    written: list[str]  # hashes of texts guarded rewrites left: the newest and the one before


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def document(rel: str) -> str:
    """The ledger's document of the baseline of ``rel``."""
    return f"{STATE_DIR}/{rel}"


def _load(agent: Agent, rel: str) -> _State | None:
    data = ledger.load(agent.meta_dir, document(rel))[0]
    if not isinstance(data, dict):
        return None  # no state, or a damaged one: the current version is the baseline
    baseline, written = data.get("baseline"), data.get("written")
    if not isinstance(baseline, list) or not isinstance(written, list):
        return None
    return _State([str(entry) for entry in baseline], [str(sha) for sha in written])


def baseline_entries(agent: Agent, rel: str, current: str) -> list[str]:
    """Entries of the last version a person saw: the recorded one, unless the file moved on."""
    state = _load(agent, rel)
    if state is not None and _sha(current) in state.written:
        return state.baseline
    from memclaw.gates import redact

    return [redact(entry) for entry in entry_lines(current)]


def judge(
    agent: Agent, rel: str, current: str, new: str, released: frozenset[str] = frozenset()
) -> Verdict:
    """How much of the baseline and of ``current`` the rewrite to ``new`` keeps.

    The budget is for lines machines wrote; a line a person wrote (any line the
    provenance record does not name as a model's) may be reworded or merged, never
    dropped. ``released``: model entries the rewrite drops by the person's own rule
    (a category's time to live, the trust floor): dropping them is no loss.
    """
    now = measure_loss(_unreleased(entry_lines(current), released), new)
    by_model = _model_entries(agent, rel, current)
    return Verdict(
        rel,
        agent.settings.dream_max_loss_ratio,
        measure_loss(_unreleased(baseline_entries(agent, rel, current), released), new),
        now,
        [entry for entry in now.lost if entry not in by_model],
    )


def _unreleased(entries: list[str], released: frozenset[str]) -> list[str]:
    if not released:
        return entries
    let_go = {" ".join(_LIST.sub("", e).split()).casefold() for e in released}
    return [e for e in entries if " ".join(e.split()).casefold() not in let_go]


def _model_entries(agent: Agent, rel: str, text: str) -> set[str]:
    record = provenance.load(agent, rel)
    return {
        _LIST.sub("", line).strip()
        for line in text.splitlines()
        if provenance.line_key(line) in record.lines
    }


def preview(
    scope: Scope, name: str, current: str, new: str, released: frozenset[str] = frozenset()
) -> Verdict:
    """The verdict a rewrite would get now; for dry runs, which write nothing.

    Loss is judged before the ceiling: what it moves to the overflow file is kept.
    """
    return judge(scope.agent, scope.rel(name), current, new, released)


def rewrite(
    scope: Scope,
    name: str,
    *,
    expected: str,
    new: str,
    established: frozenset[str] = frozenset(),
    released: frozenset[str] = frozenset(),
) -> WriteResult:
    """Turn ``name`` from ``expected`` (the version the rewrite was made from) into ``new``.

    When the file changed since it was read (another writer, a person's editor),
    what the rewrite did is done to the newer version instead (:func:`rebase`),
    so neither write is lost. Raises :class:`LossRefusedError` when the result
    drops too much; nothing is written then. The check and the write are one
    hold of the agent lock.
    ``established``: keys of lines a ceiling moves last (see ``ceiling.plan``);
    ``released``: entries dropped by the person's own rule, no loss (see :func:`judge`).
    """
    agent, rel = scope.agent, scope.rel(name)
    if Path(rel).name not in GUARDED:
        raise WorkspaceError(f"{rel} is not a file the loss guard protects")

    def transform(current: str) -> str:
        target = rebase(expected, new, current)
        verdict = judge(agent, rel, current, target, released)
        if not verdict.allowed:
            raise LossRefusedError(verdict)
        # Recorded before the file is replaced, still under the lock. Should that write
        # fail, the file keeps ``current``, which is listed too: the baseline holds.
        # The hash is of the text as the ceiling will leave it, computed the same way.
        landed = ceiling.preview(agent, rel, current, target, Author.MODEL, established)
        payload = {
            # What was let go is not owed to the person's version any more either.
            "baseline": _unreleased(baseline_entries(agent, rel, current), released),
            "written": [_sha(landed), _sha(current)],
        }
        ledger.save(agent.meta_dir, document(rel), payload)
        return target

    return agent.update(
        rel, transform, introduced=new, author=Author.MODEL, established=established
    )
