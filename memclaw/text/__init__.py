"""Text handling shared by search, extraction and dreaming: stemming, tokens, likeness.

``stem`` stems words, ``tokenize`` turns text into index terms and queries,
``similar`` and ``similarity`` tell when two statements say the same thing, ``jsonsafe``
is the one JSON reader (nesting depth bounded) every module decodes with.

May import: nothing else of memclaw (it is the bottom layer, beside gates).
"""
