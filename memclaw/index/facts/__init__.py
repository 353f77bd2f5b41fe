"""The facts table: every fact's places, projected from the files at each sync.

Rebuilt with the rest of the index (``sync``, ``reindex``) from the files alone,
so it always agrees with them. ``TrustLookup`` gives the search ranker a fact's
trust by (file, line) or by id, computed from the evidence at read time.

Import the modules themselves (``table`` for the sync, ``trust`` for
readers): the sync must not load the readers, which sync first.

May import: facts, workspace, text, config, errors.
"""
