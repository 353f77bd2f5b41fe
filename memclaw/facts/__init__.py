"""The fact layer: one remembered statement, its stable id, its trust, and its conflicts.

A fact is one list item of PROFILE.md, MEMORY.md, a memory entry or an owner's
file (and of the daily notes a dream scores). Files stay the truth: facts are
projected from them (``project``); what they cannot say is kept beside them,
in the agent's ledger: the evidence (``store``: who stated, confirmed or
rejected a fact, when) and the contradiction inbox (``inbox``). Trust is
computed from both when read (``trust``), so its decay is always current.
``settle`` weighs a new statement against what is remembered.

May import: workspace, config, errors, clock, gates, text.
"""

from __future__ import annotations

from memclaw.facts.ids import FACT_ID, fact_id, normalise_statement

__all__ = ["EVIDENCE", "FACT_ID", "fact_id", "normalise_statement"]

# The ledger's document of every fact's events (``store``); a search reads it on every
# call (trust ranks), so its name is said here and the store is loaded only when needed.
EVIDENCE = "evidence"
