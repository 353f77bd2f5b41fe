"""Nearest vectors through sqlite-vec, when it can be loaded; None means "use brute force".

sqlite-vec (``pip install 'memclaw[vec]'``) computes distances in C inside SQLite.
It is a loadable extension, so it needs a SQLite that may load one: Python's own
``sqlite3`` when built with extension loading, else ``pysqlite3`` (part of the
extra on Linux x86-64). Neither is imported unless an embedding model is set.

May import: memclaw.index.rank, memclaw.index.semantic's helpers (by argument), config.
"""
