"""The vectors table: packed vectors kept by model and key, found, scored and deleted."""

from __future__ import annotations

import math
import random
import sqlite3
from pathlib import Path

from memclaw.index import vectors
from memclaw.index.store import open_index

KEY_A, KEY_B = "0123456789abcdef", "fedcba9876543210"


def _index(tmp_path: Path) -> sqlite3.Connection:
    return open_index(tmp_path)


def test_vectors_are_kept_by_model_and_key_and_a_key_is_deleted_for_every_model(
    tmp_path: Path,
) -> None:
    conn = _index(tmp_path)
    try:
        with conn:
            vectors.add(conn, "e5", [(KEY_A, [1.0, 0.0]), (KEY_B, [0.0, 2.0])])
            vectors.add(conn, "other", [(KEY_A, [0.5, 0.5])])
            vectors.add(conn, "e5", [(KEY_A, [0.0, 1.0])])  # a newer vector for the key
        assert vectors.keys(conn, "e5") == {KEY_A, KEY_B}
        assert vectors.keys(conn, "other") == {KEY_A}
        assert vectors.keys(conn, "unknown") == set()
        assert vectors.count(conn) == 3
        assert vectors.count(conn, [KEY_A, KEY_A]) == 2  # both models' vectors of the key
        read = dict(vectors.read(conn, "e5", [KEY_A]))
        assert list(read) == [KEY_A]
        assert math.isclose(vectors.similarity([0.0, 1.0], read[KEY_A]), 1.0)
        with conn:
            vectors.delete(conn, [KEY_A])
        assert vectors.keys(conn) == {KEY_B} and vectors.count(conn) == 1
    finally:
        conn.close()


def test_a_packed_vector_is_one_byte_a_value_and_scores_its_cosine_closely(
    tmp_path: Path,
) -> None:
    rng = random.Random(7)
    query = vectors.unit([rng.gauss(0, 1) for _ in range(384)])
    made = [[rng.gauss(0, 1) + q for q in query] for _ in range(20)]
    conn = _index(tmp_path)
    try:
        with conn:
            vectors.add(conn, "e5", [(f"{n:016x}", v) for n, v in enumerate(made)])
        sizes = {n for (n,) in conn.execute("SELECT length(vec) FROM vectors")}
        assert sizes == {384}
        for key, packed in vectors.read(conn, "e5"):
            wide = vectors.unit(made[int(key, 16)])
            exact = math.fsum(a * b for a, b in zip(query, wide, strict=True))
            assert abs(vectors.similarity(query, packed) - exact) < 0.005
    finally:
        conn.close()
