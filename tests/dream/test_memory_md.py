"""Hand-edited sections survive a rewrite once each, even when a heading repeats."""

import pytest

from memclaw.dream.memory_md import restore_kept

OLD = """\
# Memory

## Rules (hand-edited)
- Never book meetings before 10:00.

## Team
<!-- memclaw:keep -->
- Jonas Ek is the CTO.

## Team
- Kenji Morita is a GIS contractor.

## Rules (hand-edited)
- Always answer in English.
"""


def test_a_faithful_rewrite_with_duplicated_headings_is_left_as_it_is() -> None:
    new = OLD.replace("- Kenji Morita is a GIS contractor.", "- Kenji Morita works on GIS.")
    assert restore_kept(OLD, new) == (new, [])


@pytest.mark.parametrize(
    "dropped", ["## Rules (hand-edited)\n- Never", "## Rules (hand-edited)\n- Always"]
)
def test_a_dropped_namesake_comes_back_in_its_place_and_the_other_is_not_doubled(
    dropped: str,
) -> None:
    start = OLD.index(dropped)
    end = OLD.find("\n## ", start + 1)
    new = OLD[:start] + (OLD[end + 1 :] if end != -1 else "")
    repaired, restored = restore_kept(OLD, new)
    assert repaired == OLD
    assert restored == ["Rules (hand-edited)"]


def test_a_verbatim_ordinary_namesake_is_not_taken_for_the_kept_one() -> None:
    kept = "## Team\n<!-- memclaw:keep -->\n- Jonas Ek is the CTO.\n\n"
    repaired, restored = restore_kept(OLD, OLD.replace(kept, ""))
    assert repaired == OLD and restored == ["Team"]
