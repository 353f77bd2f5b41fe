"""How a dream run reads on the terminal: one line per agent, and the dry run's candidates."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from memclaw.cli.render import out, print_table
from memclaw.text.plural import plural

if TYPE_CHECKING:
    from memclaw.dream.candidates import CandidateReport
    from memclaw.dream.run import DreamResult


def say_dream(result: DreamResult, console: Any) -> None:
    who = f"{result.agent} ({result.owner})" if result.owner else result.agent
    change = f" ({result.change})" if result.status == "updated" else ""
    # A refusal's reason starts "refused: …" itself; the status is said once.
    reason = str(result.reason).removeprefix(f"{result.status}: ")
    status = str(result.status)
    if result.dry_run and result.status == "updated":
        status = f"would be {status}"
    # "unchanged" speaks of MEMORY.md: the notes' corrections may have rewritten others.
    status = f"MEMORY.md {status}" if result.facts.rewritten else status
    console.print(f"{who}: {status}{change}: {reason}", highlight=False)
    if result.engine.startswith("offline ("):  # a model is set, but it could not be used
        console.print(f"{who}: dreamed {result.engine}", highlight=False, markup=False)
    if result.ceiling:
        console.print(f"{who}: {result.ceiling}", style="yellow", highlight=False, markup=False)


def print_dry_run(result: DreamResult) -> None:
    who = f"{result.agent} ({result.owner})" if result.owner else result.agent
    sys.stdout.write(f"# {who}: {result.status} ({result.engine})\n")
    sys.stdout.write(result.diff or "(no change to MEMORY.md)\n")
    if result.report is not None:
        _candidates_table(result.report, f"candidates of {who}")


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _why(cand: Any) -> str:
    """The reason that decided the status (and the recall count, which can decide it)."""
    parts = [r for r in cand.reasons if r.startswith("recalled")]
    if cand.reasons:
        last = cand.reasons[-1]
        parts.append(last.removeprefix("already in ").removeprefix("promoted: "))
    return _clip("; ".join(dict.fromkeys(parts)), 90)


def _candidates_table(report: CandidateReport, title: str, others: int = 10) -> None:
    """The promoted candidates, the best ``others`` of the rest, and a count of the remainder."""
    from rich.table import Table
    from rich.text import Text

    listed = [c for c in report.candidates if c.status != "off-focus"]
    promoted = [c for c in listed if c.status == "promote"]
    rest = sorted((c for c in listed if c.status != "promote"), key=lambda c: -c.score)
    shown = promoted + rest[:others]
    console = out()
    if not shown:
        console.print(f"no candidates in {len(report.notes)} daily notes", highlight=False)
        return
    table = Table(title=title, title_justify="left")
    for column in ("score", "status", "seen on", "fact", "why"):
        table.add_column(column, overflow="fold")
    for cand in shown:
        table.add_row(
            f"{cand.score:.2f}",
            str(cand.status),
            " ".join(d.strftime("%m-%d") for d in cand.days),
            Text(_clip(cand.to_dict()["text"], 100)),  # Text: a note's "[x]" is not markup
            Text(_why(cand)),
        )
    print_table(table, console)
    counted = {str(c.status): 0 for c in listed}
    for cand in listed:
        counted[str(cand.status)] += 1
    counts = ", ".join(f"{counted[s]} {s}" for s in _STATUS_ORDER if s in counted)
    console.print(
        f"{plural(len(listed), 'candidate')} from "
        f"{plural(len(report.notes), 'daily note')}: {counts}",
        highlight=False,
    )
    if len(rest) > others:
        console.print(
            f"{plural(len(rest) - others, 'more candidate')} below the threshold "
            "(use --json for all)",
            highlight=False,
        )


_STATUS_ORDER = (
    "promote",
    "over-limit",
    "below-threshold",
    "known",
    "one-off",
    "corrected",
    "contradicts",
    "secret",
    "instruction",
)
