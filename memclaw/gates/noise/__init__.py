"""Noise gate: decide which chat messages are worth showing to the memory extractor.

Extraction is an LLM call whose output becomes permanent memory, so anything that reaches it
costs tokens and risks junk memories ("User said ok"). Agent runtimes also inject a lot of
machinery into transcripts: heartbeat pings, routing headers, media placeholders, audit lines
about context compaction. This module strips all of that, in a fixed order:

1. flatten OpenAI-style content (string or list of parts) to plain text;
2. drop whole messages that are noise (heartbeats, bare timestamps, one-word acks, routing
   metadata, compaction logs, empty tool/system chatter);
3. drop short assistant boilerplate ("Got it! Let me know if there's anything else.");
4. strip noise fragments embedded in useful messages and drop what ends up empty;
5. truncate each message and keep only the most recent ones.

Secret redaction is deliberately *not* done here: the caller runs
:func:`memclaw.gates.secrets.redact` on whatever it is about to persist, so that the secret
gate also covers text that never went through this filter (manual ``memclaw add`` etc.).
"""

from memclaw.gates.noise.content import content_text
from memclaw.gates.noise.fragments import strip_noise_fragments
from memclaw.gates.noise.messages import is_generic_assistant_ack, is_noise_message
from memclaw.gates.noise.pipeline import (
    AUTOMATED_TRIGGERS,
    TRUNCATION_MARKER,
    filter_messages,
    is_automated_session,
)

__all__ = [
    "AUTOMATED_TRIGGERS",
    "TRUNCATION_MARKER",
    "content_text",
    "filter_messages",
    "is_automated_session",
    "is_generic_assistant_ack",
    "is_noise_message",
    "strip_noise_fragments",
]
