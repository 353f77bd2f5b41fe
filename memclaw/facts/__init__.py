"""The fact layer: one remembered statement, its stable id, its trust, and its conflicts.

A fact is one list item of PROFILE.md, MEMORY.md, a memory entry or an owner's
file (and of the daily notes a dream scores). Files stay the truth: facts are
projected from them (``project``); what they cannot say is kept beside them
under ``.memclaw/facts/``: the evidence (``store``: who stated, confirmed or
rejected a fact, when) and the contradiction inbox (``inbox``). Trust is
computed from both when read (``trust``), so its decay is always current.
``settle`` weighs a new statement against what is remembered.

Where those files live is said here, not in ``store``: a search looks for the
evidence on every call (trust ranks) and loads the rest only when it is there.

May import: workspace, config, errors, clock, gates, text.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from memclaw.facts.ids import FACT_ID, fact_id, normalise_statement

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent

__all__ = ["FACT_ID", "evidence_path", "fact_id", "facts_dir", "normalise_statement"]

FACTS_DIR = "facts"


def facts_dir(agent: Agent) -> Path:
    return agent.meta_dir / FACTS_DIR


def evidence_path(agent: Agent) -> Path:
    return facts_dir(agent) / "evidence.json"
