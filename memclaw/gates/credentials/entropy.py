"""Entropy detector: random-looking strings in configuration context or right after a word
such as "key" or "token", minus digests, ids and public keys that are random by design.

With no word before it, a string is a secret when nothing but a generator writes it:
sixteen characters or more mixing lower case, upper case and digits that shatter into
pieces of one or two (``use 9f8Kq2xLz0Pw7Rt3Vb6N for staging``). Digests are hex (one
case), ids are said to be ids, and a string inside an address names a page.
"""

from __future__ import annotations

import re
import string

from memclaw.gates.credentials.values import (
    Candidate,
    classes,
    is_placeholder,
    looks_random,
    split_name,
)
from memclaw.gates.lazy_re import LazyPattern

__all__ = ["entropy_candidates"]

# No look-behind: finditer already starts every match at the beginning of a run.
_ENTROPY_TOKEN_RE = LazyPattern(r"[A-Za-z0-9+/_\-]{16,}={0,2}")
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
_CONTENT_ADDRESS_RE = LazyPattern(r"(?i)\b(?:ipfs|ipns|cid|magnet|torrent|blob)\b")


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
    out: list[Candidate] = _symbolic(text) if len(text) >= 16 else []
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
                if _generated(tok) and not _in_address(text, start) and _unnamed(text, start):
                    out.append((start, end, "high_entropy", 20))
                continue
        if looks_random(tok) and not is_placeholder(tok):
            out.append((start, end, "high_entropy", 20))
    return out


# An object's id with its type before it ("cus_tE12nyyUtJqZH5", "req_…"): a name. A
# vendor's secret of that shape is its vendor's rule's business.
_PREFIXED_ID_RE = LazyPattern(r"[a-z]{2,6}_[A-Za-z0-9]{8,}")


def _generated(tok: str) -> bool:
    """Characters of three kinds that shatter into tiny pieces, or of two kinds over a long
    run ("PvcBzwyTPotGaiBcbHpnfPiKrLApES"), or in groups of one length ("jTI5-pOQ1-kpjG"):
    only a generator writes it."""
    core = tok.rstrip("=")
    if len(core) < 16 or _PREFIXED_ID_RE.fullmatch(core) or is_placeholder(core):
        return False
    groups = core.split("-")
    if len(groups) >= 4 and len({len(g) for g in groups}) == 1:
        core = "".join(groups)
    kinds = classes(core)
    return (kinds == 3 and looks_random(core, 16, 14)) or (
        kinds == 2 and core.isalpha() and len(core) >= 24 and looks_random(core)
    )


# A run no word has, with symbols among its letters and digits: "iTzb3ZMKcnIHF2!jE?#o".
_SYMBOLIC_RE = LazyPattern(r"(?<!\S)(?=\S*[!?#*%&$^~@+])[^\s\"'`«»“”()<>\[\]]{16,}")


def _symbolic(text: str) -> list[Candidate]:
    found: list[Candidate] = []
    for m in _SYMBOLIC_RE.finditer(text):
        tok = m.group().rstrip(".,;:!?")
        if "://" in tok or ("@" in tok.strip("@") and "." in tok.split("@")[-1]):
            continue  # an address or a mail address
        if not _unnamed(text, m.start()):
            continue
        symbols = sum(not c.isalnum() for c in tok)
        letters_and_digits = "".join(c for c in tok if c.isalnum())
        if (
            classes(tok) == 3
            and symbols * 8 <= len(tok) * 3
            and looks_random(letters_and_digits, 12, 10)
        ):
            found.append((m.start(), m.start() + len(tok), "high_entropy", 20))
    return found


def _unnamed(text: str, start: int) -> bool:
    """Nothing on its line says what it is (a digest, an id, IPFS's content address), and
    it is no line of a PEM block (a public key or a certificate: private ones have their
    own rule)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start : len(text) if line_end == -1 else line_end]
    if _HASH_CONTEXT_RE.search(line) or _CONTENT_ADDRESS_RE.search(line):
        return False
    begin = text.rfind("-----BEGIN ", 0, start)
    return begin == -1 or text.rfind("-----END ", begin, start) != -1


def _in_address(text: str, start: int) -> bool:
    """A page's id in a link ("docs.google.com/d/1BxiMVs0XRA5nFMdKvBd…/edit")."""
    if start and text[start - 1] in "/=?#&.@":
        return True
    word_start = max(text.rfind(" ", 0, start), text.rfind("\n", 0, start)) + 1
    return "://" in text[word_start:start] or "www." in text[word_start:start]
