"""Put an index back the way an older memclaw left it, for the migration tests."""

import sqlite3


def float32_vectors(conn: sqlite3.Connection, rows: list[tuple[str, str, int, bytes]]) -> None:
    """The vectors table as schemas 2 to 6 kept it: (model, hash, dim, float32 blob)."""
    conn.execute("DROP TABLE vectors")
    conn.execute("DROP TABLE vector_models")
    conn.execute(
        "CREATE TABLE vectors (model TEXT NOT NULL, hash TEXT NOT NULL, dim INTEGER NOT NULL,"
        " vec BLOB NOT NULL, PRIMARY KEY (model, hash)) WITHOUT ROWID"
    )
    conn.executemany("INSERT INTO vectors VALUES (?, ?, ?, ?)", rows)
