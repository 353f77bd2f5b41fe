"""The fact layer: one remembered statement, its stable id, its trust, and its conflicts.

A fact is one list item of PROFILE.md, MEMORY.md, a memory entry or an owner's
file (and each candidate a dream scores from daily notes). Files stay the
truth: everything here is derived from them, or kept beside them under
``.memclaw/facts/`` (feedback, the contradiction inbox), so the index can
always be rebuilt.

May import: workspace, config, errors, clock, gates, text.
"""

from memclaw.facts.conflict import Verdict, is_correction, judge
from memclaw.facts.ids import FACT_ID, fact_id, normalise_statement

__all__ = ["FACT_ID", "Verdict", "fact_id", "is_correction", "judge", "normalise_statement"]
