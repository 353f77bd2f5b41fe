"""The one JSON reader: ordinary JSON decodes as usual, deep nesting is a decode error."""

import json

import pytest

from memclaw.text import jsonsafe

DEEP = "[" * 5000 + "]" * 5000


def test_ordinary_json_decodes_like_json_loads() -> None:
    text = json.dumps({"a": [1, {"b": "c"}], "d": None})
    assert jsonsafe.loads(text) == json.loads(text)


def test_deep_nesting_is_a_json_decode_error_not_a_recursion_error() -> None:
    with pytest.raises(json.JSONDecodeError, match="nested deeper than 64 levels") as caught:
        jsonsafe.loads(DEEP)
    assert isinstance(caught.value, jsonsafe.JSONTooDeepError)
    assert caught.value.pos == 64  # the first bracket over the limit


def test_the_limit_is_exact_and_objects_count_too() -> None:
    assert jsonsafe.loads("[" * 64 + "]" * 64) is not None
    with pytest.raises(jsonsafe.JSONTooDeepError):
        jsonsafe.loads('{"a":' * 65 + "1" + "}" * 65)


def test_brackets_inside_strings_do_not_count() -> None:
    text = json.dumps({"text": "[" * 500 + '\\" {{{' * 100, "n": [[1]]})
    assert jsonsafe.loads(text)["n"] == [[1]]


def test_invalid_json_still_raises_the_usual_error() -> None:
    with pytest.raises(json.JSONDecodeError) as caught:
        jsonsafe.loads('{"a": ')
    assert not isinstance(caught.value, jsonsafe.JSONTooDeepError)
