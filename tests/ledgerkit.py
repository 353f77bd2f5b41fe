"""A stream of an agent's ledger as the JSON-lines text a test can search."""

from __future__ import annotations

import json
from pathlib import Path

from memclaw.workspace import ledger


def stream_text(meta_dir: Path, stream: str) -> str:
    """The records of ``stream`` under ``meta_dir`` (a ``.memclaw`` folder), one per line."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ledger.read(meta_dir, stream))
