"""Secrets split across adjacent messages: "my key is sk-proj-Ab3dE" then "9fGh2JkL8mN4pQ".

Each half alone can look harmless (a short prefix, a random-ish fragment, "my password is"
with nothing after it), so a per-message scan lets both halves through and the joined
transcript still holds the whole credential. This module scans the seam between each pair of
adjacent messages, glued both directly (a token cut mid-way) and with a space (a sentence
continued in the next message), and redacts whatever part of a seam finding lands in each.
"""

from __future__ import annotations

from collections.abc import Sequence

from memclaw.gates.credentials.nearby import credential_words
from memclaw.gates.credentials.principles import (
    answer_candidates,
    asks_for_credential,
    names_a_credential,
)
from memclaw.gates.lazy_re import LazyPattern
from memclaw.gates.secrets import REDACTION_PREFIX, find_secrets, redact

__all__ = ["redact_adjacent"]

# How much of each side of a seam is scanned: enough for the longest vendor token or a
# sentence announcing a password, small enough that long transcripts stay cheap.
_SEAM = 400

Span = tuple[int, int, str]


def _seam_spans(a: str, b: str) -> tuple[list[Span], list[Span]]:
    left, right = a[-_SEAM:], b[:_SEAM]
    offset = len(a) - len(left)
    in_a: list[Span] = []
    in_b: list[Span] = []
    glued = not (left[-1:].isspace() or right[:1].isspace())
    for sep in ("", " ") if glued else (" ",):
        joined = left + sep + right
        seam = len(left)
        for f in find_secrets(joined):
            if not sep and f.kind in ("password", "high_entropy"):
                # "my password is" + "Blaubeere-73" glued reads "isBlaubeere-73"; a random
                # tail glued to "thanks!" reads as one longer random string.
                continue
            if f.start < seam:
                in_a.append((offset + f.start, offset + min(f.end, seam), f.kind))
            if f.end > seam + len(sep):
                in_b.append((max(f.start - seam - len(sep), 0), f.end - seam - len(sep), f.kind))
    half_a, half_b = _labelled_halves(a, b)
    return in_a + half_a, in_b + half_b


_SHAPELESS = frozenset({"high_entropy", "password", "credential", "secret"})
_LAST_RE = LazyPattern(r"\S{6,}(?=\s*\Z)")
_PIECE_RE = LazyPattern(r"[^\s:]{6,}")


def _labelled_halves(a: str, b: str) -> tuple[list[Span], list[Span]]:
    """A key pasted in halves with words between them ("first half: npm_JJ9h…", "second
    half: xBWg…"): the last word of one and a word of the next, glued, are a token the
    gate knows by its shape."""
    last = _LAST_RE.search(a, max(0, len(a) - _SEAM))
    if last is None:
        return [], []
    for piece in _PIECE_RE.finditer(b, 0, min(len(b), _SEAM)):
        whole = last.group() + piece.group()
        # (A token known by its own shape: any random tail glued to a word is random too.)
        for f in find_secrets(whole):
            if f.start == 0 and f.end == len(whole) and f.kind not in _SHAPELESS:
                return [(*last.span(), f.kind)], [(*piece.span(), f.kind)]
    return [], []


def _apply(text: str, spans: list[Span]) -> str:
    if not spans:
        return text
    spans.sort()
    merged: list[Span] = []
    for s, e, kind in spans:
        if merged and s < merged[-1][1]:
            ps, pe, pk = merged[-1]
            merged[-1] = (ps, max(pe, e), pk)
        else:
            merged.append((s, e, kind))
    parts: list[str] = []
    pos = 0
    for s, e, kind in merged:
        parts.append(text[pos:s])
        parts.append(f"{REDACTION_PREFIX}{kind}]")
        pos = e
    parts.append(text[pos:])
    return "".join(parts)


def redact_adjacent(texts: Sequence[str]) -> list[str]:
    """Redact each text, and every secret that only shows once adjacent texts are joined.

    ``texts`` are consecutive messages from one speaker, in order. Returns one redacted text
    per input, so callers can put them back where they came from.
    """
    extra: list[list[Span]] = [[] for _ in texts]
    for i in range(len(texts) - 1):
        if not texts[i] or not texts[i + 1]:
            continue
        in_a, in_b = _seam_spans(texts[i], texts[i + 1])
        extra[i].extend(in_a)
        extra[i + 1].extend(in_b)
    for i in range(len(texts) - 1):
        for j, spans in _answers(texts, i) if texts[i] else ():
            # What the seam read already ("my password is" + "Blaubeere-73") keeps its kind.
            extra[j].extend(
                a for a in spans if not any(a[0] < e and s < a[1] for s, e, _ in extra[j])
            )
    out: list[str] = []
    for text, spans in zip(texts, extra, strict=True):
        # The message's own findings take part in the merge, so a seam finding that overlaps
        # one of them widens it instead of producing nested markers.
        own = [(f.start, f.end, f.kind) for f in find_secrets(text)]
        out.append(redact(_apply(text, own + spans)))
    return out


# How many messages on an answer may come: "remind me what the garage code was", "wait",
# "let me check the note on the fridge", "3917".
_ANSWER_REACH = 3
# A message this short after one that names a credential may hold a piece of it.
_PIECE_WORDS = 6


def _answers(texts: Sequence[str], i: int) -> list[tuple[int, list[Span]]]:
    """Where the messages after ``texts[i]`` give the credential it speaks of.

    * After a question about one ("What's the alarm code at the cabin?" then "2580"), the
      next message's credential-shaped words, or the whole of it when it is one word; an
      aside of one word ("Moment") lets the answer come one message later.
    * After a message that names one (asked or not), a short message's credential-shaped
      words are a piece of it, and so are those of the naming message ("the password
      starts with Copper-Falcon" then "and ends with -0291!Moor"; a token in three parts).
    * Otherwise a value that opens one of the next two messages ("podaj mi hasło do
      Netflixa" then "Kotlet_Schabowy4 chyba").
    """
    asked = _asks(texts[i][-_SEAM:])
    if not (asked or _names(texts[i])):
        return []
    out: list[tuple[int, list[Span]]] = []
    for j in range(i + 1, min(len(texts), i + 1 + _ANSWER_REACH)):
        said = texts[j]
        if asked and j == i + 1:
            found = answer_candidates(said)
            out.append((j, _spans(found)))
            if found and not _aside(said, found):
                return out
            continue
        if len(said.split()) <= _PIECE_WORDS:
            pieces = answer_candidates(said, shaped_only=True)
            if pieces:
                out += [(i, _spans(answer_candidates(texts[i], shaped_only=True)))]
                # The pieces go on while short messages bring more (a token in three).
                while pieces:
                    out.append((j, _spans(pieces)))
                    j += 1
                    if j == len(texts) or len(texts[j].split()) > _PIECE_WORDS:
                        break
                    pieces = answer_candidates(texts[j], shaped_only=True)
                return out
        found = answer_candidates(said, opening_only=True)
        if found:
            return [*out, (j, _spans(found))]
    return out


def _spans(found: list[tuple[int, int, str, int]]) -> list[Span]:
    return [(s, e, kind) for s, e, kind, _ in found]


def _aside(said: str, found: list[tuple[int, int, str, int]]) -> bool:
    """One word that no credential looks like ("Moment", "chwila", "øh"): the answer may
    still come."""
    value = said.strip()
    return (
        len(found) == 1
        and " " not in value
        and not any(c.isdigit() or not c.isalpha() for c in value.rstrip(".!?…"))
    )


def _names(text: str) -> bool:
    """A short message that names a credential (a request for it, or the first of its
    pieces)."""
    if len(text.split()) > 12:
        return False
    return bool(credential_words(text)) or names_a_credential(text)


def answered_secrets(question: str, answer: str) -> dict[str, str]:
    """What ``answer`` gives away when ``question`` (the message before it, from anyone)
    asks for a credential, as {secret: kind}: "What is the alarm code at the cabin?" then
    "2580"."""
    if not _asks(question[-_SEAM:]):
        return {}
    return {answer[s:e]: kind for s, e, kind, _ in answer_candidates(answer)}


def _asks(question: str) -> bool:
    """A question about a credential, named as the grammar rules know it or by any word
    the nearby rule knows ("Mikä on wifin salasana?", "Hvad er adgangskoden?")."""
    return asks_for_credential(question) or ("?" in question and bool(credential_words(question)))
