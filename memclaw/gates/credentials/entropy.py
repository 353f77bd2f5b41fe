"""Entropy detector: random-looking strings in configuration context or right after a word
such as "key" or "token", minus digests, ids and public keys that are random by design.
"""

from __future__ import annotations

import re
import string

from memclaw.gates.credentials.values import Candidate, is_placeholder, looks_random, split_name
from memclaw.gates.lazy_re import LazyPattern

__all__ = ["entropy_candidates"]

# No look-behind: finditer already starts every match at the beginning of a run.
_ENTROPY_TOKEN_RE = LazyPattern(r"[A-Za-z0-9+/_\-]{24,}={0,2}")
_ENTROPY_TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "+/_-=")
_UUID_RE = LazyPattern(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
_SRI_RE = LazyPattern(r"sha\d+-", re.I)
_CONFIG_PREFIX_RE = LazyPattern(
    r"[ \t]*(?:export[ \t]+|-[ \t]+)?[\"']?(?P<label>[^\W\d][\w.\-]*)[\"']?[ \t]*"
    r"(?::=|=>|=|:)[ \t]*[\"'`]?"
)
_SECRET_CONTEXT_RE = LazyPattern(
    r"(?i)(?:\b|_)(?:api[ _\-]?keys?|keys?|tokens?|secrets?|password|passwd|passphrase"
    r"|credentials?|creds|auth|bearer|nyckel(?:n)?|lösenord(?:et)?|hemlig(?:het|a)?)\b"
    r"|密码|密碼|密钥|密鑰|令牌|口令|凭证|憑證|秘钥"
)
# Digests, fingerprints and public keys are random-looking by design and safe to keep.
_HASH_CONTEXT_RE = LazyPattern(
    r"(?i)\b(?:sha\d*|md5|checksums?|digest|hash(?:es)?|commit|fingerprint|uuid|guid"
    r"|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-\w+|public|pub|revision|rev|etag|integrity|sri"
    r"|sum|crc32|oid|request[ _-]?id|trace[ _-]?id|build"
    r"|(?:next|page|starting|continuation|idempotency|pagination)[ _-]?token"
    r"|gpg|pgp|keyserver|recv-keys)\b"
)
_HEX_CHARS = frozenset("0123456789abcdefABCDEF")


def _is_hex(tok: str) -> bool:
    return all(c in _HEX_CHARS for c in tok.strip("_-"))


# Cloud resource ids ("subnet-0b715c6b7db68927a", "vpc-cidr-assoc-0669f8f9f5") are names.
_RESOURCE_ID_RE = LazyPattern(r"[a-z]{2,}(?:-[a-z0-9]+)*-[0-9a-f]{8,}")


_HASH_LABEL_PARTS = (
    "sha1", "sha2", "sha3", "sha5", "md5", "checksum", "digest", "hash", "fingerprint",
    "integrity", "commit", "etag", "uuid", "guid", "crc32", "blake",
)  # fmt: skip
_HASH_LABELS = frozenset(
    {
        "sha", "sha1", "sha224", "sha256", "sha384", "sha512", "md5", "checksum", "checksums",
        "digest", "hash", "integrity", "commit", "rev", "revision", "etag", "id", "ids", "uuid",
        "guid", "fingerprint", "sum", "crc", "crc32", "oid", "ref", "tree", "parent", "blob",
        "sha256sum", "trace", "span", "request", "correlation", "build", "nonce", "public",
        "pub", "pubkey", "publickey", "cid", "ipfs", "image", "resolved", "version", "head",
        "identifier", "prefix", "name", "path", "url", "arn", "next", "page", "continuation",
        "idempotency", "starting", "pagination", "cursor", "marker",
    }
)  # fmt: skip


def entropy_candidates(text: str) -> list[Candidate]:
    out: list[Candidate] = []
    for m in _ENTROPY_TOKEN_RE.finditer(text):
        tok = m.group()
        start, end = m.span()
        if end < len(text) and text[end] in _ENTROPY_TOKEN_CHARS:
            continue  # "NAME=value": the run continues after '='; the value is scanned next
        if _UUID_RE.fullmatch(tok) or _SRI_RE.match(tok) or _RESOURCE_ID_RE.fullmatch(tok):
            continue
        # Context first (a couple of tiny regex calls), randomness last (the costly part).
        line_start = text.rfind("\n", 0, start) + 1
        prefix = text[max(line_start, start - 200) : start]
        near = prefix[-48:]
        if _HASH_CONTEXT_RE.search(near[-32:]):
            continue
        cfg = _CONFIG_PREFIX_RE.fullmatch(prefix)
        if cfg:
            label = cfg.group("label")
            comps = split_name(label)
            # api_id / app_id hold credentials (Telegram, some SaaS); other *_id are names.
            secret_id = comps[-2:] in (["api", "id"], ["app", "id"]) and not _is_hex(tok)
            if not secret_id and any(c in _HASH_LABELS for c in comps):
                continue
            if any(w in label.lower() for w in _HASH_LABEL_PARTS):
                continue  # expectedchecksum, file_sha256
            # A bare hex string under a neutral label ("expected: 6e9e...") is a digest far
            # more often than a key; hex keys get caught by their secret-named label instead.
            if _is_hex(tok):
                continue
        else:
            # Prose: a secret word must sit right before the string. Hex needs it closer,
            # because hex digests are common in prose ("docker-credential-helpers 5f28a5a1").
            ctx = _SECRET_CONTEXT_RE.search(near[-24:] if _is_hex(tok) else near)
            if not ctx:
                continue
        if looks_random(tok) and not is_placeholder(tok):
            out.append((start, end, "high_entropy", 20))
    return out
