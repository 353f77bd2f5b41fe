"""The offline rule engine: facts from a conversation with no model at all.

``engine.extract_facts`` is the entry point. ``text`` splits and normalises
sentences, ``people`` and ``refs`` resolve who is meant, ``frames`` and
``rules`` recognise the kinds of fact (identity, preference, rule, decision,
plan), ``i18n`` carries the other languages it reads, ``dates`` resolves
relative days and ``clean`` tidies the sentences it writes.

May import: text (likeness), gates. Nothing here touches files.
"""
