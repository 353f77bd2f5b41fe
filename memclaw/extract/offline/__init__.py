"""The offline rule engine: facts from a conversation with no model at all.

``engine.extract_facts`` is the entry point. ``text`` splits and normalises
sentences, ``people`` and ``refs`` resolve who is meant, ``frames`` and
``rules`` recognise the kinds of fact (identity, preference, rule, decision,
plan), ``pets`` reads a pet told about in pieces, ``i18n`` carries the other
languages it reads, ``dates`` resolves relative days, ``clean`` tidies the
sentences it writes and ``fragments`` makes a run's short facts about one
subject into one sentence.

May import: text (likeness, combine), gates, facts (its conflict judge). Nothing
here touches files.
"""
