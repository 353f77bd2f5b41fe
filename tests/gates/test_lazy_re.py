"""LazyPattern: the secret gate's patterns behave as compiled ones, compiled only when used."""

import re

import pytest

from memclaw.gates.lazy_re import LazyPattern


def _span(match: re.Match[str] | None) -> tuple[int, int] | None:
    return match.span() if match else None


def test_a_pattern_is_not_compiled_until_it_is_used() -> None:
    broken = LazyPattern("(unclosed")  # re.compile would raise here
    with pytest.raises(re.error):
        broken.search("text")


def test_it_answers_as_the_compiled_pattern() -> None:
    source, flags = r"(?P<k>[a-z]+)=(\d+)", re.IGNORECASE
    lazy, real = LazyPattern(source, flags), re.compile(source, flags)
    text = "A=1, bb=22; C = 3"
    assert lazy.pattern == real.pattern
    for pos in (0, 1, 4, 5):
        assert _span(lazy.search(text, pos)) == _span(real.search(text, pos))
        assert _span(lazy.match(text, pos)) == _span(real.match(text, pos))
        assert _span(lazy.fullmatch(text, pos, 10)) == _span(real.fullmatch(text, pos, 10))
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in real.finditer(text)]
    assert lazy.findall(text, 0, 9) == real.findall(text, 0, 9) == [("A", "1"), ("bb", "2")]
    assert lazy.sub(r"\2", text) == real.sub(r"\2", text)
    upper = lambda m: m.group("k").upper()  # noqa: E731
    assert lazy.sub(upper, text, 1) == real.sub(upper, text, 1)
