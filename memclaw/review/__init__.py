"""Reviewing what memory holds: secret scans (and redaction) over every memory file.

May import: index, workspace, gates, config, errors.
"""
