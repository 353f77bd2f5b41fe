"""The ``limit`` nearest visible blocks, ranked in SQL by sqlite-vec, scored exactly.

sqlite-vec orders rows by cosine similarity times the file's weight, in float32;
each chosen row is then scored as the brute-force ranking scores it (the same
float64 dot product, weight and recency decay), so both paths agree. Decay never
raises a positive score, so rows beyond the ``n`` fetched cannot beat the ``n``-th
undecayed score: ``n`` grows until the ``limit``-th exact score reaches it.
"""

from __future__ import annotations

import contextlib
import importlib
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

Row = tuple[Any, ...]
# float32 distances differ from the float64 re-score by ~1e-7: keep a margin on the bound.
SLACK = 1e-5
FIRST_ROUND = 64
GROWTH = 4


def _driver() -> ModuleType | None:
    """A sqlite3 module whose connections can load extensions, or None."""
    if hasattr(sqlite3.Connection, "enable_load_extension"):
        return sqlite3
    with contextlib.suppress(ImportError):
        return importlib.import_module("pysqlite3.dbapi2")
    return None


def available() -> bool:
    """True when sqlite-vec is installed and this Python can load it."""
    try:
        importlib.import_module("sqlite_vec")
    except ImportError:
        return False
    return _driver() is not None


@contextlib.contextmanager
def open_with_vec(path: Path) -> Iterator[Any | None]:
    """A read-only connection to the index at ``path`` with sqlite-vec loaded, or None."""
    driver = _driver()
    try:
        sqlite_vec = importlib.import_module("sqlite_vec")
    except ImportError:
        sqlite_vec = None
    if driver is None or sqlite_vec is None:
        yield None
        return
    conn = driver.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=30.0)
    try:
        try:
            conn.enable_load_extension(True)
            sqlite_vec.load(conn)
            conn.enable_load_extension(False)
        except (AttributeError, driver.Error):
            yield None  # this build cannot load it after all: brute force
            return
        yield conn
    finally:
        conn.close()


def nearest_rows(
    path: Path,
    columns: str,
    model: str,
    query: bytes,
    dim: int,
    where: tuple[str, list[Any]],
    kind_weight: dict[str, float],
    default_weight: float,
    score: Callable[[Row], float],
    limit: int,
) -> list[tuple[float, Row]] | None:
    """(exact score, row) of the best ``limit`` rows, best first; None without sqlite-vec.

    Rows select ``columns`` (over ``b`` blocks, ``f`` files, ``v`` vectors) then the
    SQL score; ``score(row)`` is the exact score.
    """
    clause, params = where
    cases = " ".join("WHEN ? THEN ?" for _ in kind_weight)
    weight_params = [x for kind, w in kind_weight.items() for x in (kind, w)]
    sql = (
        f"SELECT {columns},"
        f" (1.0 - vec_distance_cosine(v.vec, ?)) * (CASE f.kind {cases} ELSE ? END) AS s"
        " FROM blocks b JOIN files f ON f.id = b.file_id"
        " JOIN vectors v ON v.model = ? AND v.hash = b.hash"
        f" WHERE v.dim = ? AND {clause} ORDER BY s DESC, b.id ASC LIMIT ?"
    )
    with open_with_vec(path) as conn:
        if conn is None:
            return None
        n = max(limit, FIRST_ROUND)
        while True:
            args = [query, *weight_params, default_weight, model, dim, *params, n]
            rows = conn.execute(sql, args).fetchall()
            scored = [(score(row[:-1]), row[:-1]) for row in rows]
            scored.sort(key=lambda t: (-t[0], int(t[1][0])))
            best = scored[:limit]
            if len(rows) < n:
                return best
            bound = max(float(rows[-1][-1]), 0.0) + SLACK
            if len(best) >= limit and best[-1][0] >= bound:
                return best
            n *= GROWTH
