"""A model's second opinion on the pairs the offline judge is unsure of.

The offline rules are sure when they find a disagreement or a restatement;
two statements about the same subject that share words but match no rule
("prefers calls in the afternoon" / "wants no meetings after lunch") are
left unsure. With a model configured, those pairs, and only those, go to it
in one bounded request; its answer replaces the unsure verdict. A model
that fails, times out or answers garbage changes nothing: the offline
verdicts stand, and the caller's work goes on.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from memclaw.errors import MemclawError
from memclaw.facts.conflict import KINDS, Kind, Verdict, judge

if TYPE_CHECKING:
    from memclaw.llm import ChatModel

# At most this many pairs in one request: the cost of a second opinion stays bounded.
MAX_PAIRS = 20

_SYSTEM = """You compare facts an assistant remembers about a person or their work.
For each numbered pair (an OLD remembered fact and a NEW one) answer with one kind:
- "conflict": both cannot be true at once (same subject and attribute, different value).
- "correction": a conflict where NEW says it corrects or changes OLD ("actually", "moved to").
- "restated": NEW says the same as OLD, maybe with more detail.
- "compatible": both can be true.
Facts about different people or things are compatible. Answer only with JSON:
{"verdicts": [{"pair": 1, "kind": "conflict", "reason": "a few words"}, ...]}"""


def judge_pairs(pairs: Sequence[tuple[str, str]], model: ChatModel | None = None) -> list[Verdict]:
    """A verdict for each (old, new) pair; unsure ones re-judged by ``model`` when given."""
    verdicts = [judge(old, new) for old, new in pairs]
    unsure = [index for index, verdict in enumerate(verdicts) if not verdict.sure][:MAX_PAIRS]
    if model is None or not unsure:
        return verdicts
    for index, verdict in _ask(model, [pairs[i] for i in unsure]).items():
        verdicts[unsure[index]] = verdict
    return verdicts


def _ask(model: ChatModel, pairs: list[tuple[str, str]]) -> dict[int, Verdict]:
    """The model's verdicts by position in ``pairs``; empty when it could not give any."""
    listing = "\n".join(
        f"{number}. OLD: {json.dumps(old, ensure_ascii=False)}\n"
        f"   NEW: {json.dumps(new, ensure_ascii=False)}"
        for number, (old, new) in enumerate(pairs, start=1)
    )
    messages = [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": listing}]
    try:
        answer = model.chat_json(messages, required={"verdicts": list}, max_tokens=60 * len(pairs))
    except MemclawError:
        return {}
    found: dict[int, Verdict] = {}
    for item in answer["verdicts"]:
        if not isinstance(item, dict):
            continue
        number, kind = item.get("pair"), item.get("kind")
        if not isinstance(number, int) or not 1 <= number <= len(pairs) or kind not in KINDS:
            continue
        reason = item.get("reason")
        found[number - 1] = Verdict(
            cast(Kind, kind), f"model: {reason if isinstance(reason, str) else kind}"[:120]
        )
    return found
