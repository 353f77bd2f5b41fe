"""Text handling shared by search, extraction and dreaming: stemming, tokens, likeness.

``stem`` stems words (Snowball, per language), ``language`` guesses a text's
language, ``tokenize`` turns text into index terms and queries, ``likeness``
tells when two statements say the same thing (for extraction's novelty checks
and for dreaming's consolidation alike).

May import: nothing else of memclaw (it is the bottom layer, beside gates).
"""
