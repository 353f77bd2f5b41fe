"""Reading JSON out of what a model actually says.

Models asked for JSON often wrap it in a code fence or a sentence of prose; small local
models do so even when the server was asked for a JSON object. We accept those shapes and
reject everything else with a one-line reason, so nothing half-understood is ever written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from memclaw.errors import ModelAnswerError
from memclaw.text import jsonsafe

# Reasoning models (Qwen3, DeepSeek-R1 distills on llama.cpp or Ollama) open their answer
# with their thoughts; when the chat template itself opened the block, only its end shows.
_THINKING = re.compile(r"\A\s*(?:<think>.*?</think>|(?:(?!<think>).)*?</think>)\s*", re.DOTALL)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\r?\n?(.*?)```", re.DOTALL)
# Scanning is quadratic in the worst case; a real answer never needs more starts than this.
_MAX_OBJECT_STARTS = 64
_PREVIEW = 80


def _preview(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _PREVIEW else flat[: _PREVIEW - 1] + "…"


def _loads(text: str) -> tuple[bool, Any]:
    try:
        return True, jsonsafe.loads(text)
    except ValueError:
        return False, None


def _balanced_objects(text: str) -> Iterator[str]:
    """Each candidate ``{...}`` span, in order of its opening brace, aware of JSON strings."""
    starts = 0
    position = text.find("{")
    while position != -1 and starts < _MAX_OBJECT_STARTS:
        starts += 1
        depth = 0
        in_string = escaped = False
        for index in range(position, len(text)):
            char = text[index]
            if in_string:
                if escaped:
                    escaped = False
                elif char == "\\":
                    escaped = True
                elif char == '"':
                    in_string = False
            elif char == '"':
                in_string = True
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    yield text[position : index + 1]
                    break
        position = text.find("{", position + 1)


def without_thinking(text: str) -> str:
    """``text`` without the ``<think>…</think>`` block a reasoning model opens its answer with.

    A block still open at the end (the answer was cut off while thinking) is left alone:
    there is no answer after it to keep.
    """
    return _THINKING.sub("", text, count=1)


def parse_json_answer(text: str) -> Any:
    """Decode the JSON in a model answer.

    A leading ``<think>`` block is dropped first: a draft object inside it is not the
    answer. Then tried in order: the whole text; the body of each ``` or ```json fence;
    the first balanced ``{...}`` object found in surrounding prose. Raises
    ModelAnswerError when none of them is valid JSON.
    """
    stripped = without_thinking(text).strip()
    if not stripped:
        raise ModelAnswerError("the model gave an empty answer where JSON was expected")
    ok, value = _loads(stripped)
    if ok:
        return value
    for match in _FENCE.finditer(stripped):
        ok, value = _loads(match.group(2).strip())
        if ok:
            return value
    for candidate in _balanced_objects(stripped):
        ok, value = _loads(candidate)
        if ok:
            return value
    if jsonsafe.too_deep_at(stripped) is not None:
        raise ModelAnswerError(
            f"the model's answer nests JSON deeper than {jsonsafe.MAX_DEPTH} levels; "
            "nothing was written, try again or use another model"
        )
    raise ModelAnswerError(f"the model's answer is not valid JSON: {_preview(stripped)!r}")


def _type_name(expected: type | tuple[type, ...]) -> str:
    if isinstance(expected, tuple):
        return " or ".join(t.__name__ for t in expected)
    return expected.__name__


def _matches(value: Any, expected: type | tuple[type, ...]) -> bool:
    kinds = expected if isinstance(expected, tuple) else (expected,)
    for kind in kinds:
        # bool is an int to isinstance; a JSON true is not a number here, nor 1 a boolean.
        if kind in (int, float) and isinstance(value, bool):
            continue
        if kind is float and isinstance(value, int):
            return True
        if isinstance(value, kind):
            return True
    return False


def check_required(value: Any, required: Mapping[str, type | tuple[type, ...]]) -> dict[str, Any]:
    """Return ``value`` if it is a JSON object with every ``required`` key of the right type."""
    if not isinstance(value, dict):
        raise ModelAnswerError(
            f"the model answered a JSON {type(value).__name__}, not the expected object"
        )
    missing = [key for key in required if key not in value]
    if missing:
        raise ModelAnswerError(f"the model's JSON answer lacks {', '.join(map(repr, missing))}")
    for key, expected in required.items():
        if not _matches(value[key], expected):
            got = "null" if value[key] is None else type(value[key]).__name__
            raise ModelAnswerError(
                f"the model's JSON field {key!r} should be {_type_name(expected)}, got {got}"
            )
    return value
