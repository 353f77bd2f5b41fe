"""A model's second opinion on the pairs the offline judge is unsure of.

The offline judge (:mod:`memclaw.judgement`) is sure of the clear pairs: another
subject, a new value of a single-valued attribute, the same words. Two statements
about the same subject that share words but match no rule ("prefers calls in the
afternoon" / "wants no meetings after lunch") are left unsure. With a model
configured, those pairs, and only those, go to it in one bounded request; its
answer replaces the unsure verdict. A model that fails, times out or answers
garbage changes nothing: the offline verdicts stand, and the caller's work goes on.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from memclaw.errors import MemclawError
from memclaw.facts.paraphrase import Paraphrases, second_look
from memclaw.gates import redact
from memclaw.judgement import Judgement, Relation, judge

if TYPE_CHECKING:
    from memclaw.llm import ChatModel

# At most this many pairs in one request: the cost of a second opinion stays bounded.
MAX_PAIRS = 20
# After a failed or unreadable answer a Judge leaves the model alone this long: a chat or
# an MCP server writes at full speed on the offline verdicts instead of waiting out a
# timeout on every write (and says so once, not once per write).
REST_SECONDS = 60.0
log = logging.getLogger("memclaw.facts")

_SYSTEM = """You compare facts an assistant remembers about a person or their work.
For each numbered pair (an OLD remembered fact and a NEW one) answer with one kind:
- "same": NEW says what OLD says, in other words or with less.
- "richer": NEW says what OLD says and more about the same thing.
- "update": NEW gives a newer value of something that has one value at a time (where
  someone lives or works, a role, a manager, the date or time of one event, a version).
- "distinct": another fact: about someone or something else, another attribute, or
  one more of something there can be many of (pets, trips, languages, tools).
- "conflict": both cannot be true at once, and NEW does not say that things changed.
Answer only with JSON:
{"verdicts": [{"pair": 1, "kind": "distinct", "reason": "a few words"}, ...]}"""
_KINDS = {str(r): r for r in Relation}
_KINDS["conflict"] = Relation.UPDATE  # unsure which holds now: a person decides


class Judge:
    """The model's second opinion for a path a person waits on (a chat, MCP, ``remember``).

    ``opener`` builds the model (None: no model configured); it is called on
    the first unsure pair, never before, so a path that writes nothing
    contested opens no model. Front ends pass ``memclaw.llm.open_model_no_retry``:
    a person is waiting for the write, and the offline verdict is a sound
    answer when the model cannot give one at the first try. A failed or
    unreadable answer leaves the offline verdicts standing, says so in one
    warning line, and rests the model :data:`REST_SECONDS`; meanwhile every
    write is judged offline at once, without another line.
    """

    def __init__(self, opener: Callable[[], ChatModel | None]) -> None:
        self._opener = opener
        self._model: list[ChatModel | None] = []  # empty until opened
        self._rest_until = 0.0
        # What the model said of each pair: a path that judges, then writes, asks once.
        self._said: dict[tuple[str, str], Judgement] = {}
        self._closed = False

    @classmethod
    def of(cls, model: ChatModel) -> Judge:
        """A judge asking ``model`` as it is (extraction and dreams pass theirs)."""
        return cls(lambda: model)

    def resting(self) -> bool:
        return time.monotonic() < self._rest_until

    def close(self) -> None:
        """Ask nothing more: what the model said stands, anything else is judged offline
        (an extraction asks once, about every pair at the start)."""
        self._closed = True

    def ask(self, pairs: list[tuple[str, str]]) -> dict[int, Judgement]:
        """The model's verdicts by position in ``pairs``; empty when it gave none."""
        known = {i: self._said[pair] for i, pair in enumerate(pairs) if pair in self._said}
        new = [i for i in range(len(pairs)) if i not in known]
        if not new or self.resting() or self._closed:
            return known
        return known | {new[i]: v for i, v in self._ask([pairs[i] for i in new]).items()}

    def _ask(self, pairs: list[tuple[str, str]]) -> dict[int, Judgement]:
        try:
            if not self._model:
                self._model.append(self._opener())
            model = self._model[0]
            if model is None:
                return {}
            found = _ask(model, pairs)
        except MemclawError as exc:
            # (opening it too: a setting the model needs may be missing; the write stands)
            return self._failed(f"the model could not judge ({exc})")
        if not found:
            return self._failed("the model's answer held no usable verdict")
        self._said.update((pairs[i], verdict) for i, verdict in found.items())
        return found

    def _failed(self, why: str) -> dict[int, Judgement]:
        log.warning("contradiction judge: %s; the offline verdict stands", why)
        self._rest_until = time.monotonic() + REST_SECONDS
        return {}


def judge_pairs(
    pairs: Sequence[tuple[str, str]],
    model: ChatModel | Judge | None = None,
    paraphrases: Paraphrases | None = None,
) -> list[Judgement]:
    """A verdict for each (old, new) pair: an unsure "another fact" measured by the
    embedding model when ``paraphrases`` is given, then what is still unsure re-judged by
    ``model`` when given."""
    verdicts = second_look(pairs, [judge(old, new) for old, new in pairs], paraphrases)
    unsure = [index for index, verdict in enumerate(verdicts) if not verdict.sure][:MAX_PAIRS]
    if model is None or not unsure:
        return verdicts
    asked = model if isinstance(model, Judge) else Judge.of(model)
    for index, verdict in asked.ask([pairs[i] for i in unsure]).items():
        verdicts[unsure[index]] = verdict
    return verdicts


def _ask(model: ChatModel, pairs: list[tuple[str, str]]) -> dict[int, Judgement]:
    """The model's verdicts by position in ``pairs``; raises MemclawError when it failed."""
    listing = "\n".join(
        f"{number}. OLD: {json.dumps(old, ensure_ascii=False)}\n"
        f"   NEW: {json.dumps(new, ensure_ascii=False)}"
        for number, (old, new) in enumerate(pairs, start=1)
    )
    # A hand-edited file can hold a credential the gate never saw: it never leaves for the
    # endpoint (the chat's prompt is redacted the same way).
    content = redact(listing)
    messages = [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": content}]
    answer = model.chat_json(messages, required={"verdicts": list}, max_tokens=60 * len(pairs))
    found: dict[int, Judgement] = {}
    for item in answer["verdicts"]:
        if not isinstance(item, dict):
            continue
        number, kind = item.get("pair"), item.get("kind")
        if not isinstance(number, int) or not 1 <= number <= len(pairs) or kind not in _KINDS:
            continue
        reason = item.get("reason")
        said = f"model: {reason if isinstance(reason, str) else kind}"[:120]
        found[number - 1] = Judgement(_KINDS[kind], said, sure=kind != "conflict")
    return found
