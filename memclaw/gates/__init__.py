"""Gates that keep secrets and noise out of long-term memory.

* :mod:`memclaw.gates.secrets` finds credentials and redacts them; run it on every text
  before it is written to a memory file.
* :mod:`memclaw.gates.noise` filters chat transcripts before fact extraction.
* :mod:`memclaw.gates.injection` recognises text that gives the agent instructions, so
  dreaming, extraction, ``remember`` and the memory tools never learn it as a fact or a rule.

Everything here is a pure function over strings and plain dicts (the standard library,
and ``python-stdnum`` and ``mnemonic`` for checksums and seed words).

The names below are imported on first use: building the gates' tables costs more
than a whole ``memclaw search``, and a search that only reads never needs the
noise or injection gates (nor, with nothing to log, the secret gate).

May import: nothing else of memclaw (it is the bottom layer).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memclaw.gates.credentials.split import redact_adjacent as redact_adjacent
    from memclaw.gates.injection import addresses_agent as addresses_agent
    from memclaw.gates.injection import as_quote as as_quote
    from memclaw.gates.injection import concerns_the_assistant as concerns_the_assistant
    from memclaw.gates.noise import AUTOMATED_TRIGGERS as AUTOMATED_TRIGGERS
    from memclaw.gates.noise import TRUNCATION_MARKER as TRUNCATION_MARKER
    from memclaw.gates.noise import content_text as content_text
    from memclaw.gates.noise import filter_messages as filter_messages
    from memclaw.gates.noise import is_automated_session as is_automated_session
    from memclaw.gates.noise import is_generic_assistant_ack as is_generic_assistant_ack
    from memclaw.gates.noise import is_noise_message as is_noise_message
    from memclaw.gates.noise import strip_noise_fragments as strip_noise_fragments
    from memclaw.gates.secrets import REDACTION_PREFIX as REDACTION_PREFIX
    from memclaw.gates.secrets import SecretFinding as SecretFinding
    from memclaw.gates.secrets import contains_secret as contains_secret
    from memclaw.gates.secrets import find_secrets as find_secrets
    from memclaw.gates.secrets import redact as redact

# name -> the module that defines it
_HOMES = {
    "addresses_agent": "memclaw.gates.injection",
    "as_quote": "memclaw.gates.injection",
    "concerns_the_assistant": "memclaw.gates.injection",
    "AUTOMATED_TRIGGERS": "memclaw.gates.noise",
    "TRUNCATION_MARKER": "memclaw.gates.noise",
    "content_text": "memclaw.gates.noise",
    "filter_messages": "memclaw.gates.noise",
    "is_automated_session": "memclaw.gates.noise",
    "is_generic_assistant_ack": "memclaw.gates.noise",
    "is_noise_message": "memclaw.gates.noise",
    "strip_noise_fragments": "memclaw.gates.noise",
    "redact_adjacent": "memclaw.gates.credentials.split",
    "REDACTION_PREFIX": "memclaw.gates.secrets",
    "SecretFinding": "memclaw.gates.secrets",
    "contains_secret": "memclaw.gates.secrets",
    "find_secrets": "memclaw.gates.secrets",
    "redact": "memclaw.gates.secrets",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        # Not one of ours: ``from memclaw.gates import noise`` then imports the submodule.
        raise AttributeError(f"module 'memclaw.gates' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
