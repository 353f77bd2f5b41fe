"""How vectors are kept in the index: each its direction in one signed byte a value.

A float32 vector of multilingual-e5-small is 1,536 bytes, fourteen times the dialogue
turn it stands for, and too large to share a page: each took a 4 KB page of its own.
Packed (:func:`pack`), it is 384 bytes. Only the direction is kept, since similarity
is the cosine, which ignores length. A row holds the model as a small number (its
name is in ``vector_models``) and the text's key as 8 bytes; rows are appended in
order, so ten fill a page. Every statement on these tables is here.
"""

from __future__ import annotations

import math
import operator
import sqlite3
from array import array
from collections.abc import Iterable, Iterator, Sequence


def pack(vector: Sequence[float]) -> bytes:
    """The direction of ``vector`` in one signed byte a value (the largest scaled to
    ±127): a quarter of float32's size. With multilingual-e5-small a question's cosine
    to a turn moves by 0.00015 on average, 0.0012 at most (``make bench-real``)."""
    top = max((abs(x) for x in vector), default=0.0) or 1.0
    return array("b", (round(x * 127 / top) for x in vector)).tobytes()


def unpack(blob: bytes) -> array[float]:
    """The unit vector a packed blob points along: a dot product of two is their cosine."""
    values = array("b")
    values.frombytes(blob)
    return unit(values)


def unit(vector: Sequence[float]) -> array[float]:
    norm = math.sqrt(math.fsum(x * x for x in vector)) or 1.0
    return array("d", (x / norm for x in vector))


def similarity(query: Sequence[float], packed: array[int]) -> float:
    """The cosine of a unit ``query`` and a packed vector (as ``read`` gives it): the same
    figure on every path, and no unit vector built for a block that is scored once."""
    dot: float = sum(map(operator.mul, query, packed))
    return dot / (math.hypot(*packed) or 1.0)


def _stored(key: str) -> bytes:
    """A text's key (16 hex digits, ``semantic.text_key``) as the 8 bytes it stands for."""
    try:
        return bytes.fromhex(key)
    except ValueError:
        return key.encode("utf-8")  # not one memclaw made: kept whole, found again as hex


def key_text(stored: bytes) -> str:
    """A stored key as the rest of memclaw spells it (16 hex digits)."""
    return bytes(stored).hex()


def _model(conn: sqlite3.Connection, name: str, *, add: bool = False) -> int | None:
    if add:
        conn.execute("INSERT OR IGNORE INTO vector_models (name) VALUES (?)", (name,))
    found = conn.execute("SELECT id FROM vector_models WHERE name = ?", (name,)).fetchone()
    return None if found is None else int(found[0])


def keys(conn: sqlite3.Connection, model: str | None = None) -> set[str]:
    """The keys of the texts with a vector (made by ``model``, when given)."""
    if model is None:
        return {key_text(k) for (k,) in conn.execute("SELECT DISTINCT key FROM vectors")}
    number = _model(conn, model)
    sql = "SELECT key FROM vectors WHERE model = ?"
    return set() if number is None else {key_text(k) for (k,) in conn.execute(sql, (number,))}


def read(
    conn: sqlite3.Connection, model: str, wanted: Iterable[str] | None = None
) -> Iterator[tuple[str, array[int]]]:
    """(key, packed vector: ``similarity`` scores it) of ``model``'s vectors: every one,
    or those of ``wanted``."""
    number = _model(conn, model)
    if number is None:
        return
    if wanted is None:
        rows: Iterable[tuple[bytes, bytes]] = conn.execute(
            "SELECT key, vec FROM vectors WHERE model = ?", (number,)
        )
    else:
        sql = "SELECT key, vec FROM vectors WHERE model = ? AND key = ?"
        rows = (row for k in wanted for row in conn.execute(sql, (number, _stored(k))))
    for key, vec in rows:
        values = array("b")
        values.frombytes(vec)
        yield key_text(key), values


def add(conn: sqlite3.Connection, model: str, made: Iterable[tuple[str, Sequence[float]]]) -> None:
    """Keep the vectors ``made`` (key, the model's vector) by ``model``, each replacing the
    key's older one. The caller holds the write transaction."""
    number = _model(conn, model, add=True)
    rows = [(number, _stored(key), pack(vector)) for key, vector in made]
    conn.executemany("INSERT OR REPLACE INTO vectors (model, key, vec) VALUES (?, ?, ?)", rows)


def delete(conn: sqlite3.Connection, gone: Iterable[str]) -> None:
    """Delete the vectors of the ``gone`` keys, whatever model made them."""
    conn.executemany("DELETE FROM vectors WHERE key = ?", [(_stored(k),) for k in gone])


def count(conn: sqlite3.Connection, among: Iterable[str] | None = None) -> int:
    """How many vectors there are (of the keys ``among``, when given)."""
    if among is None:
        return int(conn.execute("SELECT count(*) FROM vectors").fetchone()[0])
    sql = "SELECT count(*) FROM vectors WHERE key = ?"
    return sum(int(conn.execute(sql, (_stored(k),)).fetchone()[0]) for k in set(among))


# The SQL sqlite-vec runs: the cosine similarity of the packed question to each vector of
# one model and length, by key (spelt in SQL as ``key_text`` spells it: no call a row).
SIMILARITIES = """
    SELECT lower(hex(v.key)), 1.0 - vec_distance_cosine(vec_int8(v.vec), vec_int8(?))
    FROM vectors v JOIN vector_models m ON m.id = v.model
    WHERE m.name = ? AND length(v.vec) = ?
"""


def packed_layout(conn: sqlite3.Connection) -> None:
    """Index migration 7: vectors kept as float32 rows, one per model and key (schema 2 to
    6), move into this layout, packed; nothing is embedded again. Runs inside the
    migration's transaction."""
    conn.execute("ALTER TABLE vectors RENAME TO vectors_float32")
    conn.execute("CREATE TABLE vector_models (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
    conn.execute(
        "CREATE TABLE vectors (id INTEGER PRIMARY KEY, model INTEGER NOT NULL,"
        " key BLOB NOT NULL, vec BLOB NOT NULL)"
    )
    # Key first: a forgotten text's vectors are found by key alone, whatever model made them.
    conn.execute("CREATE UNIQUE INDEX vectors_key ON vectors (key, model)")
    old = conn.execute("SELECT model, hash, vec FROM vectors_float32 ORDER BY model, hash")
    for model, key, blob in old.fetchall():
        values = array("f")
        values.frombytes(blob)
        add(conn, str(model), [(str(key), values)])
    conn.execute("DROP TABLE vectors_float32")
