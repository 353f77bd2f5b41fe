"""Consolidation joins fragments of one category only: a project fact never hides in a preference.

Joined into another category's entry, a project fact would lose its category, and with it its
retention (ttl_days) and its heading.
"""

from __future__ import annotations

from memclaw.dream.consolidate import merge_entries_offline
from memclaw.workspace.entries import Entry

PLANT = "Maya keeps a plant on the office window sill."
PILOT = "The lotsen pilot runs in the Malmö office."


def test_fragments_of_two_categories_are_not_joined() -> None:
    entries = [Entry("m-plant", PLANT, "preference"), Entry("m-pilot", PILOT, "project")]
    merged = merge_entries_offline(entries)
    assert {(e.text, e.category) for e in merged} == {(PLANT, "preference"), (PILOT, "project")}
    same = [Entry("m-plant", PLANT, "preference"), Entry("m-pilot", PILOT, "preference")]
    assert len(merge_entries_offline(same)) == 1  # the same two in one category do join
