"""Dreaming: nightly consolidation of daily notes into MEMORY.md, with a diary and undo.

``run`` is one dream (lock, candidates, merge or model rewrite, the loss
guard of ``workspace.guard``, log, diary, undo); ``candidates`` scores lines
of recent notes by ``salience`` and groups restatements into ``clusters``;
``merge`` folds the winners into MEMORY.md offline, ``prompt`` asks a model
instead; ``memory_md`` reads and compares MEMORY.md's lines; ``diary`` writes
DREAMS.md; ``status`` says when the last and next dream are; ``consolidate``
merges near-duplicate memory entries.

May import: entries, extract, index, workspace, llm, text, gates, config, errors.
"""
