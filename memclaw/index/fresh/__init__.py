"""Freshness: what a search checks so that the index answers for the files as they are.

Checking every file costs one stat each (40 ms at 10,000 notes, most of a warm
search), so a search checks what is likely to have changed and a full sweep runs on
a time budget; ``memclaw watch`` makes even that unnecessary while it runs.

May import: memclaw.index.store, memclaw.index.layout, workspace.paths, errors.
"""
