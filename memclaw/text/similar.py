"""Cheap text similarity for novelty checks, deduplication and forgotten facts.

Facts are compared as sets of normalised content tokens: lower-case, stop
words and "As of YYYY-MM-DD" stamps removed, a light suffix strip so that
"prefers"/"prefer" and "walks"/"walk" meet. No model, no network.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

_WORD = re.compile(r"[^\W_]+(?:[.'’+#-][^\W_]+)*", re.UNICODE)
_AS_OF = re.compile(
    r"\b(?:as of|per|stand|a fecha de|sedan)\s+\d{4}-\d{2}-\d{2}\b[,:]?|\(as of [^)]*\)", re.I
)
_MARKDOWN = re.compile(r"^[ \t]*(?:[-*+]|\d+\.|#{1,6})[ \t]+", re.MULTILINE)
STOPWORDS = frozenset(
    """
    a an the and or but if of to in on at by for with from into about as is are was were be
    been being am do does did has have had it its this that these those there here so than
    then too very just also i me my mine we us our ours you your he him his she her they
    them their user user's users the team team's s which who whom what when where why how
    not no yes will would can could should shall may might must up out over under again more
    most some any all each both few other such only own same nor now
    """.split()  # noqa: SIM905
)
# Verbs of liking are one idea to a novelty check: "loves" restates "enjoys".
_SYNONYMS = {
    "love": "like",
    "enjoy": "like",
    "adore": "like",
    "fond": "like",
    "hate": "dislike",
    "detest": "dislike",
    "utilize": "use",
    "utilise": "use",
}


def _stem(word: str) -> str:
    for suffix, keep in (("ies", 3), ("ing", 4), ("ed", 4), ("es", 4), ("s", 3)):
        if word.endswith(suffix) and len(word) - len(suffix) >= keep and not word.endswith("ss"):
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    return _SYNONYMS.get(word, word)


def words(text: str) -> list[str]:
    """Lower-case word tokens, in order, with stamps and markdown markers removed."""
    text = _MARKDOWN.sub("", _AS_OF.sub(" ", text))
    return [w.lower().replace("’", "'") for w in _WORD.findall(text)]


def tokens(text: str) -> frozenset[str]:
    """Normalised content tokens of ``text``."""
    return frozenset(
        _stem(w) for w in words(text) if (w not in STOPWORDS and len(w) > 1) or w.isdigit()
    )


def jaccard(a: Iterable[str], b: Iterable[str]) -> float:
    sa, sb = set(a), set(b)
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / len(sa | sb)


def containment(a: Iterable[str], b: Iterable[str]) -> float:
    """Share of ``a``'s tokens that also occur in ``b``."""
    sa, sb = set(a), set(b)
    if not sa:
        return 0.0
    return len(sa & sb) / len(sa)


def known_in(candidate: str, known: Iterable[frozenset[str]], threshold: float = 0.7) -> bool:
    """True when some known line already says (nearly) everything ``candidate`` says."""
    cand = tokens(candidate)
    if not cand:
        return True
    return any(containment(cand, line) >= threshold for line in known if line)


# A concession ("even when she pastes them by accident") qualifies a line without changing
# what it says: the line is also known without it.
_CONCESSION = re.compile(r",?\s+even\s+(?:if|when|though)\b[^.;]*", re.I)


def known_lines(*texts: str) -> list[frozenset[str]]:
    """Token sets of every non-empty, non-heading line of ``texts``."""
    lines = []
    for text in texts:
        for line in text.splitlines():
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                lines.append(tokens(stripped))
                if (core := _CONCESSION.sub("", stripped)) != stripped:
                    lines.append(tokens(core))
    return lines


def fingerprint(text: str) -> list[str]:
    """Hashed tokens: comparable by overlap, yet the forgotten text cannot be read back."""
    return sorted(hashlib.sha256(t.encode()).hexdigest()[:10] for t in tokens(text))


# --- paraphrases of what is known -----------------------------------------------------------

# One token per idea, for telling a restatement from news: "nobody pushes straight to main"
# restates "never push directly to main"; "don't store the staging passwords" restates
# "never keep credentials".
_SAME_IDEA = {
    "never": "¬",
    "don't": "¬",
    "dont": "¬",
    "nobody": "¬",
    "no-one": "¬",
    "avoid": "¬",
    "can't": "¬",
    "cannot": "¬",
    "mustn't": "¬",
    "shouldn't": "¬",
    "doesn't": "¬",
    "store": "keep",
    "save": "keep",
    "retain": "keep",
    "record": "keep",
    "write": "write",
    "password": "credential",
    "passwd": "credential",
    "token": "credential",
    "secret": "credential",
    "key": "credential",
    "api-key": "credential",
    "straight": "direct",
    "directly": "direct",
    "brief": "short",
    "concise": "short",
    "terse": "short",
    "reply": "answer",
    "response": "answer",
    "respond": "answer",
    "prefer": "like",
    "push": "push",
}
# Words that qualify a statement without changing what it says.
_QUALIFIERS = frozenset(
    """
    rule preference says anywhere even ever mistake accident new reminder really please
    always anymore any
    """.split()  # noqa: SIM905
)


def ideas(line: frozenset[str]) -> frozenset[str]:
    """``tokens()`` output folded to ideas: negations, synonyms, qualifiers dropped."""
    return frozenset(_SAME_IDEA.get(t, t) for t in line if t not in _QUALIFIERS)


def restates(candidate: str, known: Iterable[frozenset[str]], narrower: bool = False) -> bool:
    """True when a known line says the same idea in other words.

    With ``narrower`` (rules and preferences), a candidate that is a known line plus at
    most two details ("don't keep the staging DB credentials" against "never keep
    credentials") is a restatement too: the known rule already covers it.
    """
    cand = ideas(tokens(candidate))
    if len(cand) < 2:
        return False
    for line in known:
        said = ideas(line)
        if len(said) < 2:
            continue
        if containment(cand, said) >= 0.8:
            return True
        covered = narrower and len(said) >= 3 and containment(said, cand) >= 0.8
        if covered and len(cand - said) <= 2 and ("¬" in cand) == ("¬" in said):
            return True
    return False
