"""Tokenizer: stemming, diacritics, CJK windows, and queries that can never be FTS syntax."""

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memclaw.text.language import LANGUAGES
from memclaw.text.stem import stem
from memclaw.text.tokenize import index_text, iter_tokens, parse_query, tokens


@pytest.mark.parametrize(
    ("words", "same"),
    [
        (["run", "runs", "running"], True),
        (["connect", "connected", "connecting", "connection", "connections"], True),
        (["migrate", "migrated", "migrating", "migration"], True),
        (["preference", "preferences"], True),
        (["cat", "catalog"], False),
        (["happy", "happiness"], True),
        (["dog", "dogs"], True),
        (["relational", "relate"], True),
    ],
)
def test_english_stemming_conflates_inflections(words: list[str], same: bool) -> None:
    stems = {stem(w) for w in words}
    assert (len(stems) == 1) is same


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("swedish", "flyttar flyttade flyttat flytta"),
        ("swedish", "veterinären veterinär"),
        ("swedish", "försäkringen försäkring forsakringen"),  # with and without accents
        ("german", "Häuser Haus Hauses"),
        ("german", "Datenbank Datenbanken"),
        ("french", "université universités"),
        ("spanish", "nación naciones"),
        ("russian", "книга книги"),
    ],
)
def test_inflections_meet_in_their_language(language: str, words: str) -> None:
    assert len(set(tokens(words, language))) == 1


def test_each_block_is_stemmed_in_its_own_language() -> None:
    # The Swedish stemmer knows -ade, the English one does not: the guess decides.
    assert tokens("Ingrid flyttade till Lund och trivs där")[1] == "flytt"
    assert tokens("Ingrid flyttade")[1] == "flyttad"  # no Swedish evidence: English
    assert tokens("Die Häuser sind alt") == ["die", "haus", "sind", "alt"]
    assert tokens("книги и журналы") == ["книг", "и", "журнал"]  # Cyrillic: Russian anywhere
    assert tokens("reading книги") == ["read", "книг"]


def test_a_query_meets_a_block_whatever_language_it_is_guessed_in() -> None:
    block = set(tokens("Ingrid flyttade till Lund och trivs där"))
    query = parse_query("flyttar")  # one word: guessed English, also stemmed as Swedish
    assert query.terms[0].tokens == ("flyttar",)
    assert query.vocabulary() & block == {"flytt"}


def test_snowball_english_examples() -> None:
    examples = {
        "caresses": "caress",
        "ponies": "poni",
        "cats": "cat",
        "agreed": "agre",
        "plastered": "plaster",
        "motoring": "motor",
        "hopping": "hop",
        "filing": "file",
        "happy": "happi",
        "generalization": "general",  # Porter2 keeps "general"; Porter 1980 said "gener"
        "electrical": "electr",
        "adjustment": "adjust",
        "controll": "control",
        "sky": "sky",
    }
    assert {w: stem(w) for w in examples} == examples


def test_case_and_possessives() -> None:
    assert tokens("Maya's DOG") == tokens("maya dog")
    assert tokens("don't") == ["dont"]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Göteborg", "goteborg"),
        ("Borås", "BORAS"),
        ("Straße", "strasse"),
        ("Müller", "muller"),
        ("Ångström", "angstrom"),
        ("café", "cafe"),
        ("naïve", "naive"),
    ],
)
def test_diacritics_and_case_fold_away(a: str, b: str) -> None:
    # Accents are evidence of a language, so each spelling alone may be guessed as another
    # language; in the same language both spellings give the same terms.
    for language in LANGUAGES:
        assert tokens(a, language) == tokens(b, language)


def test_decomposed_text_matches_composed() -> None:
    assert tokens("Bora\u030as") == tokens("Borås")


def test_cjk_text_becomes_overlapping_pairs() -> None:
    assert tokens("東京都") == ["東京", "京都", "都"]
    assert tokens("サーバー") == ["サー", "ーバ", "バー", "ー"]
    assert tokens("서울에서") == ["서울", "울에", "에서", "서"]
    assert tokens("猫") == ["猫"]


def test_mixed_scripts_split_at_the_boundary() -> None:
    assert tokens("PostGIS3.4を使う") == ["postgis3", "4", "を使", "使う", "う"]
    assert tokens("半角ｶﾀｶﾅ") == tokens("半角カタカナ")


def test_spans_point_at_the_source_text() -> None:
    text = "Knut's vet: 東京 at 08:15"
    for tok in iter_tokens(text):
        assert text[tok.start : tok.end].strip()
    cjk = [t for t in iter_tokens(text) if t.term == "東京"]
    assert text[cjk[0].start : cjk[0].end] == "東京"


def test_query_terms_are_quoted_and_or_joined() -> None:
    # Each word in every language's stemming: the English form first, then the others.
    assert parse_query("cutover window").match() == '("cutov" OR "cutover") OR "window"'
    assert parse_query("stops.geog 2026-12").match() == (
        '("stop geog" OR "stops geog") OR "2026 12"'
    )
    assert parse_query("stops.geog").match() == '("stop geog" OR "stops geog")'


def test_dates_and_times_are_also_one_joined_token() -> None:
    assert tokens("due 2026-12-12 at 08:15") == [
        *["due", "2026", "12", "12", "20261212", "at", "08", "15", "0815"]
    ]
    assert parse_query("2026-12-12 08:15").match() == '"20261212" OR "0815"'
    assert tokens("2026-12-12T08:15") == ["2026", "12", "12t08", "15"]  # not a stamp


def test_cjk_query_uses_each_pair_and_single_characters_as_prefix() -> None:
    assert parse_query("東京都").match() == '"東京" OR "京都"'
    assert parse_query("猫").match() == '"猫"*'


def test_stopwords_are_dropped_unless_nothing_else_is_left() -> None:
    assert parse_query("what is the cutover").match() == '("cutov" OR "cutover")'
    assert parse_query("the and").match() == '"the" OR "and"'
    assert parse_query("vad är det").match() == '"vad"'


INJECTIONS = [
    '"',
    '""',
    "AND OR NOT",
    "*",
    "NEAR(",
    "NEAR(a b, 3)",
    "col:value",
    "body:secret",
    "{body context}: x",
    "a + b",
    "^start",
    "(unbalanced",
    "a) OR (b",
    "-x",
    "x*",
    "'quoted'",
    "rowid:1",
    "\x00",
]


@pytest.mark.parametrize("query", INJECTIONS)
def test_fts_syntax_in_a_query_is_just_text(query: str) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, context, tokenize='unicode61')")
    conn.execute("INSERT INTO t VALUES (?, '')", (index_text("value near secret start x b"),))
    parsed = parse_query(query)
    for term in parsed.terms:
        assert all(tok.isalnum() for tok in term.tokens)
    if not parsed.empty:
        conn.execute("SELECT rowid FROM t WHERE t MATCH ?", (parsed.match(),)).fetchall()


def _fts_tokens(conn: sqlite3.Connection, text: str) -> list[str]:
    conn.execute("DELETE FROM t")
    conn.execute("INSERT INTO t(rowid, body) VALUES (1, ?)", (text,))
    rows = conn.execute("SELECT term FROM v WHERE doc = 1 ORDER BY offset").fetchall()
    return [r[0] for r in rows]


_TEXT = st.text(
    alphabet=st.sampled_from(
        list("abcxyzABCÅÄÖäöüßéèçñøæ0123456789 .,;:-_'\"()*^+{}\n\t")
        + list("東京都猫犬日本語ひらがなカタカナｶﾀｶﾅ한국어서울ー々")
        + ["\u0301", "ﬁ", "²", "İ", "Ⅻ", "🙂", "\u200b"]
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_sqlite_unicode61_sees_exactly_our_tokens(text: str) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE VIRTUAL TABLE t USING fts5(body, tokenize='unicode61 remove_diacritics 0')"
    )
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    ours = tokens(text)
    assert _fts_tokens(conn, " ".join(ours)) == ours


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_any_query_is_a_valid_match_expression(text: str) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE VIRTUAL TABLE t USING fts5(body, tokenize='unicode61 remove_diacritics 0')"
    )
    conn.execute("INSERT INTO t VALUES (?)", (index_text(text),))
    parsed = parse_query(text)
    if not parsed.empty:
        rows = conn.execute("SELECT rowid FROM t WHERE t MATCH ?", (parsed.match(),)).fetchall()
        assert rows == [(1,)]  # a text always finds itself


def test_stopwords_are_every_stopword_folded_in_every_language() -> None:
    # STOPWORDS is built in batches for speed; it must be what folding each word gives.
    from memclaw.text import tokenize

    folded = {
        term
        for lang in LANGUAGES
        for word in tokenize.STOPWORD_WORDS
        for term in tokenize._fold_latin(word, lang)
    }
    assert folded == tokenize.STOPWORDS
    assert {"the", "och", "für"} <= tokenize.STOPWORD_WORDS  # ASCII and the folded others
