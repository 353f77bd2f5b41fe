"""The streaming word wrapper behind chat answers on a terminal."""

from hypothesis import given
from hypothesis import strategies as st

from memclaw.cli.talk.answer import WordWrapper


def wrap(text: str, width: int = 30, step: int = 3) -> str:
    wrapper = WordWrapper(lambda: width)
    out = "".join(wrapper.feed(text[i : i + step]) for i in range(0, len(text), step))
    return out + wrapper.finish()


def test_prose_wraps_at_words_and_keeps_single_line_breaks() -> None:
    text = (
        "one two three four five six seven eight nine ten eleven\n"
        "line two\n- item that goes on and on past the edge"
    )
    assert wrap(text) == (
        "one two three four five six\n"
        "seven eight nine ten eleven\n"
        "line two\n"
        "- item that goes on and on\n"
        "  past the edge\n"
    )


def test_code_and_tables_pass_through_verbatim() -> None:
    code = "    x = 'a line of code far wider than the thirty columns'"
    table = "| a long table row | that must not be wrapped at all |"
    text = f"```python\n{code}\n```\n{table}\nafter"
    assert wrap(text) == f"```python\n{code}\n```\n{table}\nafter\n"


def test_a_narrower_terminal_takes_effect_on_the_next_word() -> None:
    widths = iter([80] * 3 + [10] * 100)
    wrapper = WordWrapper(lambda: next(widths))
    out = wrapper.feed("aaa bbb ccc ddd eee fff ") + wrapper.finish()
    assert out.split() == ["aaa", "bbb", "ccc", "ddd", "eee", "fff"]
    assert all(len(row) <= 10 for row in out.splitlines()[1:])


@given(st.text(alphabet="ab \n-`|", max_size=200), st.integers(1, 9))
def test_no_character_but_wrapped_spaces_is_lost(text: str, step: int) -> None:
    out = wrap(text, width=12, step=step)
    assert "".join(out.split()) == "".join(text.split())
