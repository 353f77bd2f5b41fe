"""The morning card: the newest dream report nobody has reviewed, and the review.

A card lists what the dream promoted (each line with Confirm / Edit / Forget),
what it dropped, the contradictions it found, the facts whose trust fell, and
the SOUL.md diff waiting since its last revision. Reviewing it applies the
person's choices through :mod:`memclaw.morning.actions` and records them in the
report, so the card is not shown again; skipping it records that too.
The first chat of a day opens with the card (``morning_card: false`` turns it
off): ``due`` says whether it should, and ``mark_seen`` remembers it was shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memclaw.dream import report
from memclaw.errors import UsageError
from memclaw.morning import actions, soul
from memclaw.workspace import ledger

if TYPE_CHECKING:
    from pathlib import Path

    from memclaw.workspace.scope import Scope

CONFIRM, EDIT, FORGET = "confirm", "edit", "forget"
SECTIONS = ("promoted", "trust_fell", "contradictions", "dropped")


@dataclass
class Card:
    path: Path
    report: dict[str, Any]
    soul_diff: str = ""

    @property
    def run(self) -> str:
        return str(self.report.get("run"))

    def items(self, section: str) -> list[dict[str, Any]]:
        found = self.report.get(section) or []
        return [i for i in found if isinstance(i, dict) and i.get("fact")]

    @property
    def facts(self) -> list[dict[str, Any]]:
        """The facts a person can act on: what the dream wrote and what lost trust."""
        return [*self.items("promoted"), *self.items("trust_fell"), *self.items("contradictions")]

    def to_dict(self) -> dict[str, Any]:
        data = {
            k: self.report.get(k) for k in ("run", "time", "owner", "status", "engine", "reason")
        }
        for section in SECTIONS:
            data[section] = self.items(section)
        data["soul_diff"] = self.soul_diff
        data["actions"] = [CONFIRM, EDIT, FORGET]
        return data


@dataclass
class Review:
    run: str
    outcomes: list[actions.Outcome] = field(default_factory=list)
    soul: soul.SoulResult | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "outcomes": [o.to_dict() for o in self.outcomes],
            "soul": self.soul.to_dict() if self.soul else None,
        }


def _worth_showing(data: dict[str, Any]) -> bool:
    return any(data.get(s) for s in SECTIONS)


def latest(scope: Scope) -> Card | None:
    """The newest unreviewed report with something to act on, with any pending SOUL diff."""
    diff = soul.pending_diff(scope)
    for path, data in report.recent(scope):
        if data.get("reviewed"):
            continue
        if _worth_showing(data) or diff:
            return Card(path, data, diff)
    return None


def review(
    scope: Scope,
    card: Card,
    *,
    confirm: list[str] = (),  # type: ignore[assignment]
    forget: list[str] = (),  # type: ignore[assignment]
    edit: dict[str, str] | None = None,
) -> Review:
    """Apply the person's choices on ``card`` and mark it reviewed (empty choices: skipped)."""
    on_card = {str(i["fact"]) for i in card.facts}
    for wanted in [*confirm, *forget, *(edit or {})]:
        if wanted not in on_card:
            raise UsageError(f"{wanted} is not a fact on this card; `memclaw morning` lists them")
    done = Review(card.run)
    for fid in confirm:
        done.outcomes.append(actions.confirm(scope, fid))
    for fid, text in (edit or {}).items():
        done.outcomes.append(actions.edit(scope, fid, text))
    for fid in forget:
        done.outcomes.append(actions.forget(scope, fid))
    card.report["reviewed"] = {
        "time": scope.agent.now().isoformat(timespec="seconds"),
        "decisions": {o.fact: o.action for o in done.outcomes},
    }
    report.save(card.path, card.report)
    soul.mark_shown(scope)
    if confirm or edit:
        done.soul = soul.evolve(scope)
    return done


# --- the first chat of a day ---------------------------------------------------------------


def _seen(scope: Scope) -> str:
    """The ledger's document of the day this scope's card was last seen."""
    return f"morning.{scope.label}"


def due(scope: Scope) -> Card | None:
    """The card the first chat of today opens with; None when off, seen today, or empty."""
    if not scope.agent.settings.morning_card:
        return None
    seen = ledger.load(scope.agent.meta_dir, _seen(scope))[0]
    if isinstance(seen, dict) and seen.get("day") == scope.agent.now().date().isoformat():
        return None
    return latest(scope)


def mark_seen(scope: Scope) -> None:
    day = scope.agent.now().date().isoformat()
    ledger.save(scope.agent.meta_dir, _seen(scope), {"day": day})
