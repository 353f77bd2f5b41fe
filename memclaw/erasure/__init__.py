"""Erasure (forget everywhere): one fact out of every place a scope keeps it, never learned again.

``plan_forget`` shows where a fact (found by its words or its id) lives: the
memory files, entries, daily notes, transcripts, previous versions, logs, the
dream diary, the index and its vectors. ``apply_forget`` removes it from all of
them and keeps a hashed fingerprint (``memclaw.extract.forgotten``) that
extraction, dreams, imports and tool calls honour.

May import: workspace, facts, index, text, config, errors, and extract (the
fingerprints) and review (cleaning the SQLite index).
"""

from memclaw.erasure.run import (
    Fact,
    ForgetPlan,
    NothingMatchesError,
    apply_forget,
    plan_forget,
)

__all__ = ["Fact", "ForgetPlan", "NothingMatchesError", "apply_forget", "plan_forget"]
