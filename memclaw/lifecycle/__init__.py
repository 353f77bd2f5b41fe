"""The memory lifecycle: extraction after chats, memory entries, dreaming, secret scans.

Public names are imported lazily so that importing one lifecycle module does
not pull in every other one.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memclaw.lifecycle.extract import extract_conversation as extract_conversation
    from memclaw.lifecycle.extract_types import ExtractionResult as ExtractionResult
    from memclaw.lifecycle.memories import (
        RememberResult as RememberResult,
    )
    from memclaw.lifecycle.memories import (
        forget as forget,
    )
    from memclaw.lifecycle.memories import (
        get_memory as get_memory,
    )
    from memclaw.lifecycle.memories import (
        list_memories as list_memories,
    )
    from memclaw.lifecycle.memories import (
        remember as remember,
    )
    from memclaw.lifecycle.scan import scan_secrets as scan_secrets
    from memclaw.lifecycle.transcripts import load_transcript as load_transcript

_EXPORTS = {
    "extract_conversation": "memclaw.lifecycle.extract",
    "ExtractionResult": "memclaw.lifecycle.extract_types",
    "RememberResult": "memclaw.lifecycle.memories",
    "forget": "memclaw.lifecycle.memories",
    "get_memory": "memclaw.lifecycle.memories",
    "list_memories": "memclaw.lifecycle.memories",
    "remember": "memclaw.lifecycle.memories",
    "scan_secrets": "memclaw.lifecycle.scan",
    "load_transcript": "memclaw.lifecycle.transcripts",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'memclaw.lifecycle' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
