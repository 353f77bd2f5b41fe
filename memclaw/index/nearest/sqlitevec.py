"""Cosine similarities computed in SQL by sqlite-vec, when it loads.

sqlite-vec scores every cached vector in C against the packed question (one signed
byte a value, as ``vectors.pack`` stores them): the cosine the brute-force ranking
computes in Python (``vectors.similarity``), in float32, so both paths agree to a
millionth.
"""

from __future__ import annotations

import contextlib
import importlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any


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


def similarities(path: Path, model: str, query: bytes, dim: int) -> dict[str, float] | None:
    """Cosine similarity of the packed ``query`` to every ``model`` vector of ``dim``
    values, by content hash; None without sqlite-vec."""
    from memclaw.index.vectors import SIMILARITIES

    with open_with_vec(path) as conn:
        if conn is None:
            return None
        return dict(conn.execute(SIMILARITIES, (query, model, dim)))
