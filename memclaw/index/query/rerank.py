"""Optional re-ranking of the best candidates by the configured chat model.

Off by default (``search_rerank`` 0). When on, one search costs one chat
request at most: the best ``search_rerank`` candidates (at most
``MAX_RERANK``), each cut to ``LINE_CHARS`` characters, numbered, with the
query; the model answers ``{"order": [numbers, best first]}``. Its order is
fused with the keyword order by reciprocal rank, so a model that answers
badly can move a line, not bury the keyword ranking; candidates it leaves out
keep their keyword share. A failed or unreadable answer leaves the keyword
order as it was: recall must keep working when the model does not.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from memclaw.errors import ModelError
from memclaw.index.rank import Candidate

if TYPE_CHECKING:
    from memclaw.llm import ChatModel

MAX_RERANK = 50
LINE_CHARS = 300
RRF_K = 10  # smaller than semantic.RRF_K: only a short list is fused
_SYSTEM = (
    "You rank lines from a person's memory notes by how well each helps answer a "
    'question. Reply with JSON only: {"order": [line numbers, most helpful first]}. '
    "Leave out lines that do not help."
)
log = logging.getLogger("memclaw.index")


def prompt(query: str, candidates: list[Candidate]) -> list[dict[str, str]]:
    """The chat messages asking the model to order ``candidates`` for ``query``."""
    lines = []
    for number, cand in enumerate(candidates, 1):
        text = " ".join(cand.text.split())
        if len(text) > LINE_CHARS:
            text = text[: LINE_CHARS - 1] + "…"
        dated = f" ({cand.date})" if cand.date else ""
        lines.append(f"{number}.{dated} {text}")
    user = f"Question: {query}\n\nLines:\n" + "\n".join(lines)
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]


def fuse(candidates: list[Candidate], order: list[int]) -> list[Candidate]:
    """``candidates`` reordered by reciprocal-rank fusion of their order and the model's."""
    model_rank: dict[int, int] = {}
    for position, number in enumerate(order, 1):
        if 1 <= number <= len(candidates) and number - 1 not in model_rank:
            model_rank[number - 1] = position

    def fused(index: int) -> float:
        score = 1 / (RRF_K + index + 1)
        if index in model_rank:
            score += 1 / (RRF_K + model_rank[index])
        return score

    ranked = sorted(range(len(candidates)), key=lambda i: (-fused(i), i))
    return [candidates[i] for i in ranked]


def rerank(model: ChatModel, query: str, candidates: list[Candidate], top: int) -> list[Candidate]:
    """The best ``top`` candidates re-ranked by ``model`` (one request), the rest unchanged."""
    top = min(top, MAX_RERANK, len(candidates))
    if top < 2:
        return candidates
    head, tail = candidates[:top], candidates[top:]
    try:
        answer = model.chat_json(
            prompt(query, head), required={"order": list}, max_tokens=8 * top + 32
        )
    except ModelError as exc:
        log.warning("re-ranking skipped: %s", exc)
        return candidates
    order = [n for n in answer["order"] if isinstance(n, int) and not isinstance(n, bool)]
    return fuse(head, order) + tail
