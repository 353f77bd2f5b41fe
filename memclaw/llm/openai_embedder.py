"""Embedder over an OpenAI-compatible ``/embeddings`` endpoint."""

from __future__ import annotations

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
                response = self._endpoint.call(
                    self._endpoint.client().embeddings.create,
                    model=self.name,
                    input=batch,
                    encoding_format="float",
                    extra_body=extra,
                )
            vectors += self._checked(response, len(batch), len(vectors[0]) if vectors else 0)
        return vectors

    def _checked(self, response: Any, count: int, dim: int) -> list[list[float]]:
        """The vectors of one answer, or a ModelAnswerError when it is not ``count`` vectors
        of one length (``dim`` when known) of finite numbers."""
        url = self._endpoint.url
        data = sorted(getattr(response, "data", None) or [], key=lambda item: item.index)
        if len(data) != count:
            raise ModelAnswerError(f"{url} returned {len(data)} embeddings for {count} texts")
        vectors: list[list[float]] = []
        for item in data:
            values = item.embedding
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
