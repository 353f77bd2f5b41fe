"""Recall from several providers shares one budget; none crowds the others out."""

from hypothesis import given
from hypothesis import strategies as st

from memclaw.providers import RecallBlock, compose_recall
from memclaw.providers.compose import SEPARATOR


def _block(name: str, count: int, width: int = 60) -> RecallBlock:
    lines = tuple(f"- {name} memory {i} " + "x" * width for i in range(count))
    return RecallBlock(name, f"## {name}", lines, "intro")


def test_a_flooding_provider_cannot_crowd_out_a_small_one() -> None:
    big, small = _block("big", 200), _block("small", 2)
    texts = compose_recall([big, small], 1200)
    assert len(SEPARATOR.join(texts)) <= 1200
    assert texts[1] == small.text()  # the small one is whole
    assert "more left out: recall budget" in texts[0]


def test_unused_room_goes_to_the_provider_that_needs_it() -> None:
    big, small = _block("big", 30), _block("small", 1)
    texts = compose_recall([big, small], 2000)
    alone = compose_recall([big], 2000 - len(small.text()) - len(SEPARATOR))
    assert texts[0] == alone[0]


def test_a_cut_block_keeps_whole_lines_and_empty_blocks_vanish() -> None:
    texts = compose_recall([_block("a", 5), RecallBlock("b", "## b")], 300)
    assert len(texts) == 1
    assert all(line.endswith("x") or not line.startswith("- ") for line in texts[0].splitlines())


def test_zero_means_no_budget() -> None:
    big = _block("big", 100)
    assert compose_recall([big], 0) == [big.text()]


@given(
    st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=4),
    st.integers(min_value=1, max_value=5000),
)
def test_the_total_never_passes_the_budget(counts: list[int], budget: int) -> None:
    blocks = [_block(f"p{i}", n, 30) for i, n in enumerate(counts)]
    assert len(SEPARATOR.join(compose_recall(blocks, budget))) <= budget
