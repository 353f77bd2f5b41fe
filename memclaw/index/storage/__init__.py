"""How the index stores what it holds: the contentless full-text rows and compaction.

May import: memclaw.index.blocks, memclaw.index.schema, memclaw.text, errors.
"""
