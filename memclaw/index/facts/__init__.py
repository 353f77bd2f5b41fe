"""Facts in the index: trust as a ranking signal.

``signal`` gives the search ranker the trust of the facts on a hit's lines,
computed from the evidence at read time; ``places`` finds where those facts
live from the index's own rows (no table of facts is kept: see there).

May import: facts, workspace, text, config, errors.
"""
