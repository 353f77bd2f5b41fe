"""Finding what memory holds: `search`, and the index it reads (`stats`, `reindex`, `watch`).

``hits`` prints search results; ``cli/fast.py`` imports it too, so this package's
``__init__`` imports nothing.
"""
