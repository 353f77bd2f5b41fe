"""Memory entries: remember, list, get and forget single facts kept as ``## id`` blocks.

``memories`` remembers (one markdown file per category under ``entries/``, read and
written by ``files``), ``lookup`` lists, gets and matches entries, ``forgetting``
removes them, and ``match`` decides when a new fact updates or supersedes an old one. What is
forgotten is recorded in ``extract.forgotten``, so no later extraction learns it
again.

May import: extract (its rule engine classifies facts), index, workspace, text,
gates, config, errors.
"""
