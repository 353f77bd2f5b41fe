"""Dreaming and batch upkeep: `dream` (run, undo, status) and `consolidate`.

`cron`, which schedules both, is in cli/setup/.
"""
