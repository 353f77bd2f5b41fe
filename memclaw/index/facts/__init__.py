"""The facts table: every fact's places, projected from the files at each sync.

Rebuilt with the rest of the index (``sync``, ``reindex``) from the files alone,
so it always agrees with them. ``signal`` gives the search ranker the trust of
the facts on a hit's lines, computed from the evidence at read time.

Import the modules themselves (``table`` for the sync, ``signal`` for the
ranker): the sync must not load the ranker.

May import: facts, workspace, text, config, errors.
"""
