"""One tokeniser for the index and the query, so they always agree.

* Latin (and every other alphabetic) text: case-folded, split on word
  boundaries, stemmed with the Snowball stemmer of the block's language
  (running = run, flyttade = flyttar, Häuser = Haus; ``language`` guesses it
  per block) and diacritics removed (Göteborg = goteborg, Straße = strasse).
  Cyrillic words are always stemmed as Russian.
* Chinese, Japanese and Korean: overlapping two-character windows, plus the
  last character of each run on its own, so that every character starts some
  token and a one-character query can be answered with a prefix match.

Tokens contain letters and digits only, so SQLite's ``unicode61`` tokenizer
sees exactly the tokens produced here. Queries are turned into FTS5 MATCH
expressions built only from quoted tokens: no user text is ever FTS syntax.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import NamedTuple

from memclaw.text.irregular import base_form
from memclaw.text.language import LANGUAGES, language_of, language_of_words
from memclaw.text.spelling import american
from memclaw.text.stem import ENGLISH, stem, stemmer

# Bump when tokens change: every index built with another version is rebuilt.
# 3: Snowball stemmers chosen per block by language (2 was an English-only Porter).
# 4: blocks carry their neighbours' words as context (index/blocks.py).
# 5: British spellings folded to American (text/spelling.py); hyphenated words also joined.
# 6: English irregular forms folded to their base word (text/irregular.py).
TOKENIZER_VERSION = "6"

# A date (2026-12-12) or a time (08:15) is one word: it is indexed as its parts plus the
# parts joined ("20261212", "0815"), so that a search for it is one cheap term lookup.
_STAMP = r"(?:\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2})(?![\w:-])"
_WORD = re.compile(_STAMP + r"|[^\W_]+(?:['’][^\W_]+)*")
WORD = _WORD  # what one word is, for callers that pick words before tokenising
_CJK_CLASS = (
    "\u1100-\u11ff"  # Hangul Jamo
    "\u3005-\u3007"  # 々 〆 〇
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3130-\u318f"  # Hangul compatibility Jamo
    "\u31f0-\u31ff"  # Katakana phonetic extensions
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\uff66-\uff9f"  # half-width Katakana
    "\U00020000-\U0003134f"  # CJK extensions B-G
)


@lru_cache(maxsize=1)
def _script_runs() -> re.Pattern[str]:
    # Compiled on first non-ASCII word: the class is large and ASCII text never needs it.
    return re.compile(f"([{_CJK_CLASS}]+)|([^{_CJK_CLASS}]+)")


_ALNUM = re.compile(r"[^\W_]+")


class Token(NamedTuple):
    """A token and the span of source text it came from (``text[start:end]``)."""

    term: str
    start: int
    end: int


def _strip_marks(text: str) -> list[str]:
    """Diacritics removed; NFKD may also split a part (½ is 1⁄2), hence a list."""
    decomposed = unicodedata.normalize("NFKD", text)
    return _ALNUM.findall("".join(ch for ch in decomposed if not unicodedata.combining(ch)))


def _fold_part(part: str, language: str) -> list[str]:
    if part.isascii():
        word = american(part)
        return [stem(base_form(word) if language == ENGLISH else word, language)]
    if "\u0400" <= part[0] <= "\u04ff":
        # Cyrillic is stemmed as Russian in any block, before folding: й and ё are letters
        # of their own to the stemmer, and NFKD would turn them into и and е.
        return _strip_marks(stem(part, "russian"))
    # Latin: fold first, so that a word spelt with or without its accents (Borås, Boras)
    # stems alike. The Latin stemmers lose little: å ä ö ü é fold to vowels, which keeps
    # their regions, and most accented suffixes (Finnish -llä, Spanish -ación) come out
    # the same for both spellings.
    return [stem(p, language) for p in _strip_marks(part)]


@lru_cache(maxsize=65536)
def _fold_latin(word: str, language: str = ENGLISH) -> tuple[str, ...]:
    """Case-fold, stem and strip diacritics of one non-CJK word; may yield several parts."""
    folded = word.casefold().replace("’", "'")
    if "'" in folded:
        if folded.endswith("'s"):
            folded = folded[:-2]
        folded = folded.replace("'", "")
    return tuple(term for part in _ALNUM.findall(folded) for term in _fold_part(part, language))


@lru_cache(maxsize=4096)
def _fold_cjk(ch: str) -> str:
    # NFKC maps half-width Katakana to full width and leaves everything else alone.
    return unicodedata.normalize("NFKC", ch)


def _cjk_tokens(run: str, offset: int) -> Iterator[Token]:
    chars = [_fold_cjk(c) for c in run]
    for i in range(len(chars) - 1):
        yield Token(chars[i] + chars[i + 1], offset + i, offset + i + 2)
    last = len(chars) - 1
    yield Token(chars[last], offset + last, offset + last + 1)


def _is_stamp(word: str) -> bool:
    return word[0].isdigit() and ("-" in word or ":" in word)


def _word_tokens(word: str, offset: int, language: str) -> Iterator[Token]:
    if _is_stamp(word):
        end = offset + len(word)
        parts = _ALNUM.findall(word)
        for part in [*parts, "".join(parts)]:
            yield Token(part, offset, end)
        return
    if word.isascii():
        for part in _fold_latin(word, language):
            yield Token(part, offset, offset + len(word))
        return
    for match in _script_runs().finditer(word):
        start, end = match.span()
        if match.group(1):
            yield from _cjk_tokens(match.group(1), offset + start)
        else:
            for part in _fold_latin(match.group(2), language):
                yield Token(part, offset + start, offset + end)


def iter_tokens(text: str, language: str | None = None) -> Iterator[Token]:
    """Tokens of ``text`` with their source spans (text should be NFC, see ``nfc``).

    ``language`` (a Snowball name) is guessed from ``text`` when not given.
    """
    language = language or language_of(text)
    for run in _runs(text):
        if len(run) > 1:
            joined = "".join(m.group() for m in run)
            for term in _fold_latin(joined, language):
                yield Token(term, run[0].start(), run[-1].end())
        for match in run:
            yield from _word_tokens(match.group(), match.start(), language)


def _runs(text: str) -> Iterator[list[re.Match[str]]]:
    """Words, those joined by single hyphens in one list: "de-stress", "five-a-side".

    A hyphenated word is indexed as its parts and, first, as one word, so that
    "destress" finds "de-stress" and "half marathon" finds "half-marathon".
    """
    run: list[re.Match[str]] = []
    for match in _WORD.finditer(text):
        word = match.group()
        joins = (
            run
            and match.start() == run[-1].end() + 1
            and text[run[-1].end()] == "-"
            and word.isascii()
            and word.isalpha()
            and run[-1].group().isalpha()
        )
        if run and not joins:
            yield run
            run = []
        run.append(match)
    if run:
        yield run


def nfc(text: str) -> str:
    """Compose characters so that spans and regular expressions see whole letters."""
    if text.isascii() or unicodedata.is_normalized("NFC", text):
        return text
    return unicodedata.normalize("NFC", text)


@lru_cache(maxsize=1 << 17)
def _word_terms(word: str, language: str) -> tuple[str, ...]:
    """The terms of one regex word; words repeat, so this is where caching pays."""
    if word.isascii() and not _is_stamp(word):
        return _fold_latin(word, language)
    return tuple(t.term for t in _word_tokens(word, 0, language))


def tokens(text: str, language: str | None = None) -> list[str]:
    """The terms of ``text``, in order, as stored in the full-text index.

    The whole of ``text`` is stemmed in one language, ``language`` or else the
    one guessed from ``text``: give one block (a line, a paragraph) at a time.
    """
    text = nfc(text)
    words = _WORD.findall(text)
    language = language or language_of_words(words, text)
    out: list[str] = []
    if "-" not in text:
        for word in words:
            out.extend(_word_terms(word, language))
        return out
    for run in _runs(text):
        if len(run) > 1:
            out.extend(_fold_latin("".join(m.group() for m in run), language))
        for match in run:
            out.extend(_word_terms(match.group(), language))
    return out


def index_text(text: str) -> str:
    """The token stream of ``text`` as one space-separated string for FTS5."""
    return " ".join(tokens(text))


# Dropped from queries (never from the index) unless a query is nothing else.
_STOPWORD_TEXT = """
    a about am an and any are as at be been but by can could did do does doing for from
    had has have he her hers him his how i if in into is it its just me my no nor not of
    on or our ours she should so some such than that the their them then there these they
    this those to too us very was we were what when where which who whom why will with
    would you your yours s t d ll m re ve
    och att det en ett som är på för med av den har inte jag om men var till
    und der die das ist nicht ein eine zu mit von den dem auf für sich auch es
"""
STOPWORD_WORDS = frozenset(_STOPWORD_TEXT.split())  # as written, case-folded


def _stopword_terms() -> frozenset[str]:
    """Every stopword as the index stores it, stemmed in every language.

    That is ``_fold_latin(word, lang)`` for each word and language, but its 1,600 calls
    cost every cold search about 5 ms at import. A lower-case ASCII word folds to
    ``stem(american(word), lang)``, so those (all but four) go through each language's
    stemmer in one call; ``stem`` keeps the word when the stemmer returns nothing.
    """
    plain = [w for w in STOPWORD_WORDS if w.isascii() and w.isalpha() and w.islower()]
    spelt = [american(w) for w in plain]
    terms = {
        term or word
        for lang in LANGUAGES
        for word, term in zip(spelt, stemmer(lang).stemWords(spelt), strict=True)
    }
    others = STOPWORD_WORDS.difference(plain)
    terms.update(tok for lang in LANGUAGES for word in others for tok in _fold_latin(word, lang))
    return frozenset(terms)


STOPWORDS = _stopword_terms()


# --- queries --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    """One query term: a phrase of tokens; ``prefix`` when the last token is a prefix.

    ``alternatives`` are the same words stemmed in other languages: any form matches.
    """

    tokens: tuple[str, ...]
    prefix: bool = False
    alternatives: tuple[tuple[str, ...], ...] = ()

    @property
    def forms(self) -> tuple[tuple[str, ...], ...]:
        return (self.tokens, *self.alternatives)

    def fts(self) -> str:
        star = "*" if self.prefix else ""
        quoted = ['"' + " ".join(t.replace('"', '""') for t in f) + '"' + star for f in self.forms]
        return quoted[0] if len(quoted) == 1 else "(" + " OR ".join(quoted) + ")"


@dataclass(frozen=True)
class Query:
    text: str
    terms: tuple[Term, ...]

    @property
    def empty(self) -> bool:
        return not self.terms

    def match(self) -> str:
        """An FTS5 MATCH expression: the quoted terms joined with OR."""
        return " OR ".join(t.fts() for t in self.terms)

    def vocabulary(self) -> frozenset[str]:
        return self._vocabulary

    def prefixes(self) -> tuple[str, ...]:
        return self._prefixes

    def matches(self, term: str) -> bool:
        return term in self._vocabulary or any(term.startswith(p) for p in self._prefixes)

    # Computed once per query: ``matches`` runs for every word of every candidate block.
    @cached_property
    def _vocabulary(self) -> frozenset[str]:
        return frozenset(tok for t in self.terms if not t.prefix for f in t.forms for tok in f)

    @cached_property
    def _prefixes(self) -> tuple[str, ...]:
        return tuple(t.tokens[-1] for t in self.terms if t.prefix)


def _groups(text: str) -> Iterator[tuple[list[str], bool]]:
    """Whitespace-separated chunks: '2026-12-12' or 'stops.geog' stay one group.

    Each with whether it is a hyphenated word ("de-stress"), which is also one word.
    """
    for chunk in text.split():
        words = _WORD.findall(chunk)
        if words:
            yield words, bool(re.fullmatch(r"[^\W\d_]+(?:-[^\W\d_]+)+", chunk.strip(".,;:!?")))


def parse_query(text: str) -> Query:
    """Turn free text into terms; punctuation, quotes and operators are just separators.

    A Latin chunk joined by punctuation (a dotted name) becomes one phrase; a
    date or a time one term; each two-character window of a CJK run its own
    term, so that a CJK question (written without spaces) matches by overlap
    and the blocks sharing most windows with it come first.
    """
    text = nfc(text)
    languages = _query_languages(language_of(text))
    terms: list[Term] = []
    for words, hyphenated in _groups(text):
        latin: list[str] = []
        for word in words:
            if _is_stamp(word):
                _flush(latin, terms, languages)
                terms.append(Term(("".join(_ALNUM.findall(word)),)))
            elif word.isascii():
                latin.append(word)
            else:
                for run in _script_runs().finditer(word):
                    if run.group(1):
                        _flush(latin, terms, languages)
                        terms.extend(_cjk_terms(run.group(1)))
                    else:
                        latin.append(run.group(2))
        _flush(latin, terms, languages, joined=hyphenated)
    unique = list(dict.fromkeys(terms))
    content = [t for t in unique if not (len(t.tokens) == 1 and t.tokens[0] in STOPWORDS)]
    return Query(text, tuple(content or unique))


def _cjk_terms(run: str) -> list[Term]:
    pairs = [t.term for t in _cjk_tokens(run, 0)][:-1]  # without the trailing single character
    if not pairs:
        return [Term((_fold_cjk(run),), prefix=True)]  # one character: any word starting with it
    return [Term((pair,)) for pair in pairs]


# A query is too short to tell its language reliably ("kanelbullar" has no function word),
# and a Swedish note is indexed with Swedish stems whatever language the question is asked
# in. So each query word is stemmed in every language the index may have used, the guessed
# language first, and any of those forms matches: the right one is always among them.
# Measured against stemming in the guessed language and English only: that misses a
# one-word query ("flyttar" for a note saying "flyttade", guessed English); on
# benchmarks/search_quality.py (seeds 1-10) both have the same recall, and the extra
# forms cost English questions a little MRR (0.897 against 0.904).
def _query_languages(guess: str) -> tuple[str, ...]:
    return (guess, *(lang for lang in LANGUAGES if lang != guess))


def _flush(
    latin: list[str], terms: list[Term], languages: tuple[str, ...], *, joined: bool = False
) -> None:
    if latin:
        forms = dict.fromkeys(
            tuple(tok for word in latin for tok in _fold_latin(word, lang)) for lang in languages
        )
        if joined and len(latin) > 1 and all(w.isascii() for w in latin):
            # "de-stress" is also "destress": the index holds a hyphenated word joined too.
            forms.update(dict.fromkeys(_fold_latin("".join(latin), lang) for lang in languages))
        forms.pop((), None)
        if forms:
            first, *rest = forms
            terms.append(Term(first, alternatives=tuple(rest)))
        latin.clear()
