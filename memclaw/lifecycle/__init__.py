"""The memory lifecycle: extraction after chats, memory entries, dreaming, secret scans.

Public names are imported lazily so that importing one lifecycle module does
not pull in every other one.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memclaw.lifecycle.batch import consolidate_many as consolidate_many
    from memclaw.lifecycle.batch import dream_many as dream_many
    from memclaw.lifecycle.candidates import build_candidates as build_candidates
    from memclaw.lifecycle.consolidate import ConsolidateResult as ConsolidateResult
    from memclaw.lifecycle.consolidate import consolidate_agent as consolidate_agent
    from memclaw.lifecycle.cron import next_run as next_run
    from memclaw.lifecycle.dream import DreamResult as DreamResult
    from memclaw.lifecycle.dream import DreamStatus as DreamStatus
    from memclaw.lifecycle.dream import dream_agent as dream_agent
    from memclaw.lifecycle.dream import dream_undo as dream_undo
    from memclaw.lifecycle.dream_status import dream_status as dream_status
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
    "build_candidates": "memclaw.lifecycle.candidates",
    "consolidate_agent": "memclaw.lifecycle.consolidate",
    "consolidate_many": "memclaw.lifecycle.batch",
    "ConsolidateResult": "memclaw.lifecycle.consolidate",
    "dream_agent": "memclaw.lifecycle.dream",
    "dream_many": "memclaw.lifecycle.batch",
    "dream_status": "memclaw.lifecycle.dream_status",
    "dream_undo": "memclaw.lifecycle.dream",
    "DreamResult": "memclaw.lifecycle.dream",
    "DreamStatus": "memclaw.lifecycle.dream",
    "next_run": "memclaw.lifecycle.cron",
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
