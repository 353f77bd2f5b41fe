"""How texts are sent to an embedding model: its endpoint, key, prefixes and batch size.

Retrieval models are trained with a marker telling a search query from a stored
passage (e5: ``query: `` / ``passage: ``); embedded without it, a question lands
near other questions rather than near its answer. ``auto`` picks the marker of
the model's family; a server that adds the marker itself is told which side a
text is on (``input_type``) instead, and then memclaw adds none.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from memclaw.config import Settings

EmbedKind = Literal["query", "passage"]
AUTO = "auto"
BGE_QUERY = "Represent this sentence for searching relevant passages: "
# (pattern over the model name, query prefix, passage prefix), first match wins.
_FAMILIES: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"(^|[/_:.-])(multilingual-)?e5([/_:.-]|$)", re.I), "query: ", "passage: "),
    (re.compile(r"nomic-embed", re.I), "search_query: ", "search_document: "),
    # bge's English models want the instruction on queries only; bge-m3 and the
    # Chinese ones want none.
    (re.compile(r"bge-(small|base|large)-en", re.I), BGE_QUERY, ""),
)


def family_prefixes(model: str) -> tuple[str, str]:
    """The (query, passage) prefixes the family of ``model`` was trained with, else none."""
    for pattern, query, passage in _FAMILIES:
        if pattern.search(model):
            return query, passage
    return "", ""


@dataclass(frozen=True)
class EmbeddingSetup:
    """Everything that decides the vectors one text gets, and where to ask for them."""

    model: str
    base_url: str  # empty: the chat endpoint's default (OpenAI)
    api_key: str
    query_prefix: str
    passage_prefix: str
    input_type: bool
    batch_size: int

    def prefix(self, kind: EmbedKind) -> str:
        return self.query_prefix if kind == "query" else self.passage_prefix

    @property
    def cache_key(self) -> str:
        """The name vectors are cached under: the model, and how its texts were marked.

        A model used bare keeps its plain name (vectors cached before prefixes existed
        stay valid); any prefix or ``input_type`` adds a digest of them, so changing
        one never reuses vectors made the other way.
        """
        if not (self.query_prefix or self.passage_prefix or self.input_type):
            return self.model
        how = f"{self.query_prefix}\0{self.passage_prefix}\0{int(self.input_type)}"
        return f"{self.model}#{hashlib.sha256(how.encode('utf-8')).hexdigest()[:12]}"


def embedding_setup(settings: Settings) -> EmbeddingSetup:
    """The embedding side of ``settings``, with ``auto`` prefixes and the key resolved."""
    query, passage = (
        ("", "") if settings.embedding_input_type else (family_prefixes(settings.embedding_model))
    )
    url = settings.embedding_base_url.rstrip("/")
    same_place = not url or url == settings.base_url.rstrip("/")
    # The chat key goes only where chat goes: a separate (often local) embedding server
    # is never sent the chat provider's key.
    key = settings.embedding_api_key or (settings.api_key if same_place else "")
    return EmbeddingSetup(
        model=settings.embedding_model,
        base_url=url or settings.base_url,
        api_key=key,
        query_prefix=query
        if settings.embedding_query_prefix == AUTO
        else settings.embedding_query_prefix,
        passage_prefix=passage
        if settings.embedding_passage_prefix == AUTO
        else settings.embedding_passage_prefix,
        input_type=settings.embedding_input_type,
        batch_size=settings.embedding_batch_size,
    )
