"""Other words for a fact memory holds: the embedding model's opinion, when one is set up.

The offline judge reads subjects, attributes and values; it cannot know that "Lorena da
clases de matemáticas" says what "Lorena es profesora de matemáticas" says, and, unsure,
it keeps both lines. An embedding model knows. With semantic recall configured, each
pair the judge takes for another fact *without being sure* is measured, and a pair close
enough in meaning is the same fact said again.

Closeness is read against unrelated sentences rather than as a raw cosine: models differ
in how near two unrelated texts already are (multilingual-e5 puts them near 0.78, OpenAI's
models near 0.1). A pair is the same fact when its similarity covers :data:`SAME_SHARE`
of the way from that floor (the mean similarity of each side to :data:`UNRELATED`) to
identical.

Never asked: a pair the judge is sure of (another person, name, number or id), nor one
the words tell apart (``judgement.may_say_it_otherwise``): a word swapped ("server gamma"
/ "server delta"), one added ("User's former manager"), another tense, a negation.
Embeddings place those close together, and they are not other words. A model that fails
changes nothing: the offline verdicts stand, and it is left alone for a while.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from memclaw.errors import MemclawError
from memclaw.gates import redact
from memclaw.judgement import Judgement, Relation, may_say_it_otherwise

if TYPE_CHECKING:
    from memclaw.config import Settings
    from memclaw.llm.base import Embedder

# Tuned on the judgement benchmark's tuning halves with multilingual-e5-small: there, 17 of
# the 24 restatements the judge left unsure reach it, and of 44 distinct pairs only a
# one-word swap did (benchmarks/bench_judgement.py --embeddings).
SAME_SHARE = 0.84
# Sentences about nothing a memory holds, in its four languages: the floor of similarity.
UNRELATED = (
    "The weather was cold and wet all week.",
    "Bitte schließen Sie die Tür hinter sich.",
    "Hon köpte en ny cykel i går.",
    "El tren llega tarde otra vez.",
    "Prime numbers have exactly two divisors.",
    "Remember to water the plants.",
)
REST_SECONDS = 60.0  # after a failure, as the model judge rests
_CACHED = 4096  # vectors kept per process (a chat or an MCP server weighs many statements)
log = logging.getLogger("memclaw.facts")


class Paraphrases:
    """The embedding model's view of which unsure pairs say the same (see the module)."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: dict[str, list[float]] = {}
        self._floor: list[list[float]] = []
        self._rest_until = 0.0

    def same(self, pairs: Sequence[tuple[str, str]]) -> list[float | None]:
        """For each (old, new) pair, its share of the way from unrelated to identical, or
        None when it was not measured (the words tell it apart, or the model failed)."""
        measured = [i for i, pair in enumerate(pairs) if may_say_it_otherwise(*pair)]
        shares: list[float | None] = [None] * len(pairs)
        if not measured or time.monotonic() < self._rest_until:
            return shares
        texts = [text for i in measured for text in pairs[i]]
        try:
            vectors = self._embed(texts)
        except MemclawError as exc:
            log.warning("paraphrase check: %s; the offline verdict stands", exc)
            self._rest_until = time.monotonic() + REST_SECONDS
            return shares
        for i in measured:
            old, new = (vectors[text] for text in pairs[i])
            floor = sum(_cosine(old, u) + _cosine(new, u) for u in self._floor) / (
                2 * len(self._floor)
            )
            shares[i] = (_cosine(old, new) - floor) / max(1.0 - floor, 1e-9)
        return shares

    def _embed(self, texts: list[str]) -> dict[str, list[float]]:
        """The vector of each text, by the text as given (embedded as redacted)."""
        # A hand-edited file can hold a credential the gate never saw: it never leaves.
        sent = {text: redact(text) for text in texts}
        if not self._floor:
            self._floor = self._embedder.embed(list(UNRELATED), kind="query")
        missing = list(dict.fromkeys(r for r in sent.values() if r not in self._vectors))
        if len(self._vectors) + len(missing) > _CACHED:
            # Full: start again, with every text of this check (those cached go too).
            self._vectors.clear()
            missing = list(dict.fromkeys(sent.values()))
        if missing:
            made = self._embedder.embed(missing, kind="query")
            self._vectors.update(zip(missing, made, strict=True))
        return {text: self._vectors[redacted] for text, redacted in sent.items()}


def second_look(
    pairs: Sequence[tuple[str, str]], verdicts: list[Judgement], paraphrases: Paraphrases | None
) -> list[Judgement]:
    """``verdicts`` with each unsure "another fact" the model finds close enough made "the
    same"; the others as they were."""
    unsure = [i for i, v in enumerate(verdicts) if v.relation is Relation.DISTINCT and not v.sure]
    if paraphrases is None or not unsure:
        return verdicts
    shares = paraphrases.same([pairs[i] for i in unsure])
    judged = list(verdicts)
    for i, share in zip(unsure, shares, strict=True):
        if share is not None and share >= SAME_SHARE:
            judged[i] = Judgement(Relation.SAME, f"the same in other words ({share:.2f})")
    return judged


_OPEN: dict[object, Paraphrases] = {}


def paraphrases_for(settings: Settings) -> Paraphrases | None:
    """The process's paraphrase checker for the embedding ``settings`` name (None when
    semantic recall is off): every writer of an agent asks the same one."""
    if not settings.embedding_configured:
        return None
    from memclaw.llm import open_embedder
    from memclaw.llm.embedsetup import embedding_setup

    setup = embedding_setup(settings)
    if setup not in _OPEN:
        embedder = open_embedder(settings)
        if embedder is None:
            return None
        _OPEN[setup] = Paraphrases(embedder)
    return _OPEN[setup]


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    norm = math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))
    return dot / norm if norm else 0.0
