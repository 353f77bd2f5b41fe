"""An 80-character window of a block around its best match, with match spans."""

from __future__ import annotations

from memclaw.text.tokenize import Query, iter_tokens

ELLIPSIS = "…"
Span = tuple[int, int]


def _flatten(text: str) -> tuple[str, list[int]]:
    """Collapse whitespace runs to one space; ``where[i]`` is the flat index of text[i]."""
    if text.isprintable() and "  " not in text and text == text.strip():
        return text, list(range(len(text) + 1))  # one plain line: nothing to collapse
    out: list[str] = []
    where: list[int] = []
    space = False
    for ch in text:
        if ch.isspace():
            if not space and out:
                out.append(" ")
            space = True
            where.append(len(out) - 1 if out else 0)
            continue
        space = False
        where.append(len(out))
        out.append(ch)
    while out and out[-1] == " ":
        out.pop()
    where.append(len(out))  # end sentinel
    return "".join(out), where


def _merge(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def match_spans(text: str, query: Query) -> list[tuple[str, Span]]:
    """(term, span) for every occurrence in ``text`` of a query term; phrases as a whole."""
    toks = list(iter_tokens(text))
    forms = [f for t in query.terms if not t.prefix for f in t.forms]
    singles = {f[0] for f in forms if len(f) == 1}
    prefixes = query.prefixes()
    phrases = [f for f in forms if len(f) > 1]
    found: list[tuple[str, Span]] = []
    for i, tok in enumerate(toks):
        if tok.term in singles or any(tok.term.startswith(p) for p in prefixes):
            found.append((tok.term, (tok.start, tok.end)))
        for phrase in phrases:
            n = len(phrase)
            if tok.term == phrase[0] and tuple(x.term for x in toks[i : i + n]) == phrase:
                found.append((" ".join(phrase), (tok.start, toks[i + n - 1].end)))
    return found


def make_snippet(text: str, query: Query, width: int = 80) -> tuple[str, list[Span]]:
    """A window of at most ``width`` characters (plus ellipses) and its highlight spans."""
    flat, where = _flatten(text)
    found = [(term, (where[s], where[e - 1] + 1)) for term, (s, e) in match_spans(text, query)]
    if len(flat) <= width:
        return flat, _merge([span for _, span in found])
    start = _best_start(flat, found, width)
    end = min(len(flat), start + width)
    if start > 0:  # begin at a word boundary when one is near
        space = flat.find(" ", start, min(start + 12, end))
        first_match = min((s for _, (s, _e) in found if s >= start), default=end)
        if space != -1 and space < first_match:
            start = space + 1
    if end < len(flat):
        space = flat.rfind(" ", max(start, end - 12), end)
        last_match = max((e for _, (_s, e) in found if e <= end), default=start)
        if space != -1 and space >= last_match:
            end = space
    prefix = ELLIPSIS if start > 0 else ""
    suffix = ELLIPSIS if end < len(flat) else ""
    shift = len(prefix) - start
    spans = [
        (max(s, start) + shift, min(e, end) + shift) for _, (s, e) in found if s < end and e > start
    ]
    return prefix + flat[start:end] + suffix, _merge(spans)


def _best_start(flat: str, found: list[tuple[str, Span]], width: int) -> int:
    """Start of the window holding the most distinct matched terms (earliest on a tie)."""
    if not found:
        return 0
    best, best_key = 0, (-1, 0)
    for _, (anchor, _end) in found:
        start = max(0, min(anchor - width // 4, len(flat) - width))
        terms = {t for t, (s, e) in found if s >= start and e <= start + width}
        key = (len(terms), -start)
        if key > best_key:
            best, best_key = start, key
    return best


def mark(snippet: str, spans: list[Span], open_: str = "«", close: str = "»") -> str:
    """The snippet with every highlight wrapped in markers."""
    out, pos = [], 0
    for start, end in spans:
        out.append(snippet[pos:start] + open_ + snippet[start:end] + close)
        pos = end
    return "".join(out) + snippet[pos:]
