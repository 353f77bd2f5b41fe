"""parse_json_answer and check_required: the shapes models really answer in."""

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memclaw.errors import ModelAnswerError
from memclaw.llm import check_required, parse_json_answer


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        '  \n{"a": 1}\n',
        '```json\n{"a": 1}\n```',
        '```JSON\n{"a": 1}```',
        '```\n{"a": 1}\n```',
        '```{"a": 1}```',
        'Here is the result:\n```json\n{"a": 1}\n```\nLet me know if that helps.',
        'Sure! {"a": 1} is my answer.',
        'The object {"a": 1}',
        'Braces in prose { first, then {"a": 1}.',
        'Note: {not json} and then {"a": 1}',
    ],
)
def test_accepts_wrapped_json(text: str) -> None:
    assert parse_json_answer(text) == {"a": 1}


def test_braces_and_quotes_inside_strings_do_not_confuse_the_scan() -> None:
    payload = {"text": 'a } tricky " value {', "more": "```"}
    text = f"Answer follows: {json.dumps(payload)} -- end"
    assert parse_json_answer(text) == payload


def test_nested_object_is_returned_whole() -> None:
    assert parse_json_answer('ok: {"a": {"b": [1, {"c": 2}]}} done') == {"a": {"b": [1, {"c": 2}]}}


def test_plain_non_object_json_is_returned() -> None:
    assert parse_json_answer("[1, 2]") == [1, 2]
    assert parse_json_answer("true") is True


@pytest.mark.parametrize(
    "text", ["", "   ", "no json here", "{broken: json", '{"a": 1', "```\n```"]
)
def test_rejects_non_json(text: str) -> None:
    with pytest.raises(ModelAnswerError) as info:
        parse_json_answer(text)
    assert "\n" not in str(info.value)


def test_rejection_message_is_short_and_single_line() -> None:
    with pytest.raises(ModelAnswerError) as info:
        parse_json_answer("word\n" * 500)
    assert len(str(info.value)) < 200
    assert "\n" not in str(info.value)


def test_many_unbalanced_braces_stay_fast() -> None:
    with pytest.raises(ModelAnswerError):
        parse_json_answer("{" * 20000)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
objects = st.dictionaries(st.text(max_size=10), json_values, max_size=6)
prose = st.text(
    alphabet=st.characters(exclude_characters="{}`", exclude_categories=["Cs"]),
    max_size=40,
)


@given(
    obj=objects,
    before=prose,
    after=prose,
    fence=st.sampled_from(["", "```\n", "```json\n"]),
    ascii_only=st.booleans(),
    indent=st.sampled_from([None, 2]),
)
def test_round_trip_through_prose_and_fences(
    obj: dict[str, Any], before: str, after: str, fence: str, ascii_only: bool, indent: int | None
) -> None:
    body = json.dumps(obj, ensure_ascii=ascii_only, indent=indent)
    wrapped = f"{fence}{body}\n```" if fence else body
    assert parse_json_answer(f"{before}{wrapped}{after}") == obj


def test_check_required_accepts_the_right_shape() -> None:
    value = {"should_update": False, "reason": "r", "items": [], "extra": 1, "meta": {}}
    required = {"should_update": bool, "reason": str, "items": list, "meta": dict}
    assert check_required(value, required) is value


def test_check_required_tuple_of_types() -> None:
    assert check_required({"x": None}, {"x": (str, type(None))}) == {"x": None}


@pytest.mark.parametrize(
    ("value", "needle"),
    [
        ([1, 2], "JSON list"),
        ({"reason": "r"}, "lacks 'should_update'"),
        ({"should_update": "true", "reason": "r"}, "'should_update' should be bool, got str"),
        ({"should_update": True, "reason": None}, "'reason' should be str, got null"),
        ({"should_update": 1, "reason": "r"}, "should be bool, got int"),
    ],
)
def test_check_required_rejects(value: Any, needle: str) -> None:
    with pytest.raises(ModelAnswerError, match=needle):
        check_required(value, {"should_update": bool, "reason": str})


def test_booleans_are_not_numbers() -> None:
    with pytest.raises(ModelAnswerError):
        check_required({"n": True}, {"n": int})
    assert check_required({"n": 3}, {"n": float}) == {"n": 3}


@pytest.mark.parametrize(
    "text", ["[" * 5000 + "]" * 5000, "Here:\n```json\n" + '{"a":' * 5000 + "1" + "}" * 5000]
)
def test_deeply_nested_answer_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(ModelAnswerError, match="deeper than 64 levels"):
        parse_json_answer(text)
