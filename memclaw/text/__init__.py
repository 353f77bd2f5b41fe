"""Text handling shared by search, extraction and dreaming: stemming, tokens, likeness.

``stem`` stems words (Snowball, per language), ``language`` guesses a text's language,
``tokenize`` turns text into index terms and queries,
``similar`` and ``similarity`` tell when two statements say the same thing.

May import: nothing else of memclaw (it is the bottom layer, beside gates).
"""
