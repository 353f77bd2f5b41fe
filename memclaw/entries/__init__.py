"""Memory entries: remember, list, get and forget single facts kept as ``## id`` blocks.

``memories`` is the store (one markdown file per category under ``entries/``),
``match`` decides when a new fact updates or supersedes an old one, and
``forgotten`` keeps hashed fingerprints of forgotten facts so that extraction
and dreaming never bring them back.

May import: index, workspace, text, gates, config, errors.
"""
