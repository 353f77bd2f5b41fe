"""Seeing and steering what memory changed: receipts, undo, the timeline and `why`.

Every memory write is noted in the change journal
(``workspace.safeguards.journal``), one record per operation. ``records``
reads that journal for one scope; ``receipt`` turns a record into the lines
added, changed and removed, with their fact ids; ``undo`` reverts the last
change, guarded against reverting over a later hand edit; ``timeline`` lists
every memory event newest first (changes, dreams from their reports and the
monthly archive, hand edits detected); ``why`` traces one remembered line back
to the session, the turn, the extraction and the dreams that produced it.

May import: dream (its reports), entries, extract, index, workspace, facts, text, gates,
config, errors.
"""
