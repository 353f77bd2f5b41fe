"""Embedder over an OpenAI-compatible ``/embeddings`` endpoint."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from memclaw.errors import ModelAnswerError
from memclaw.llm.embedsetup import EmbeddingSetup, EmbedKind
from memclaw.llm.openai_endpoint import Endpoint

if TYPE_CHECKING:
    from memclaw.config import Settings


class OpenAIEmbedder:
    """Embedder over ``/embeddings``: ``setup.batch_size`` texts per request, each
    marked as a query or a passage the way ``setup`` says (a prefix, or ``input_type``)."""

    def __init__(self, settings: Settings, setup: EmbeddingSetup) -> None:
        self.name = setup.model
        self.key = setup.cache_key
        self.setup = setup
        self.batch_size = max(1, setup.batch_size)
        self._endpoint = Endpoint(settings, url=setup.base_url, api_key=setup.api_key)

    def embed(self, texts: list[str], *, kind: EmbedKind = "passage") -> list[list[float]]:
        prefix = self.setup.prefix(kind)
        extra = {"input_type": kind} if self.setup.input_type else None
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            # Several servers reject an empty input; a blank embeds the same everywhere.
            batch = [
                prefix + text if text.strip() else prefix or " "
                for text in texts[start : start + self.batch_size]
            ]
            with self._endpoint.errors(self.name, "MEMCLAW_EMBEDDING_MODEL"):
                # The answer's JSON read as it is: the client's typed model checks each of a
                # vector's 384 numbers as an object (about 20 ms a question, and garbage the
                # search after it pays to collect).
                response = self._endpoint.call(
                    self._endpoint.client().embeddings.with_raw_response.create,
                    model=self.name,
                    input=batch,
                    encoding_format="float",
                    extra_body=extra,
                )
                answer = _json(response.text)
            vectors += self._checked(answer, len(batch), len(vectors[0]) if vectors else 0)
        return vectors

    def _checked(self, answer: Any, count: int, dim: int) -> list[list[float]]:
        """The vectors of one answer, or a ModelAnswerError when it is not ``count`` vectors
        of one length (``dim`` when known) of finite numbers."""
        url = self._endpoint.url
        data = answer.get("data") if isinstance(answer, dict) else None
        if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
            raise ModelAnswerError(f"{url} returned a malformed embedding")
        if len(data) != count:
            raise ModelAnswerError(f"{url} returned {len(data)} embeddings for {count} texts")
        if all(isinstance(item.get("index"), int) for item in data):
            data = sorted(data, key=lambda item: item["index"])  # else as given
        vectors: list[list[float]] = []
        for item in data:
            values = item.get("embedding")
            if not isinstance(values, list) or not values:
                raise ModelAnswerError(f"{url} returned a malformed embedding")
            try:
                vector = [float(x) for x in values]
            except (TypeError, ValueError):
                raise ModelAnswerError(f"{url} returned an embedding that is not numbers") from None
            if not all(math.isfinite(x) for x in vector):
                raise ModelAnswerError(f"{url} returned an embedding with NaN or infinity")
            dim = dim or len(vector)
            if len(vector) != dim:
                raise ModelAnswerError(f"{url} returned embeddings of different lengths")
            vectors.append(vector)
        return vectors


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None  # (said as a malformed embedding)
