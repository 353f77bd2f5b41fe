"""Keys hidden in base64 or hex: decode long runs and look for a vendor shape inside.

``echo c2stcHJvai1... | base64 -d`` carries an OpenAI key as surely as the key itself, but
no prefix rule can see it. Only shape rules with a fixed prefix (priority >= 80) count as
evidence in the decoded text, so base64 of ordinary data is never flagged.
"""

from __future__ import annotations

import base64
import binascii

from memclaw.gates.credentials.rules import rule_candidates
from memclaw.gates.credentials.values import Candidate
from memclaw.gates.credentials.vendors import vendor_candidates
from memclaw.gates.lazy_re import LazyPattern

__all__ = ["encoded_candidates"]

_B64_RUN_RE = LazyPattern(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{24,}={0,2}")
_HEX_RUN_RE = LazyPattern(r"(?<![0-9A-Za-z])(?:[0-9a-fA-F]{2}){16,}(?![0-9A-Za-z])")
# Shortest prefix that names a vendor, so anything shorter decodes to nothing of interest.
_MIN_DECODED = 16


def _decoded(run: str) -> str | None:
    raw: bytes | None = None
    if _HEX_RUN_RE.fullmatch(run):
        raw = bytes.fromhex(run)
    else:
        body = run.rstrip("=")
        padded = body + "=" * (-len(body) % 4)
        try:
            if "-" in body or "_" in body:
                raw = base64.urlsafe_b64decode(padded)
            else:
                raw = base64.b64decode(padded, validate=True)
        except (binascii.Error, ValueError):
            return None
    if len(raw) < _MIN_DECODED or not raw.isascii():
        return None
    text = raw.decode("ascii")
    return text if text.isprintable() else None


def _has_vendor_key(decoded: str) -> bool:
    lower = decoded.lower()
    found = rule_candidates(decoded, lower) + vendor_candidates(decoded, lower)
    return any(prio >= 80 for _s, _e, _k, prio in found)


def encoded_candidates(text: str) -> list[Candidate]:
    out: list[Candidate] = []
    seen: set[int] = set()
    for regex in (_HEX_RUN_RE, _B64_RUN_RE):
        for m in regex.finditer(text):
            if m.start() in seen:
                continue
            decoded = _decoded(m.group())
            if decoded is not None and _has_vendor_key(decoded):
                seen.add(m.start())
                out.append((m.start(), m.end(), "encoded_secret", 85))
    return out
