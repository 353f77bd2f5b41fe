"""Gates that keep secrets and noise out of long-term memory.

* :mod:`memclaw.gates.secrets` finds credentials and redacts them; run it on every text
  before it is written to a memory file.
* :mod:`memclaw.gates.noise` filters chat transcripts before fact extraction.
* :mod:`memclaw.gates.injection` recognises text that gives the agent instructions, so
  dreaming and extraction never learn it as a fact or a rule.

Everything here is a pure function over strings and plain dicts (stdlib only).

May import: nothing else of memclaw (it is the bottom layer).
"""

from memclaw.gates.injection import addresses_agent, as_quote
from memclaw.gates.noise import (
    AUTOMATED_TRIGGERS,
    TRUNCATION_MARKER,
    content_text,
    filter_messages,
    is_automated_session,
    is_generic_assistant_ack,
    is_noise_message,
    strip_noise_fragments,
)
from memclaw.gates.secret_split import redact_adjacent
from memclaw.gates.secrets import (
    REDACTION_PREFIX,
    SecretFinding,
    contains_secret,
    find_secrets,
    redact,
)

__all__ = [
    "AUTOMATED_TRIGGERS",
    "REDACTION_PREFIX",
    "TRUNCATION_MARKER",
    "SecretFinding",
    "addresses_agent",
    "as_quote",
    "contains_secret",
    "content_text",
    "filter_messages",
    "find_secrets",
    "is_automated_session",
    "is_generic_assistant_ack",
    "is_noise_message",
    "redact",
    "redact_adjacent",
    "strip_noise_fragments",
]
