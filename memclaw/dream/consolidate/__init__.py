"""Structured consolidation: merge near-duplicate and stale memory entries.

Runs per bucket: the agent's TEAM entries, then each owner's PERSONAL entries.
Buckets below ``consolidate_min_entries`` are skipped; at most
``consolidate_max_owners`` owner buckets are handled per run, those consolidated
longest ago first, the rest next time. The number of entries may only go down:
a result with more entries than before is discarded and logged.

:mod:`.merging` merges a bucket's entries (offline or by the model); :mod:`.buckets`
chooses the buckets, plans each and writes it.
"""

from memclaw.dream.consolidate.buckets import Bucket, ConsolidateResult, consolidate_agent
from memclaw.dream.consolidate.merging import (
    EntriesGrewError,
    merge_entries_model,
    merge_entries_offline,
)
from memclaw.workspace.entries import CATEGORIES

__all__ = [
    "CATEGORIES",
    "Bucket",
    "ConsolidateResult",
    "EntriesGrewError",
    "consolidate_agent",
    "merge_entries_model",
    "merge_entries_offline",
]
